package warc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// insertAt returns data with ins inserted at offset at.
func insertAt(data []byte, at int64, ins string) []byte {
	return append(append(append([]byte{}, data[:at]...), ins...), data[at:]...)
}

// setARCLength returns the ARC fixture with the Archive-length of record k
// changed by delta.
func setARCLength(data []byte, k int, delta int) []byte {
	s := arcOffsets(data)[k]
	e := s + int64(bytes.IndexByte(data[s:], '\n'))
	old := string(data[s:e])
	i := strings.LastIndexByte(old, ' ')
	var n int
	fmt.Sscan(old[i+1:], &n)
	return append(append(append([]byte{}, data[:s]...), fmt.Sprintf("%s %d", old[:i], n+delta)...), data[e:]...)
}

// TestDamageKinds damages archives in every way the reader tells apart and
// checks the Kind of the errors: the kind of each case, and every kind the
// reader can produce produced at least once.
func TestDamageKinds(t *testing.T) {
	recs := sampleRecords(6)
	plain := buildArchive(t, recs, false)
	gzRecs := sampleRecords(6)
	gzipped := buildArchive(t, gzRecs, true)
	arc := readFixture(t)
	arcOffs := arcOffsets(arc)
	edit := func(k int, f func(string) string) []byte {
		rs := sampleRecords(6)
		return editRecord(buildArchive(t, rs, false), rs, k, f)
	}
	dropField := func(field string) func(string) string {
		return func(h string) string {
			i := strings.Index(h, "\r\n"+field+":")
			return h[:i] + h[lineEnd(h, i+2):]
		}
	}
	flipped := bytes.Clone(gzipped)
	flipped[gzRecs[2].Offset+gzRecs[2].Length/2] ^= 0x55
	digest := bytes.Clone(plain)
	digest[recs[2].Offset+recs[2].Length-10] ^= 1
	// A gzip member whose header runs into its FEXTRA field, which claims
	// more bytes than there are.
	badHeader := insertAt(gzipped, gzRecs[3].Offset, "\x1f\x8b\x08\x04\x00\x00\x00\x00\x00\xff\xff\xff")
	// Blocks longer than the resync window, cut: an input that cannot
	// seek has no length to check them against before reading them.
	window := Options{ResyncWindow: 256 << 10}
	bigRecs := sampleRecords(3)
	bigRecs[1].Content = append(httpBlock(1), bytes.Repeat([]byte("x"), 300<<10)...)
	bigCut := buildArchive(t, bigRecs, false)[:bigRecs[1].Offset+bigRecs[1].Length-100]
	bigARC := fmt.Sprintf("http://a.example/ 192.0.2.1 20010101000000 text/plain %d\n", 300<<10) + strings.Repeat("y", 299<<10)

	// A record whose payload does not match its WARC-Payload-Digest,
	// without a block digest.
	payloadBad := digestRecord("WARC-Payload-Digest: sha1:"+strings.Repeat("A", 32)+"\r\n", "HTTP/1.1 200 OK\r\n\r\nbody")
	// A stream without digests whose checksum fails.
	stream := gzipWhole(stripDigests(plain))
	stream[len(stream)-6] ^= 1

	cases := []struct {
		name     string
		data     []byte
		opts     Options
		seekable bool
		want     DamageKind
		reason   string // in the Reason of the first error
	}{
		{"garbage", insertAt(plain, recs[2].Offset, "some garbage\r\n"), Options{}, true, DamageGarbage, "not a record"},
		{"garbage in member", gzipWhole(insertAt(plain, recs[2].Offset, "some garbage\r\n")), Options{}, false, DamageGarbage, "in the gzip member"},
		{"gzip cut", gzipped[:gzRecs[3].Offset+gzRecs[3].Length/2], Options{}, false, DamageGzipTruncated, "cut short"},
		{"gzip header", badHeader, Options{}, false, DamageGzipHeader, "gzip member header"},
		{"gzip member", flipped, Options{}, true, DamageGzipMember, "damaged gzip member"},
		{"no Content-Length", edit(2, dropField(FieldContentLength)), Options{}, true, DamageMissingContentLength, "no Content-Length"},
		{"bad Content-Length", edit(2, func(h string) string {
			return strings.Replace(h, "Content-Length: ", "Content-Length: x", 1)
		}), Options{}, true, DamageBadContentLength, "bad Content-Length"},
		{"no WARC-Record-ID", edit(2, dropField(FieldRecordID)), Options{}, true, DamageMissingField, FieldRecordID},
		{"no WARC-Date", edit(2, dropField(FieldDate)), Options{}, true, DamageMissingField, FieldDate},
		{"digest", digest, Options{}, true, DamageDigestMismatch, "Block-Digest"},
		{"payload digest", payloadBad, Options{}, true, DamagePayloadDigestMismatch, "Payload-Digest"},
		{"cut in block", bigCut, window, false, DamageTruncatedRecord, "ends inside the record block"},
		{"cut in header", plain[:recs[3].Offset+30], Options{}, false, DamageTruncatedRecord, "ends inside the record header"},
		{"length past the end", plain[:recs[3].Offset+recs[3].Length-20], Options{}, true, DamageTruncatedRecord, "runs past the end"},
		{"ARC cut", []byte(bigARC), window, false, DamageTruncatedRecord, "ends inside the ARC record"},
		{"ARC length past the end", arc[:len(arc)-20], Options{}, true, DamageTruncatedRecord, "Archive-length"},
		{"ARC length short", setARCLength(arc, 1, -30), Options{}, true, DamageWrongARCLength, "not followed by a newline"},
		{"ARC length long", setARCLength(arc, 1, +1), Options{}, false, DamageWrongARCLength, "Archive-length"},
		{"ARC garbage", insertAt(arc, arcOffs[2], "garbage garbage\n"), Options{}, true, DamageWrongARCLength, "not followed by the next record"},
		{"Content-Length short", edit(2, setLength(-1)), Options{}, true, DamageWrongContentLength, "CRLF CRLF"},
		{"Content-Length long", edit(2, setLength(+100)), Options{}, false, DamageWrongContentLength, "CRLF CRLF"},
		{"record inside header", insertAt(plain, recs[2].Offset, "WARC/1.0\r\nWARC-Type: resp"), Options{}, true, DamageBadHeader, "a new record starts inside it"},
		{"not fields", edit(2, func(h string) string {
			return strings.Replace(h, "\r\n", "\r\n"+strings.Repeat("no colon here\r\n", 20), 1)
		}), Options{}, true, DamageBadHeader, "not fields"},
		{"header too long", edit(2, func(h string) string {
			return strings.Replace(h, "\r\n", "\r\nX-Long: "+strings.Repeat("x", 600)+"\r\n", 1)
		}), Options{MaxHeaderBytes: 512}, true, DamageBadHeader, "record header longer"},
		{"version line too long", plain, Options{MaxHeaderBytes: 8}, true, DamageBadHeader, "version line longer"},
	}
	seen := map[DamageKind]bool{}
	// The records of a stream whose checksum fails, and then the member.
	_, errs, _ := readAll(t, stream, Options{}, true)
	for _, re := range recordErrors(t, errs) {
		seen[re.Kind] = true
	}
	if !seen[DamageUnverifiable] || !seen[DamageGzipMember] {
		t.Errorf("damaged stream: errors %v", errs)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, _ := readAll(t, c.data, c.opts, c.seekable)
			res := recordErrors(t, errs)
			if len(res) == 0 {
				t.Fatal("no error")
			}
			if !strings.Contains(res[0].Reason, c.reason) {
				t.Errorf("reason %q, want one with %q", res[0].Reason, c.reason)
			}
			for _, re := range res {
				if re.Kind != c.want {
					t.Errorf("kind %v, want %v: %v", re.Kind, c.want, re)
				}
				seen[re.Kind] = true
			}
		})
	}
	// The reader parses only ARC URL lines it has already recognised:
	// DamageBadARCLine guards against a change that breaks that.
	for k := DamageOther + 1; int(k) < len(damageNames); k++ {
		if !seen[k] && k != DamageBadARCLine {
			t.Errorf("no case produces %v", k)
		}
	}
}

func TestKindStrings(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{DamageTruncatedRecord.String(), "truncated record"},
		{DamageKind(-1).String(), "DamageKind(-1)"},
		{HTTPTruncatedBody.String(), "truncated body"},
		{HTTPErrorKind(99).String(), "HTTPErrorKind(99)"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
	e := &RecordError{Offset: 3, InMember: -1, Kind: DamageGarbage, Reason: "junk"}
	if e.Error() != "warc: offset 3: junk" {
		t.Errorf("Error() = %q", e.Error())
	}
}
