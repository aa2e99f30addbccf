package warc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"iter"
	"os"

	"github.com/klauspost/compress/gzip"
)

// sniffLimit is how far into an input that does not start with a record the
// reader looks for one before deciding that the input is not an archive.
const sniffLimit = 1 << 20

// Kinds of record start.
const (
	startNone = iota
	startWARC
	startARC
)

// Formats of an input, decided by its first record.
const (
	formatUnknown = iota
	formatWARC
	formatARC
)

// A Reader reads the records of a WARC (1.0, 1.1) or ARC (v1, and v2 URL
// lines) file: plain, compressed record by record (each record its own gzip
// member, as crawlers write *.warc.gz), or compressed as one gzip stream. It
// detects which from the data.
//
// A Reader reads its input once, from the current position, streaming: memory
// is bounded by Options whatever the input.
//
// # Damage
//
// A record that cannot be read whole is reported as a *RecordError with the
// offset of the record (or of its gzip member), the kind of damage and a
// reason, and the reader resumes at the next record; it never stops early
// without saying why. The policy:
//
//   - Content-Length is trusted, and checked: the block must be followed by
//     CRLF CRLF (LF LF is accepted; a missing end at the very end of the
//     input too). If it is not, the length was wrong or the record is
//     damaged: the record is reported, and the reader rescans from the byte
//     after the record's start for the next line starting "WARC/1." (or
//     "WARC/0."), or the next gzip member (magic 1f 8b 08). A length that
//     runs past the next record therefore does not swallow it.
//   - In ARC files, the Archive-length is checked the same way: the payload
//     must be followed by one newline and then the end of the input, the
//     next URL line or a gzip member; rescanning looks for the next line
//     that parses as an ARC URL line. (Garbage right after an ARC record
//     cannot be told from a wrong length: that record is reported with it.)
//   - A gzip member that fails to decompress (corrupt data, bad checksum,
//     cut short) is reported with its offset; the reader rescans from the
//     byte after the member's start for the next gzip member magic. A
//     candidate found by rescanning is accepted only if it decompresses to
//     the start of a record, so gzip data inside a payload is not mistaken
//     for a member.
//   - Bytes between records that are not a record (garbage) are reported
//     once, with their offset and length.
//   - A record whose framing is right but which lacks a required field
//     (WARC-Type, WARC-Record-ID, WARC-Date) is reported and skipped; the
//     next record is read normally. A missing Content-Length makes the
//     record undelimitable: reported, then rescan.
//   - Input that is neither WARC nor ARC (no record start in its first MiB,
//     or a gzip stream that holds something else) yields one error wrapping
//     ErrNotArchive that says what the input looks like. An empty input
//     yields nothing.
//   - An error of the underlying reader (other than io.EOF) is yielded and
//     ends the sequence.
//
// Rescanning goes back over bytes already read: up to Options.ResyncWindow
// bytes are kept for that, and beyond the window the reader seeks back if
// its input is an io.Seeker (a file is). Inside a gzip stream no seeking is
// possible: a damaged deflate stream loses the rest of its member.
type Reader struct {
	opts Options
	phys *source // the input
	mem  *source // the decompressed current gzip member
	gz   *gzip.Reader
	// ahead is what gz reads the input through: the decompressor reads
	// a byte at a time, and has a fast path for a *bufio.Reader (about a
	// tenth less CPU per record than source.ReadByte through the
	// io.ByteReader interface). It reads ahead of the member's end;
	// unread gives those bytes back.
	ahead   *bufio.Reader
	format  int
	arcVer  int
	first   bool // nothing recognised yet
	done    bool
	pending []item

	// state of the current gzip member
	inMember  bool
	memberOff int64
	memberN   int // items (records and damage) read from it
	trust     int // what vouches for its records (see member.go)
	held      []item
	heldBytes int64
	// failedEnd is the furthest end of the compressed data of a member
	// that failed: a member starting before it was found by rescanning
	// the span of a failed member (see memberFailed).
	failedEnd int64
}

type item struct {
	rec *Record
	err error
}

// NewReader returns a Reader of the archive r. If r is an io.Seeker (such
// as an *os.File), the reader uses Seek to go back after damage (see
// Options.ResyncWindow) and to detect declared lengths that run past the end
// of the file without reading to its end; it leaves the position wherever
// reading stopped.
func NewReader(r io.Reader, opts Options) *Reader {
	opts = opts.withDefaults()
	rd := &Reader{opts: opts, first: true}
	rd.phys = newSource(r, opts.ResyncWindow, true, "the input")
	if rd.phys.seeker != nil {
		if end, err := rd.phys.seeker.Seek(0, io.SeekEnd); err == nil {
			if _, err := rd.phys.seeker.Seek(rd.phys.origin, io.SeekStart); err == nil {
				rd.phys.size = end - rd.phys.origin
			} else {
				rd.phys.seeker = nil
			}
		} else {
			rd.phys.seeker = nil
		}
	}
	rd.mem = newSource(nil, opts.ResyncWindow, false, "the gzip member")
	return rd
}

// Records returns the records of the archive in file order. Each item is
// either a record or an error: a *RecordError for damage, after which
// reading goes on, or a final error (ErrNotArchive, or an error of the
// underlying reader) after which the sequence ends.
//
// Records may be called again after the loop over it was left early: it
// resumes after the last item yielded. The Reader is not safe for concurrent
// use.
func (r *Reader) Records() iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		for {
			rec, err, ok := r.next()
			if !ok || !yield(rec, err) {
				return
			}
		}
	}
}

// ReadFile returns the records of the archive at path (see Reader.Records).
// If the file cannot be opened, the sequence yields that error only. The
// file is closed when the loop ends.
func ReadFile(path string, opts Options) iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		f, err := os.Open(path)
		if err != nil {
			yield(nil, err)
			return
		}
		defer f.Close()
		for rec, err := range NewReader(f, opts).Records() {
			if !yield(rec, err) {
				return
			}
		}
	}
}

// next produces one item. ok is false at the end.
func (r *Reader) next() (*Record, error, bool) {
	for {
		if len(r.pending) > 0 {
			it := r.pending[0]
			r.pending = r.pending[1:]
			return it.rec, it.err, true
		}
		if r.done {
			return nil, nil, false
		}
		if r.inMember {
			r.memberStep()
		} else {
			r.topStep()
		}
	}
}

func (r *Reader) emit(rec *Record, err error) { r.pending = append(r.pending, item{rec, err}) }

// damage reports damage at file offset off covering length bytes of the
// input (see RecordError).
func (r *Reader) damage(off, length int64, kind DamageKind, reason string, err error) {
	r.emit(nil, &RecordError{Offset: off, InMember: -1, Length: length, End: off + length, Kind: kind, Reason: reason, Err: err})
}

// fatal reports an error of the underlying reader and ends the sequence.
func (r *Reader) fatal() {
	r.emit(nil, fmt.Errorf("warc: reading at offset %d: %w", r.phys.pos(), r.phys.err))
	r.done = true
}

// skipBlank consumes CR and LF bytes.
func skipBlank(s *source) {
	for {
		b := s.buffered()
		if len(b) == 0 {
			if !s.fill() {
				return
			}
			continue
		}
		i := 0
		for i < len(b) && (b[i] == '\n' || b[i] == '\r') {
			i++
		}
		s.advance(i)
		if i < len(b) {
			return
		}
	}
}

func isGzipMagic(b []byte) bool {
	return len(b) >= 4 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8 && b[3]&0xe0 == 0
}

// isWARCStart reports whether b starts with a WARC version line
// ("WARC/1.0" and the like).
func isWARCStart(b []byte) bool {
	if len(b) < 8 || !bytes.HasPrefix(b, []byte("WARC/")) {
		return false
	}
	i := 5
	for i < len(b) && i < 12 && isDigit(b[i]) {
		i++
	}
	if i == 5 || i >= len(b) || b[i] != '.' {
		return false
	}
	i++
	j := i
	for i < len(b) && i < 16 && isDigit(b[i]) {
		i++
	}
	if i == j {
		return false
	}
	return i == len(b) || b[i] == '\r' || b[i] == '\n'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// recordStart tells what record, if any, starts at the current position of s.
func (r *Reader) recordStart(s *source) int {
	b := s.peek(16)
	if r.format != formatARC && isWARCStart(firstLine(b)) {
		return startWARC
	}
	if r.format != formatWARC {
		line, ok := s.peekLine(r.opts.MaxHeaderBytes)
		if ok {
			if _, good := parseARCLine(line, r.arcVer); good {
				return startARC
			}
		}
	}
	return startNone
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1]
	}
	return b
}

// topStep handles the input at the top level: a plain record, a gzip
// member, or garbage.
func (r *Reader) topStep() {
	p := r.phys
	skipBlank(p)
	if p.failed() {
		r.fatal()
		return
	}
	if p.atEOF() {
		r.done = true
		return
	}
	off := p.pos()
	if isGzipMagic(p.peek(4)) {
		r.startMember(off, true)
		return
	}
	if isDamagedGzipMagic(p.peek(4)) && trialDamagedMember(p.peek(trialBytes)) {
		r.first = false
		p.advance(1)
		r.scan(p, -1, true)
		if p.failed() {
			r.fatal()
			return
		}
		r.damage(off, p.pos()-off, DamageGzipHeader, "damaged gzip member header (reserved flag bits set): the member cannot be read", nil)
		return
	}
	if kind := r.recordStart(p); kind != startNone {
		r.plainRecord(off, kind)
		return
	}
	if p.failed() {
		r.fatal()
		return
	}
	// Garbage.
	head := bytes.Clone(p.peek(512))
	kind, what := DamageGarbage, "bytes that are not a record"
	if line, _ := p.peekLine(4096); r.format == formatARC && looksLikeARCLine(line) {
		kind, what = DamageBadARCLine, "bytes of a record whose ARC URL line cannot be read"
	}
	if r.first {
		if !r.scan(p, off+sniffLimit, true) {
			r.emit(nil, fmt.Errorf("warc: %w: the input looks like %s", ErrNotArchive, describe(head)))
			r.done = true
			return
		}
	} else {
		r.scan(p, -1, true)
	}
	if p.failed() {
		r.fatal()
		return
	}
	r.damage(off, p.pos()-off, kind, fmt.Sprintf("%d %s (%s)", p.pos()-off, what, describeShort(head)), nil)
}

// plainRecord reads a record that is not gzip-compressed, at offset off.
func (r *Reader) plainRecord(off int64, kind int) {
	p := r.phys
	p.setMark()
	rec, perr := r.parseRecord(p, kind)
	r.first = false
	if perr == nil {
		rec.Offset, rec.Length, rec.MemberOffset = off, p.pos()-off, -1
		p.clearMark()
		r.emit(rec, nil)
		return
	}
	// An error of the underlying reader is reported by the next topStep,
	// once the bytes before it are used up.
	var lost int64
	if !perr.framed {
		lost = r.resync(p, off+1, true)
	}
	r.damage(off, p.pos()-off, perr.kind, perr.reason+lostNote(lost), perr.err)
	p.clearMark()
}

// resync goes back to from if it can and scans for the next record start.
// It returns how many bytes from from on it could not go back to (kept
// neither in the window nor reachable by seeking).
func (r *Reader) resync(s *source, from int64, top bool) (lost int64) {
	switch {
	case s.rewind(from):
	case s.pos() < from:
		s.discard(from - s.pos())
	case s.mark > from && s.rewind(s.mark):
		lost = s.mark - from
	default:
		lost = s.pos() - from
	}
	s.clearMark()
	r.scan(s, -1, top)
	return lost
}

// lostNote is added to a damage report when resync could not go back.
func lostNote(lost int64) string {
	if lost <= 0 {
		return ""
	}
	return fmt.Sprintf("; %d bytes after its start could not be rescanned for records (the input cannot seek, and they are beyond Options.ResyncWindow)", lost)
}

// scan advances s to the next record start (at the top level also the next
// gzip member) and reports whether it found one before limit (-1: none).
func (r *Reader) scan(s *source, limit int64, top bool) bool {
	const chunk = 4096
	lineStart := s.pos() == 0 || s.r > 0 && s.buf[s.r-1] == '\n'
	for {
		if limit >= 0 && s.pos() >= limit {
			return false
		}
		b := s.peek(chunk)
		if len(b) == 0 {
			return false
		}
		atEnd := len(b) < chunk
		if len(b) > chunk {
			b = b[:chunk]
		}
		cand, kind := r.candidate(b, lineStart, top)
		if cand < 0 {
			if atEnd {
				s.advance(len(b))
				return false
			}
			keep := 8
			if r.format != formatWARC {
				if j := bytes.LastIndexByte(b, '\n'); j >= 0 {
					keep = len(b) - j - 1
				}
			}
			lineStart = b[len(b)-keep-1] == '\n'
			s.advance(len(b) - keep)
			continue
		}
		if cand > 0 {
			lineStart = b[cand-1] == '\n'
			s.advance(cand)
		}
		if r.confirm(s, kind) {
			return true
		}
		lineStart = false
		s.advance(1)
	}
}

// candidate returns the index in b of the first possible record start (or
// gzip member, kind -1), or -1.
func (r *Reader) candidate(b []byte, lineStart, top bool) (int, int) {
	cand, kind := -1, startNone
	if top {
		if i := bytes.Index(b, []byte{0x1f, 0x8b, 0x08}); i >= 0 {
			cand, kind = i, -1
		}
	}
	if r.format != formatARC {
		// A version line counts even when it does not start a line:
		// garbage without a line end may be glued before a record.
		if i := bytes.Index(b, []byte("WARC/")); i >= 0 && (cand < 0 || i < cand) {
			cand, kind = i, startWARC
		}
	}
	if r.format != formatWARC {
		end := len(b)
		if cand >= 0 {
			end = cand
		}
		if i := r.findARCLine(b[:end], lineStart); i >= 0 {
			cand, kind = i, startARC
		}
	}
	return cand, kind
}

// confirm checks a candidate found by candidate at the position of s.
func (r *Reader) confirm(s *source, kind int) bool {
	switch kind {
	case -1:
		b := s.peek(4)
		if isDamagedGzipMagic(b) {
			return trialDamagedMember(s.peek(trialBytes))
		}
		return isGzipMagic(b) && r.trialMember(s.pos())
	case startWARC:
		line, _ := s.peekLine(64)
		return isWARCStart(line)
	case startARC:
		return r.recordStart(s) == startARC
	}
	return false
}

// findARCLine returns the index of the first line start in b at which a
// whole ARC URL line stands, or -1.
func (r *Reader) findARCLine(b []byte, lineStart bool) int {
	i := 0
	if !lineStart {
		j := bytes.IndexByte(b, '\n')
		if j < 0 {
			return -1
		}
		i = j + 1
	}
	for i < len(b) {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return -1
		}
		if _, ok := parseARCLine(b[i:i+j+1], r.arcVer); ok {
			return i
		}
		i += j + 1
	}
	return -1
}

// trialMember checks whether a gzip member found by scanning at off
// decompresses to a record start. It leaves the input at off.
func (r *Reader) trialMember(off int64) bool {
	p := r.phys
	p.setMark()
	defer p.clearMark()
	ok := false
	if r.resetMember() == nil {
		skipBlank(r.mem)
		ok = r.recordStart(r.mem) != startNone
	}
	r.unread()
	return p.rewind(off) && ok
}

// memberReadAhead is the buffer of Reader.ahead.
const memberReadAhead = 16 << 10

func (r *Reader) resetMember() error {
	if r.ahead == nil {
		r.ahead = bufio.NewReaderSize(r.phys, memberReadAhead)
		// The bytes read ahead stay in the input's buffer, so that
		// unread can always give them back.
		r.phys.behind = memberReadAhead
	} else {
		r.ahead.Reset(r.phys)
	}
	var err error
	if r.gz == nil {
		r.gz, err = gzip.NewReader(r.ahead)
	} else {
		err = r.gz.Reset(r.ahead)
	}
	if err != nil {
		return err
	}
	r.gz.Multistream(false)
	r.mem.reset(r.gz)
	return nil
}

// unread gives the input back the bytes that ahead read past what the
// decompressor consumed, so that the input's position is the end of the
// compressed data read (after the member, once it ended).
func (r *Reader) unread() {
	if r.ahead == nil {
		return
	}
	n := r.ahead.Buffered()
	if n > r.phys.r {
		// Cannot happen: phys keeps memberReadAhead bytes behind its
		// read position. Go back by offset all the same.
		r.phys.rewind(r.phys.pos() - int64(n))
	} else {
		r.phys.r -= n
	}
	r.ahead.Reset(r.phys)
}

// startMember begins reading the gzip member at off. expected is false for a
// member found by rescanning (already checked by trialMember).
func (r *Reader) startMember(off int64, expected bool) {
	p := r.phys
	p.setMark()
	if err := r.resetMember(); err != nil {
		r.unread()
		if p.broken() {
			r.fatal()
			return
		}
		r.first = false
		lost := r.resync(p, off+1, true)
		r.damage(off, p.pos()-off, DamageGzipHeader, "damaged gzip member header"+lostNote(lost), err)
		return
	}
	m := r.mem
	skipBlank(m)
	if r.recordStart(m) == startNone && !m.exhausted() {
		if r.first {
			r.emit(nil, fmt.Errorf("warc: %w: the input is gzip-compressed and holds %s", ErrNotArchive, describe(m.peek(512))))
			r.done = true
			return
		}
	}
	r.first = false
	r.inMember, r.memberOff, r.memberN, r.trust = true, off, 0, trustHolding
	r.held, r.heldBytes = r.held[:0], 0
}
