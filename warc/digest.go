package warc

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"strings"
)

// Digests: WARC 1.1 section 5.8 and 5.9 (labelled-digest = algorithm ":"
// digest-value), https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#warc-block-digest
//
// The specification names no encoding; crawlers write sha1 in base32
// (Heritrix, wget, warcio), and some tools write hex (base16), lower or
// upper case, or sha256. A digest is decoded by the length of its value for
// the algorithm: hex, then base32 (padding optional, any case), then
// base64. A digest with an algorithm this package does not know, or a value
// it cannot decode, cannot be checked and is ignored.

// digest is a decoded labelled digest.
type digest struct {
	algo string // "sha1", "sha256", "sha512" or "md5"
	sum  []byte
}

// newHash returns a hash for the algorithm of d.
func (d *digest) newHash() hash.Hash {
	switch d.algo {
	case "sha1":
		return sha1.New()
	case "sha256":
		return sha256.New()
	case "sha512":
		return sha512.New()
	case "md5":
		return md5.New()
	}
	return nil
}

// parseDigest decodes a labelled digest such as "sha1:2Z3...". ok is false
// when the value cannot be checked.
func parseDigest(v string) (d digest, ok bool) {
	algo, val, found := strings.Cut(strings.TrimSpace(v), ":")
	if !found {
		return digest{}, false
	}
	algo = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(algo), "-", ""))
	size := 0
	switch algo {
	case "sha1":
		size = sha1.Size
	case "sha256":
		size = sha256.Size
	case "sha512":
		size = sha512.Size
	case "md5":
		size = md5.Size
	default:
		return digest{}, false
	}
	val = strings.TrimSpace(val)
	if len(val) == 2*size {
		if b, err := hex.DecodeString(val); err == nil {
			return digest{algo, b}, true
		}
	}
	b32 := strings.ToUpper(strings.TrimRight(val, "="))
	if b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(b32); err == nil && len(b) == size {
		return digest{algo, b}, true
	}
	if b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(val, "=")); err == nil && len(b) == size {
		return digest{algo, b}, true
	}
	return digest{}, false
}

// Digest states of a record (Record.Digest).
const (
	// DigestNone: the record has no digest this package can check, or
	// Options.SkipDigests is set.
	DigestNone = iota
	// DigestBlock: the block matched its WARC-Block-Digest.
	DigestBlock
	// DigestPayload: the record has no checkable WARC-Block-Digest, and
	// its payload matched its WARC-Payload-Digest.
	DigestPayload
)

// blockCheck is the digest check of a block being read.
type blockCheck struct {
	want digest
	h    hash.Hash
}

// newBlockCheck returns the check of the WARC-Block-Digest of rec, or nil.
func (r *Reader) newBlockCheck(rec *Record) *blockCheck {
	if r.opts.SkipDigests {
		return nil
	}
	d, ok := parseDigest(rec.Header.Get(FieldBlockDigest))
	if !ok {
		return nil
	}
	return &blockCheck{want: d, h: d.newHash()}
}

func (c *blockCheck) write(b []byte) {
	if c != nil {
		c.h.Write(b)
	}
}

// payloadCheckable reports whether the WARC-Payload-Digest of rec can be
// checked: the block was kept whole, and the record carries a payload of its
// own (a revisit record does not; a record the crawler truncated has a
// payload digest of the whole payload it could not store).
func payloadCheckable(rec *Record) bool {
	return !rec.Truncated && rec.Content != nil && !rec.IsRevisit() && !rec.Header.Has(FieldTruncated)
}

// checkPayload checks the WARC-Payload-Digest of rec, a record whose block
// has no checkable WARC-Block-Digest. ok is false for a mismatch; checked
// is false when there was nothing to check.
//
// The payload is the block without its protocol headers: for an HTTP
// message (Content-Type application/http), the bytes after the blank line
// that ends the HTTP header, as transferred (warcio and Heritrix digest
// them so: a chunked body with its chunk lines); for any other block, the
// block itself. Some crawlers digested the body after removing the chunked
// transfer coding: a digest that matches that is accepted too.
func checkPayload(rec *Record) (checked, ok bool) {
	d, found := parseDigest(rec.Header.Get(FieldPayloadDigest))
	if !found || !payloadCheckable(rec) {
		return false, false
	}
	payload := rec.Content
	isHTTP := strings.HasPrefix(strings.ToLower(rec.ContentType()), "application/http")
	if isHTTP {
		i := httpHeaderEnd(payload)
		if i < 0 {
			return true, false
		}
		payload = payload[i:]
	}
	if sumOf(d, payload) {
		return true, true
	}
	if isHTTP {
		if body, err := dechunk(payload, int64(len(payload))); err == nil && sumOf(d, body) {
			return true, true
		}
	}
	return true, false
}

func sumOf(d digest, b []byte) bool {
	h := d.newHash()
	h.Write(b)
	return bytes.Equal(h.Sum(nil), d.sum)
}

// httpHeaderEnd returns the index after the blank line that ends the HTTP
// header at the start of b (CRLF CRLF, or LF LF), or -1.
func httpHeaderEnd(b []byte) int {
	i := bytes.Index(b, []byte("\r\n\r\n"))
	j := bytes.Index(b, []byte("\n\n"))
	switch {
	case i >= 0 && (j < 0 || i < j):
		return i + 4
	case j >= 0:
		return j + 2
	}
	return -1
}
