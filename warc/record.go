package warc

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Record types of the WARC specification (the values of WARC-Type).
const (
	TypeWarcinfo     = "warcinfo"
	TypeResponse     = "response"
	TypeResource     = "resource"
	TypeRequest      = "request"
	TypeMetadata     = "metadata"
	TypeRevisit      = "revisit"
	TypeConversion   = "conversion"
	TypeContinuation = "continuation"
)

// Names of the WARC header fields this package reads or writes.
const (
	FieldType          = "WARC-Type"
	FieldRecordID      = "WARC-Record-ID"
	FieldDate          = "WARC-Date"
	FieldContentLength = "Content-Length"
	FieldContentType   = "Content-Type"
	FieldTargetURI     = "WARC-Target-URI"
	FieldIPAddress     = "WARC-IP-Address"
	FieldRefersTo      = "WARC-Refers-To"
	FieldBlockDigest   = "WARC-Block-Digest"
	FieldPayloadDigest = "WARC-Payload-Digest"
	FieldWarcinfoID    = "WARC-Warcinfo-ID"
	FieldFilename      = "WARC-Filename"
	FieldTruncated     = "WARC-Truncated"
)

// Record is one record of a WARC or ARC file.
//
// Content holds the record block in memory (for a response record: the HTTP
// status line, headers and body as the crawler received them). It is a
// []byte and not an io.Reader by measurement: on a 50 MB crawl compressed
// record by record (BenchmarkReadWARC against BenchmarkReadWARCHeadersOnly,
// which skips the blocks) keeping every block costs about 6% of the read
// time, gzip decoding being the rest; and the consumers of this package
// (HTTP parsing, HTML cleaning) need the whole block in memory anyway. In
// exchange a record stays valid after the iteration moves on and can be
// handed to another goroutine. Memory stays bounded by
// Options.MaxRecordBytes; Options.HeadersOnly skips the blocks.
type Record struct {
	// Type is the WARC-Type: response, request, resource, metadata,
	// warcinfo, conversion, revisit, continuation or a later type. ARC
	// records are "response", except the ARC file header (filedesc://),
	// which is "warcinfo".
	Type string
	// Header holds the named fields in file order. For ARC records it holds
	// fields synthesised from the URL record line: WARC-Type,
	// WARC-Target-URI, WARC-Date, WARC-IP-Address, Content-Type and
	// Content-Length.
	Header Header
	// Version is the version line of a WARC record ("WARC/1.0",
	// "WARC/1.1") or "ARC/1" or "ARC/2" for ARC records. The Writer writes
	// "WARC/1.0" when it is set to that, "WARC/1.1" otherwise.
	Version string
	// TargetURI is the WARC-Target-URI without enclosing angle brackets.
	TargetURI string
	// Date is the WARC-Date (or the ARC archive date); zero if absent or
	// unparseable.
	Date time.Time
	// Offset is the byte offset of the record in the file: of its first byte
	// in a plain file, of its gzip member in a file compressed record by
	// record. Length is the number of bytes the record occupies there,
	// trailing CRLF CRLF (or ARC newline) included; for a gzip member, its
	// compressed length.
	//
	// When several records share one gzip member (a file compressed as one
	// gzip stream), a record has no offset in the file of its own: Shared is
	// then set and Offset and Length count decompressed bytes from the start
	// of the member, which begins at MemberOffset in the file.
	//
	// MemberOffset is the file offset of the gzip member that holds the
	// record (equal to Offset when the member holds this record only), or -1
	// in a plain file.
	Offset, Length int64
	Shared         bool
	MemberOffset   int64
	// Content is the record block, or its first Options.MaxRecordBytes bytes
	// when Truncated is set (the rest was skipped). It is nil when
	// Options.HeadersOnly is set.
	Content []byte
	// Truncated reports that the block was longer than
	// Options.MaxRecordBytes and Content holds its start only. (A record
	// that the crawler itself truncated says so in its WARC-Truncated field.)
	Truncated bool
	// Digest says what checked the record's bytes: DigestBlock (its
	// WARC-Block-Digest matched), DigestPayload (it has no block digest,
	// and its WARC-Payload-Digest matched) or DigestNone. A record in a
	// gzip member is also checked by the member's CRC-32 (see Reader).
	Digest int
	// Unverified reports that the record is not vouched for whole: it
	// comes from a gzip member that fails its checksum (then its block
	// matched its WARC-Block-Digest, or the reader would have reported it
	// as DamageUnverifiable, but its header is covered by nothing), or
	// from a member holding several records, beyond Options.HoldBytes, in
	// an input the reader could not read twice (then, if the member turns
	// out damaged, the reader says so after it). A caller that must not
	// use damaged data treats it as failed; package corpus does.
	Unverified bool
}

// ID returns the record's WARC-Record-ID, such as
// "<urn:uuid:0f1e2d3c-...>", or "" if it has none (ARC records have none).
// It is the value a conversion or revisit record names in WARC-Refers-To.
func (r *Record) ID() string { return r.Header.Get(FieldRecordID) }

// RecordID returns the WARC-Record-ID of rec (see Record.ID); "" for nil.
func RecordID(rec *Record) string {
	if rec == nil {
		return ""
	}
	return rec.ID()
}

// ContentType returns the record's Content-Type field (of the block: for an
// HTTP response record "application/http; msgtype=response").
func (r *Record) ContentType() string { return r.Header.Get(FieldContentType) }

// IsRevisit reports whether the record is a revisit record: it stands for an
// earlier capture (named by WARC-Refers-To) and carries no payload of its own.
func (r *Record) IsRevisit() bool { return strings.EqualFold(r.Type, TypeRevisit) }

// Options configures a Reader. The zero value gives the documented defaults.
type Options struct {
	// MaxRecordBytes caps the bytes of a record block held in
	// Record.Content; a longer block is read up to the cap, marked
	// Truncated, and the rest is skipped. Default (0): 64 MiB.
	MaxRecordBytes int64
	// MaxHeaderBytes caps the size of a WARC record header (or of an ARC
	// URL line); a longer one is reported as damage. Default (0): 1 MiB.
	MaxHeaderBytes int
	// ResyncWindow is how many bytes from the start of the current record
	// (and of the current gzip member) the reader keeps so that, after
	// damage, it can rescan them for the next record. If the input is an
	// io.Seeker the reader seeks back instead when the bytes are no longer
	// kept; otherwise records that started inside a damaged region longer
	// than the window are lost (the damage is still reported). Default (0):
	// 8 MiB; at least 256 KiB.
	ResyncWindow int
	// HeadersOnly leaves Content nil: blocks are checked for length and
	// skipped without being kept (for indexing).
	HeadersOnly bool
	// SkipDigests turns off the digest checks. By default a record with a
	// WARC-Block-Digest (sha1, sha256, sha512 or md5; base32, hex or
	// base64) is checked against its block, over its whole length even
	// when it is longer than MaxRecordBytes, and a record without one but
	// with a WARC-Payload-Digest is checked against its payload (see
	// Record.Digest). A record that does not match is reported as a
	// *RecordError (DamageDigestMismatch, DamagePayloadDigestMismatch)
	// instead of being returned.
	SkipDigests bool
	// HoldBytes caps the records held back while a gzip member that
	// holds several records (a file compressed as one gzip stream) is
	// read: its records are yielded only once the member's checksum
	// verified, because damage to deflate data shows only there (see
	// Reader). When a member holds more, the reader verifies the member on
	// its own first (a second decompression, through io.ReaderAt: an
	// *os.File or *bytes.Reader) and then yields its records as they come;
	// an input that is no io.ReaderAt gets the records beyond the cap
	// without a digest of their own marked Unverified. Default (0): 32 MiB.
	HoldBytes int64
}

// Defaults of Options.
const (
	DefaultMaxRecordBytes = 64 << 20
	DefaultMaxHeaderBytes = 1 << 20
	DefaultResyncWindow   = 8 << 20
	DefaultHoldBytes      = 32 << 20
	minResyncWindow       = 256 << 10
)

func (o Options) withDefaults() Options {
	if o.MaxRecordBytes <= 0 {
		o.MaxRecordBytes = DefaultMaxRecordBytes
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if o.ResyncWindow <= 0 {
		o.ResyncWindow = DefaultResyncWindow
	}
	o.ResyncWindow = max(o.ResyncWindow, minResyncWindow)
	if o.HoldBytes <= 0 {
		o.HoldBytes = DefaultHoldBytes
	}
	return o
}

// ErrNotArchive is wrapped by the error a Reader yields (as its only item)
// for input that is neither a WARC nor an ARC file; the message says what the
// input looks like.
var ErrNotArchive = errors.New("not a WARC or ARC archive")

// DamageKind is the kind of damage a RecordError reports, for callers that
// sort damage (a summary, a retry policy) without reading messages.
type DamageKind int

// Kinds of damage. The zero value, DamageOther, is damage of none of the
// other kinds; the Reader always sets a specific one.
const (
	// DamageOther: none of the kinds below.
	DamageOther DamageKind = iota
	// DamageGarbage: bytes between records (or in a gzip member) that are
	// not a record.
	DamageGarbage
	// DamageGzipTruncated: a gzip member cut short by the end of the input.
	DamageGzipTruncated
	// DamageGzipHeader: a gzip member whose header cannot be read.
	DamageGzipHeader
	// DamageGzipMember: a gzip member that fails to decompress (corrupt
	// data, bad checksum).
	DamageGzipMember
	// DamageMissingContentLength: a WARC record without Content-Length,
	// whose block therefore cannot be delimited.
	DamageMissingContentLength
	// DamageBadContentLength: a Content-Length that is not a number.
	DamageBadContentLength
	// DamageMissingField: a record without a required field (WARC-Type,
	// WARC-Record-ID, WARC-Date).
	DamageMissingField
	// DamageDigestMismatch: a block that does not match its
	// WARC-Block-Digest.
	DamageDigestMismatch
	// DamageTruncatedRecord: the input ends inside the record, or its
	// declared length runs past the end of the input.
	DamageTruncatedRecord
	// DamageWrongARCLength: an ARC record not followed by the next record
	// where its Archive-length says it ends.
	DamageWrongARCLength
	// DamageWrongContentLength: a WARC block not followed by CRLF CRLF
	// where its Content-Length says it ends.
	DamageWrongContentLength
	// DamageBadARCLine: an ARC URL line that cannot be parsed.
	DamageBadARCLine
	// DamageBadHeader: a WARC record header that cannot be read (too long,
	// not made of fields, interrupted by another record).
	DamageBadHeader
	// DamagePayloadDigestMismatch: a record without a checkable
	// WARC-Block-Digest whose payload does not match its
	// WARC-Payload-Digest.
	DamagePayloadDigestMismatch
	// DamageUnverifiable: a record read whole from a gzip member that
	// fails its checksum, with no digest of its own to show that it was
	// not hit: it cannot be trusted.
	DamageUnverifiable
)

var damageNames = [...]string{
	DamageOther:                 "other damage",
	DamageGarbage:               "garbage between records",
	DamageGzipTruncated:         "truncated gzip member",
	DamageGzipHeader:            "damaged gzip member header",
	DamageGzipMember:            "damaged gzip member",
	DamageMissingContentLength:  "missing Content-Length",
	DamageBadContentLength:      "bad Content-Length",
	DamageMissingField:          "missing required header field",
	DamageDigestMismatch:        "block digest mismatch",
	DamageTruncatedRecord:       "truncated record",
	DamageWrongARCLength:        "wrong ARC Archive-length",
	DamageWrongContentLength:    "wrong Content-Length",
	DamageBadARCLine:            "bad ARC URL line",
	DamageBadHeader:             "bad record header",
	DamagePayloadDigestMismatch: "payload digest mismatch",
	DamageUnverifiable:          "unverifiable record in a damaged gzip member",
}

// String returns a short phrase for the kind, such as "truncated record".
func (k DamageKind) String() string { return kindName(damageNames[:], k, "DamageKind") }

// kindName returns the name of kind k in names, or, for a kind that has no
// name, the name of its type typ and its number, as "DamageKind(99)".
func kindName[K ~int](names []string, k K, typ string) string {
	if k < 0 || int(k) >= len(names) {
		return fmt.Sprintf("%s(%d)", typ, int(k))
	}
	return names[k]
}

// RecordError reports a damaged record, or damaged bytes between records.
// The reader yields it and goes on with the next record it can find.
type RecordError struct {
	// Offset is the file offset of the damaged record, of the gzip member
	// that holds it, or of the unreadable bytes.
	Offset int64
	// InMember is, for damage inside a gzip member that holds other
	// records, the decompressed offset of the damage within the member;
	// -1 otherwise.
	InMember int64
	// Length is how many bytes the damage covers: bytes of the input
	// from Offset (reading resumed at Offset+Length) when InMember is -1;
	// decompressed bytes of the member from InMember otherwise, -1 meaning
	// to the end of the member (it could not be decompressed further;
	// reading resumed at the next record or member after it). Every byte
	// of an input is in exactly one record or one damaged span, but
	// line ends between records.
	Length int64
	// End is the input offset at which reading resumed after the
	// damage, or -1 when it went on inside the same gzip member. For a
	// gzip member that fails after it yielded records (InMember >= 0,
	// Length -1), Offset to End is the member's span in the input.
	End int64
	// Kind sorts the damage, for programs: match on it, not on Reason,
	// whose wording may change.
	Kind DamageKind
	// Reason says what is wrong, in words.
	Reason string
	// Err is the underlying error, if any (such as a gzip or flate error).
	Err error
}

// Error says where the damage is and what it is.
func (e *RecordError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "warc: offset %d", e.Offset)
	if e.InMember >= 0 {
		fmt.Fprintf(&b, " (decompressed offset %d in the gzip member)", e.InMember)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *RecordError) Unwrap() error { return e.Err }
