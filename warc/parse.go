package warc

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseError says why a record could not be read. framed reports that the
// input is positioned right after the record all the same (its length was
// good), so no rescan is needed.
type parseError struct {
	kind   DamageKind
	reason string
	err    error
	framed bool
}

func perr(framed bool, kind DamageKind, format string, args ...any) *parseError {
	return &parseError{kind: kind, reason: fmt.Sprintf(format, args...), framed: framed}
}

// memberError reports that the gzip member being read failed to
// decompress; err is the error of its source.
func memberError(err error) *parseError {
	return &parseError{kind: DamageGzipMember, reason: "damaged gzip member", err: err}
}

func (r *Reader) parseRecord(s *source, kind int) (*Record, *parseError) {
	if kind == startARC {
		return r.parseARC(s)
	}
	return r.parseWARC(s)
}

// endOfInput names the end of s in messages.
func endOfInput(s *source) string { return s.name }

func trimEOL(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// parseWARC reads a WARC record; s is at its version line.
func (r *Reader) parseWARC(s *source) (*Record, *parseError) {
	rec, pe := r.readWARCHeader(s)
	if pe != nil {
		return nil, pe
	}
	cl, pe := r.blockLength(s, rec)
	if pe != nil {
		return nil, pe
	}
	rec.Type = rec.Header.Get(FieldType)
	rec.TargetURI = strings.TrimSuffix(strings.TrimPrefix(rec.Header.Get(FieldTargetURI), "<"), ">")
	rec.Date = parseWARCDate(rec.Header.Get(FieldDate))

	check := r.newBlockCheck(rec)
	got := r.readBlock(s, rec, cl, check)
	if got < cl {
		if s.failed() {
			return nil, memberError(s.err)
		}
		return nil, perr(false, DamageTruncatedRecord, "%s ends inside the record block (Content-Length %d, %d bytes there)", endOfInput(s), cl, got)
	}
	if pe := checkTrailer(s, cl); pe != nil {
		return nil, pe
	}
	for _, f := range []string{FieldType, FieldRecordID, FieldDate} {
		if rec.Header.Get(f) == "" {
			return nil, perr(true, DamageMissingField, "record has no %s (a required field); skipped", f)
		}
	}
	if check != nil {
		if !bytes.Equal(check.h.Sum(nil), check.want.sum) {
			return nil, perr(true, DamageDigestMismatch, "block digest mismatch: the block does not match its WARC-Block-Digest %s", rec.Header.Get(FieldBlockDigest))
		}
		rec.Digest = DigestBlock
	} else if !r.opts.SkipDigests {
		switch checked, ok := checkPayload(rec); {
		case checked && !ok:
			return nil, perr(true, DamagePayloadDigestMismatch, "payload digest mismatch: the payload does not match its WARC-Payload-Digest %s (and the record has no block digest)", rec.Header.Get(FieldPayloadDigest))
		case checked:
			rec.Digest = DigestPayload
		}
	}
	return rec, nil
}

// readWARCHeader reads a WARC record's version line and header fields, up
// to and including the blank line that ends them, into a new Record.
func (r *Reader) readWARCHeader(s *source) (*Record, *parseError) {
	max := r.opts.MaxHeaderBytes
	line, tooLong := s.readLine(max)
	if tooLong {
		return nil, perr(false, DamageBadHeader, "WARC version line longer than %d bytes", max)
	}
	total := len(line)
	rec := &Record{Version: string(trimEOL(line))}
	if r.format == formatUnknown {
		r.format = formatWARC
	}
	skipped := 0
	for {
		if total >= max {
			return nil, perr(false, DamageBadHeader, "record header longer than %d bytes (Options.MaxHeaderBytes)", max)
		}
		line, tooLong = s.readLine(max - total)
		if tooLong {
			return nil, perr(false, DamageBadHeader, "record header longer than %d bytes (Options.MaxHeaderBytes)", max)
		}
		total += len(line)
		if len(line) == 0 || line[len(line)-1] != '\n' {
			return nil, perr(false, DamageTruncatedRecord, "%s ends inside the record header", endOfInput(s))
		}
		t := trimEOL(line)
		if len(t) == 0 {
			break
		}
		if i := bytes.Index(t, []byte("WARC/")); i >= 0 && isWARCStart(t[i:]) {
			return nil, perr(false, DamageBadHeader, "record header cut short: a new record starts inside it")
		}
		if (t[0] == ' ' || t[0] == '\t') && len(rec.Header) > 0 {
			f := &rec.Header[len(rec.Header)-1]
			f.Value += " " + string(bytes.TrimSpace(t))
			continue
		}
		i := bytes.IndexByte(t, ':')
		if i <= 0 {
			skipped++ // lenient: a line that is not a field
			continue
		}
		rec.Header = append(rec.Header, Field{
			Name:  string(bytes.TrimSpace(t[:i])),
			Value: string(bytes.TrimSpace(t[i+1:])),
		})
	}
	if skipped > 8 && len(rec.Header) < skipped {
		return nil, perr(false, DamageBadHeader, "record header has %d lines that are not fields", skipped)
	}
	return rec, nil
}

// blockLength returns the record's Content-Length, checked against what is
// known of the input before the block is read: that much must be left, and,
// when it is cheap to look, be followed by the CRLF CRLF trailer.
func (r *Reader) blockLength(s *source, rec *Record) (int64, *parseError) {
	clText := rec.Header.Get(FieldContentLength)
	if !rec.Header.Has(FieldContentLength) {
		return 0, perr(false, DamageMissingContentLength, "record has no Content-Length: its block cannot be delimited")
	}
	cl, err := strconv.ParseInt(clText, 10, 64)
	if err != nil || cl < 0 {
		return 0, perr(false, DamageBadContentLength, "bad Content-Length %q", clText)
	}
	if s.size >= 0 && cl > s.size-s.pos() {
		return 0, perr(false, DamageTruncatedRecord, "Content-Length %d runs past the end of %s (%d bytes left)", cl, s.name, s.size-s.pos())
	}
	// Check the end of the block before reading it, when that is cheap:
	// a wrong length is then found without reading the block, and a
	// rescan after it does not read the same bytes again and again.
	if b := s.peekAt(s.pos()+cl, 4, r.opts.ResyncWindow); b != nil && !trailerOK(b, len(b) < 4) {
		return 0, perr(false, DamageWrongContentLength, "record block not followed by CRLF CRLF: Content-Length %d is wrong or the record is damaged", cl)
	}
	if s.size >= 0 && cl > s.size-s.pos() { // the size may be known now
		return 0, perr(false, DamageTruncatedRecord, "Content-Length %d runs past the end of %s (%d bytes left)", cl, s.name, s.size-s.pos())
	}
	return cl, nil
}

var warcMagic = []byte("WARC/")

// readBlock reads n bytes of block, keeping up to MaxRecordBytes of them in
// rec.Content, and returns how many bytes there were.
func (r *Reader) readBlock(s *source, rec *Record, n int64, check *blockCheck) int64 {
	keep := r.opts.MaxRecordBytes
	if r.opts.HeadersOnly {
		keep = 0
	} else {
		rec.Content = make([]byte, 0, min(n, keep, 1<<20))
	}
	if r.format != formatARC {
		// When the record's start leaves the resync window, keep the bytes
		// from the first possible record start in the block instead, in
		// case the length is wrong.
		s.follow = warcMagic
		defer func() { s.follow = nil }()
	}
	var got int64
	for got < n {
		chunk := s.chunk(n - got)
		if chunk == nil {
			break
		}
		k := int64(len(chunk))
		check.write(chunk)
		if room := keep - int64(len(rec.Content)); room > 0 {
			rec.Content = append(rec.Content, chunk[:min(room, k)]...)
		}
		got += k
	}
	rec.Truncated = n > keep && !r.opts.HeadersOnly
	return got
}

// checkTrailer checks the CRLF CRLF (or LF LF) after a WARC block and
// consumes it. Only these two forms are accepted, so that a Content-Length
// off by one or two is noticed.
func checkTrailer(s *source, cl int64) *parseError {
	b := s.peek(4)
	for _, end := range []string{"\r\n\r\n", "\n\n"} {
		if bytes.HasPrefix(b, []byte(end)) {
			s.advance(len(end))
			return nil
		}
	}
	if s.broken() {
		return memberError(s.err)
	}
	if len(b) < 4 && s.exhausted() && trailerOK(b, true) {
		// The input ends here: a missing end of record is harmless.
		s.advance(len(b))
		return nil
	}
	return perr(false, DamageWrongContentLength, "record block not followed by CRLF CRLF: Content-Length %d is wrong or the record is damaged", cl)
}

// trailerOK reports whether b, the bytes after a block, start with the end
// of a record; atEnd says the input ends after b.
func trailerOK(b []byte, atEnd bool) bool {
	for _, end := range []string{"\r\n\r\n", "\n\n"} {
		if bytes.HasPrefix(b, []byte(end)) || atEnd && bytes.HasPrefix([]byte(end), b) {
			return true
		}
	}
	return false
}

var warcDateLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15Z07:00",
	"2006-01-02",
	"2006-01",
	"2006",
}

// parseWARCDate parses a WARC-Date (W3C ISO 8601, any precision; also the
// 14-digit form of ARC files). It returns the zero time if it cannot.
func parseWARCDate(v string) time.Time {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}
	}
	if isDigits(v) {
		return parseARCDate(v)
	}
	for _, l := range warcDateLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// parseARCDate parses the YYYYMMDDhhmmss date of ARC files (shorter forms
// too); zero time if it cannot.
func parseARCDate(v string) time.Time {
	layouts := map[int]string{4: "2006", 6: "200601", 8: "20060102", 10: "2006010215", 12: "200601021504", 14: "20060102150405"}
	if len(v) > 14 && isDigits(v) {
		v = v[:14] // milliseconds and the like
	}
	if l, ok := layouts[len(v)]; ok {
		if t, err := time.Parse(l, v); err == nil {
			return t
		}
	}
	return time.Time{}
}

// arcLine is a parsed ARC URL record line.
type arcLine struct {
	url, ip, date, ctype string
	length               int64
	version              int
}

// parseARCLine parses an ARC URL record line: version 1
// "URL IP-address Archive-date Content-type Archive-length", or version 2
// "URL IP date type result-code checksum location offset filename length".
func parseARCLine(line []byte, ver int) (arcLine, bool) {
	line = trimEOL(line)
	if len(line) < 9 || len(line) > 64<<10 || line[0] == ' ' {
		return arcLine{}, false
	}
	f := strings.Fields(string(line))
	n := len(f)
	if n < 5 {
		return arcLine{}, false
	}
	var a arcLine
	var length string
	if n == 10 && (ver == 2 || isDigits(f[2]) && !isDigits(f[6])) {
		a = arcLine{url: f[0], ip: f[1], date: f[2], ctype: f[3], version: 2}
		length = f[9]
	} else {
		a = arcLine{url: strings.Join(f[:n-4], " "), ip: f[n-4], date: f[n-3], ctype: f[n-2], version: 1}
		length = f[n-1]
	}
	if !isDigits(a.date) || len(a.date) < 8 || len(a.date) > 17 || !isDigits(length) || len(length) > 18 {
		return arcLine{}, false
	}
	if !strings.Contains(f[0], ":") || strings.ContainsAny(a.url, "\x00\r") {
		return arcLine{}, false
	}
	a.length, _ = strconv.ParseInt(length, 10, 64)
	return a, true
}

// parseARC reads an ARC record; s is at its URL line.
func (r *Reader) parseARC(s *source) (*Record, *parseError) {
	line, tooLong := s.readLine(r.opts.MaxHeaderBytes)
	if tooLong {
		return nil, perr(false, DamageBadARCLine, "ARC URL line longer than %d bytes", r.opts.MaxHeaderBytes)
	}
	a, ok := parseARCLine(line, r.arcVer)
	if !ok {
		return nil, perr(false, DamageBadARCLine, "bad ARC URL line %q", trimEOL(line))
	}
	if r.format == formatUnknown {
		r.format = formatARC
	}
	if s.size >= 0 && a.length > s.size-s.pos() {
		return nil, perr(false, DamageTruncatedRecord, "ARC Archive-length %d runs past the end of %s (%d bytes left)", a.length, s.name, s.size-s.pos())
	}
	if b := s.peekAt(s.pos()+a.length, 1, r.opts.ResyncWindow); b != nil && len(b) == 1 && b[0] != '\n' {
		return nil, perr(false, DamageWrongARCLength, "ARC record not followed by a newline: Archive-length %d is wrong or the record is damaged", a.length)
	}
	rec := &Record{Type: TypeResponse, Version: "ARC/" + strconv.Itoa(a.version), TargetURI: a.url, Date: parseARCDate(a.date)}
	filedesc := strings.HasPrefix(a.url, "filedesc://")
	if filedesc {
		rec.Type = TypeWarcinfo
	}
	rec.Header = Header{
		{FieldType, rec.Type},
		{FieldTargetURI, a.url},
	}
	if !rec.Date.IsZero() {
		rec.Header = append(rec.Header, Field{FieldDate, rec.Date.Format(time.RFC3339)})
	}
	if a.ip != "" && a.ip != "-" {
		rec.Header = append(rec.Header, Field{FieldIPAddress, a.ip})
	}
	if a.ctype != "" && a.ctype != "-" {
		rec.Header = append(rec.Header, Field{FieldContentType, a.ctype})
	}
	rec.Header = append(rec.Header, Field{FieldContentLength, strconv.FormatInt(a.length, 10)})

	got := r.readBlock(s, rec, a.length, nil)
	if got < a.length {
		if s.failed() {
			return nil, memberError(s.err)
		}
		return nil, perr(false, DamageTruncatedRecord, "%s ends inside the ARC record (Archive-length %d, %d bytes there)", endOfInput(s), a.length, got)
	}
	if filedesc && len(rec.Content) > 0 && isDigit(rec.Content[0]) {
		r.arcVer = int(rec.Content[0] - '0')
	}
	// The payload must be followed by a newline, then the end of the input
	// or the next record.
	b := s.peek(1)
	if len(b) == 0 {
		if s.failed() {
			return nil, memberError(s.err)
		}
		return rec, nil
	}
	if b[0] != '\n' {
		return nil, perr(false, DamageWrongARCLength, "ARC record not followed by a newline: Archive-length %d is wrong or the record is damaged", a.length)
	}
	s.advance(1)
	if !r.arcNextOK(s) {
		if s.broken() {
			return nil, memberError(s.err)
		}
		return nil, perr(false, DamageWrongARCLength, "ARC record not followed by the next record: Archive-length %d is wrong, the record is damaged, or garbage follows it", a.length)
	}
	return rec, nil
}

// arcNextOK reports whether what follows at s is the end of the input (or
// only line ends before it), a gzip member, a record or a damaged ARC URL
// line (looksLikeARCLine: the next record is damaged, not this one). It
// consumes nothing.
// The ARC separator is one newline, already consumed: a blank line here
// means a length one short of a payload that ends in a newline.
func (r *Reader) arcNextOK(s *source) bool {
	b := s.peek(4096)
	if len(bytes.TrimLeft(b, "\r\n")) == 0 && s.exhausted() {
		return !s.broken()
	}
	if isGzipMagic(b) || isWARCStart(firstLine(b)) {
		return true
	}
	j := bytes.IndexByte(b, '\n')
	if j < 0 {
		if !s.exhausted() {
			// A line too long to check here: let the next read judge it.
			return true
		}
		j = len(b) - 1
	}
	_, ok := parseARCLine(b[:j+1], r.arcVer)
	return ok || looksLikeARCLine(b[:j+1])
}

// looksLikeARCLine reports whether line, which does not parse as an ARC URL
// line, looks like a damaged one: at least three of its five parts in
// place (an address with a scheme first, an IP address or "-", a date of
// 8 to 17 digits, a media type, a length of digits last). The lines of an
// HTTP message or of HTML rarely score more than two.
func looksLikeARCLine(line []byte) bool {
	f := strings.Fields(string(trimEOL(line)))
	if len(f) < 4 || len(f) > 12 {
		return false
	}
	score := 0
	if strings.Contains(f[0], "://") || strings.HasPrefix(f[0], "filedesc:") || strings.HasPrefix(f[0], "dns:") {
		score++
	}
	ip, date, mime := false, false, false
	for _, x := range f[1 : len(f)-1] {
		switch {
		case x == "-" || isIPv4(x):
			ip = true
		case isDigits(x) && len(x) >= 8 && len(x) <= 17:
			date = true
		case strings.Count(x, "/") == 1 && !strings.Contains(x, ":") && !strings.ContainsAny(x, "<>"):
			mime = true
		}
	}
	for _, b := range []bool{ip, date, mime, isDigits(f[len(f)-1])} {
		if b {
			score++
		}
	}
	return score >= 3
}

// isIPv4 reports whether s is four dot-separated numbers.
func isIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if !isDigits(p) || len(p) > 3 {
			return false
		}
	}
	return true
}
