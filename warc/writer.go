package warc

import (
	"bufio"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Writer writes WARC/1.1 records, each one plain or as its own gzip member
// (as crawlers write *.warc.gz, so that every record can be read from its
// offset alone). It is not safe for concurrent use.
type Writer struct {
	w          countingWriter
	gzip       bool
	zw         *gzip.Writer
	bw         *bufio.Writer
	warcinfoID string
	now        func() time.Time
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// NewWriter returns a Writer that writes to w, compressing each record as
// its own gzip member if gzipRecords is set. Output is buffered per record:
// each WriteRecord writes its record whole to w before it returns.
func NewWriter(w io.Writer, gzipRecords bool) *Writer {
	wr := &Writer{w: countingWriter{w: w}, gzip: gzipRecords, now: time.Now}
	wr.bw = bufio.NewWriterSize(&wr.w, 64<<10)
	return wr
}

// NewRecordID returns a new WARC-Record-ID, "<urn:uuid:...>" with a random
// (version 4) UUID from crypto/rand.
func NewRecordID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails (Go 1.24 and later)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// BlockDigest returns the WARC-Block-Digest value of block as crawlers write
// it: "sha1:" and the base32 SHA-1.
func BlockDigest(block []byte) string {
	sum := sha1.Sum(block)
	return "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
}

// FormatDate formats t as a WARC-Date: UTC, seconds precision, or
// fractional seconds when t has them (allowed by WARC 1.1).
func FormatDate(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}

func validFieldName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return true
}

// cleanValue keeps a field value on one line.
func cleanValue(v string) string {
	if strings.ContainsAny(v, "\r\n") {
		v = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(v)
	}
	return strings.TrimSpace(v)
}

// WriteRecord writes rec and sets rec.Offset and rec.Length to where it went
// in the output (counted from the Writer's first byte).
//
// The header is rec.Header in order, completed and made consistent with the
// record: WARC-Type from rec.Type, WARC-Record-ID (a new one if absent),
// WARC-Date from rec.Date (now if zero), WARC-Target-URI from rec.TargetURI
// if set, Content-Length and a sha1 WARC-Block-Digest of rec.Content (any
// previous values replaced), and WARC-Truncated: length if rec.Truncated.
// rec.Header is updated to what was written. Field values are kept on one
// line; a field name that is not an HTTP token is an error.
func (w *Writer) WriteRecord(rec *Record) error {
	if rec == nil {
		return errors.New("warc: WriteRecord of a nil record")
	}
	h, typ, date, err := w.header(rec)
	if err != nil {
		return err
	}
	version := "WARC/1.1"
	if rec.Version == "WARC/1.0" {
		version = rec.Version
	}
	start, err := w.write(version, h, rec.Content)
	if err != nil {
		return err
	}
	rec.Header, rec.Type, rec.Date, rec.Version = h, typ, date.UTC(), version
	rec.TargetURI = strings.TrimSuffix(strings.TrimPrefix(h.Get(FieldTargetURI), "<"), ">")
	rec.Offset, rec.Length, rec.Shared = start, w.w.n-start, false
	rec.MemberOffset = -1
	if w.gzip {
		rec.MemberOffset = start
	}
	return nil
}

// header returns the header WriteRecord writes for rec, with its type and
// date.
func (w *Writer) header(rec *Record) (h Header, typ string, date time.Time, err error) {
	h = rec.Header.Clone()
	for _, f := range h {
		if !validFieldName(f.Name) {
			return nil, "", time.Time{}, fmt.Errorf("warc: bad header field name %q", f.Name)
		}
	}
	typ = rec.Type
	if typ == "" {
		typ = h.Get(FieldType)
	}
	if typ == "" {
		return nil, "", time.Time{}, errors.New("warc: record has no type")
	}
	h.Set(FieldType, typ)
	if h.Get(FieldRecordID) == "" {
		h.Set(FieldRecordID, NewRecordID())
	}
	date = rec.Date
	if date.IsZero() {
		date = w.now()
	}
	if rec.Version == "WARC/1.0" {
		date = date.Truncate(time.Second)
	}
	h.Set(FieldDate, FormatDate(date))
	if rec.TargetURI != "" {
		h.Set(FieldTargetURI, rec.TargetURI)
	}
	if rec.Truncated && h.Get(FieldTruncated) == "" {
		h.Set(FieldTruncated, "length")
	}
	h.Set(FieldContentLength, strconv.Itoa(len(rec.Content)))
	h.Set(FieldBlockDigest, BlockDigest(rec.Content))
	h = ordered(h)
	for i := range h {
		h[i].Value = cleanValue(h[i].Value)
	}
	return h, typ, date, nil
}

// write writes one record (in a gzip member of its own when compressing)
// and flushes it, and returns the output offset where it starts.
func (w *Writer) write(version string, h Header, content []byte) (int64, error) {
	start := w.w.n + int64(w.bw.Buffered())
	var out io.Writer = w.bw
	if w.gzip {
		if w.zw == nil {
			w.zw = gzip.NewWriter(w.bw)
		} else {
			w.zw.Reset(w.bw)
		}
		out = w.zw
	}
	bw := errWriter{w: out}
	bw.str(version)
	bw.str("\r\n")
	for _, f := range h {
		bw.str(f.Name)
		bw.str(": ")
		bw.str(f.Value)
		bw.str("\r\n")
	}
	bw.str("\r\n")
	bw.write(content)
	bw.str("\r\n\r\n")
	if bw.err != nil {
		return 0, bw.err
	}
	if w.gzip {
		if err := w.zw.Close(); err != nil {
			return 0, err
		}
	}
	if err := w.bw.Flush(); err != nil {
		return 0, err
	}
	return start, nil
}

// ordered puts the fields that identify a record first and the ones that
// describe its block last, keeping the order of the others.
func ordered(h Header) Header {
	front := []string{FieldType, FieldRecordID, FieldDate, FieldTargetURI}
	back := []string{FieldBlockDigest, FieldContentLength}
	out := make(Header, 0, len(h))
	pick := func(name string) {
		for _, f := range h {
			if strings.EqualFold(f.Name, name) {
				out = append(out, f)
			}
		}
	}
	for _, n := range front {
		pick(n)
	}
	for _, f := range h {
		special := false
		for _, n := range append(front, back...) {
			special = special || strings.EqualFold(f.Name, n)
		}
		if !special {
			out = append(out, f)
		}
	}
	for _, n := range back {
		pick(n)
	}
	return out
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

// WriteWarcinfo writes a warcinfo record describing the file: its
// WARC-Filename (if filename is not empty) and a block of "name: value"
// lines (application/warc-fields) from fields, with "software: sluice" and
// "format: WARC File Format 1.1" unless fields set them. Later conversion
// records written by NewConversion through this Writer name it in
// WARC-Warcinfo-ID. It returns the record's ID.
func (w *Writer) WriteWarcinfo(filename string, fields Header) (string, error) {
	var block strings.Builder
	if !fields.Has("software") {
		block.WriteString("software: sluice\r\n")
	}
	if !fields.Has("format") {
		block.WriteString("format: WARC File Format 1.1\r\n")
	}
	for _, f := range fields {
		if !validFieldName(f.Name) {
			return "", fmt.Errorf("warc: bad warcinfo field name %q", f.Name)
		}
		fmt.Fprintf(&block, "%s: %s\r\n", f.Name, cleanValue(f.Value))
	}
	rec := &Record{Type: TypeWarcinfo, Content: []byte(block.String())}
	if filename != "" {
		rec.Header.Set(FieldFilename, filename)
	}
	rec.Header.Set(FieldContentType, "application/warc-fields")
	if err := w.WriteRecord(rec); err != nil {
		return "", err
	}
	w.warcinfoID = rec.ID()
	return w.warcinfoID, nil
}

// NewConversion returns a conversion record holding content, an
// alternative form of the source record (such as its cleaned text):
// WARC-Type conversion, WARC-Refers-To the source's WARC-Record-ID (omitted
// if the source has none, as ARC records), WARC-Target-URI and WARC-Date of
// the source (the capture the content comes from; now if it has none), and
// Content-Type contentType ("text/plain; charset=utf-8" if empty; use
// "application/json" for JSON). Write it with WriteConversion or
// WriteRecord, which add the ID, length and digest.
func NewConversion(source *Record, contentType string, content []byte) *Record {
	if contentType == "" {
		contentType = "text/plain; charset=utf-8"
	}
	rec := &Record{Type: TypeConversion, Content: content}
	rec.Header.Set(FieldRecordID, NewRecordID())
	if source != nil {
		if id := source.ID(); id != "" {
			rec.Header.Set(FieldRefersTo, id)
		}
		rec.TargetURI = source.TargetURI
		rec.Date = source.Date
	}
	rec.Header.Set(FieldContentType, contentType)
	return rec
}

// WriteConversion writes NewConversion(source, contentType, content), with
// WARC-Warcinfo-ID naming the warcinfo record this Writer wrote, if any. It
// returns the written record.
func (w *Writer) WriteConversion(source *Record, contentType string, content []byte) (*Record, error) {
	rec := NewConversion(source, contentType, content)
	if w.warcinfoID != "" {
		rec.Header.Set(FieldWarcinfoID, w.warcinfoID)
	}
	if err := w.WriteRecord(rec); err != nil {
		return nil, err
	}
	return rec, nil
}
