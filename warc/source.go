package warc

import (
	"bytes"
	"errors"
	"io"
)

// minRead is the smallest free space a fill asks the underlying reader to fill.
const minRead = 32 << 10

// source is a buffered reader that knows the stream offset of every byte it
// holds and can go back: it keeps the bytes from a mark on (up to a window),
// so that after a damaged record the reader can rescan the bytes it has
// already consumed, and it seeks back in the underlying reader when that is
// an io.Seeker and the bytes are no longer buffered.
//
// It implements io.Reader and io.ByteReader. The gzip reader reads it
// through a bufio.Reader (see Reader.ahead), whose read-ahead is given back
// to the source when a member ends: its position is then exactly the end of
// the compressed data that gzip has consumed.
type source struct {
	rd     io.Reader
	seeker io.Seeker   // nil when rd cannot seek
	at     io.ReaderAt // rd as an io.ReaderAt, when it is one and seekable
	origin int64       // seeker position of stream offset 0
	buf    []byte
	r, w   int   // unread bytes are buf[r:w]
	base   int64 // stream offset of buf[0]
	mark   int64 // bytes from mark on are kept while pos-mark <= window; -1 for none
	window int
	err    error  // sticky error of rd (io.EOF at the end)
	size   int64  // length of the stream if known, else -1
	name   string // "the input" or "the gzip member", for messages
	// follow, when set, moves a mark that leaves the window to the first
	// occurrence of it in the window, instead of dropping the mark.
	follow   []byte
	searched int64 // follow has been searched for before this offset
	// behind is how many bytes before the read position are always
	// kept, so that a reader that reads ahead of its consumer (a
	// bufio.Reader over the source) can give them back.
	behind int
}

func newSource(rd io.Reader, window int, seekable bool, name string) *source {
	s := &source{rd: rd, mark: -1, window: window, size: -1, name: name}
	if seekable {
		if sk, ok := rd.(io.Seeker); ok {
			if at, err := sk.Seek(0, io.SeekCurrent); err == nil {
				s.seeker, s.origin = sk, at
				s.at, _ = rd.(io.ReaderAt)
			}
		}
	}
	return s
}

// reset points the source at a new underlying reader, offsets starting at 0.
func (s *source) reset(rd io.Reader) {
	s.rd = rd
	s.r, s.w, s.base, s.mark, s.err, s.size, s.searched = 0, 0, 0, -1, nil, -1, 0
}

func (s *source) pos() int64       { return s.base + int64(s.r) }
func (s *source) buffered() []byte { return s.buf[s.r:s.w] }
func (s *source) setMark()         { s.mark = s.pos() }
func (s *source) clearMark()       { s.mark = -1 }
func (s *source) advance(n int)    { s.r += n }
func (s *source) broken() bool     { return s.err != nil && s.err != io.EOF }
func (s *source) failed() bool     { return s.r == s.w && s.broken() }
func (s *source) exhausted() bool  { return s.r == s.w && s.err != nil }
func (s *source) atEOF() bool      { return s.r == s.w && s.err == io.EOF }

// fill reads more data into the buffer. It reports whether any arrived.
func (s *source) fill() bool {
	if s.err != nil {
		return false
	}
	keep := max(0, s.r-s.behind)
	if s.mark >= 0 {
		if m := s.mark - s.base; m >= 0 && s.pos()-s.mark <= int64(s.window) {
			keep = min(int(m), keep)
		} else {
			s.mark = -1
		}
	}
	if s.mark < 0 && s.follow != nil {
		// Keep the bytes from the earliest possible record start still
		// within the window.
		lo := max(0, s.r-s.window, int(s.searched-s.base))
		if lo < s.r {
			if i := bytes.Index(s.buf[lo:s.r], s.follow); i >= 0 {
				s.mark, keep = s.base+int64(lo+i), min(keep, lo+i)
			} else {
				s.searched = s.pos() - int64(len(s.follow)) + 1
			}
		}
	}
	if len(s.buf)-s.w < minRead {
		live := s.w - keep
		if keep > 0 && keep >= len(s.buf)/2 {
			copy(s.buf, s.buf[keep:s.w])
		} else {
			n := 2 * len(s.buf)
			if n < live+minRead {
				n = live + minRead
			}
			nb := make([]byte, n)
			copy(nb, s.buf[keep:s.w])
			s.buf = nb
		}
		s.base += int64(keep)
		s.r -= keep
		s.w = live
	}
	for range 100 {
		n, err := s.rd.Read(s.buf[s.w:])
		if n < 0 || n > len(s.buf)-s.w {
			err, n = errors.New("warc: underlying reader returned an invalid count"), 0
		}
		s.w += n
		if err != nil {
			s.err = err
			if err == io.EOF && s.size < 0 {
				s.size = s.base + int64(s.w)
			}
		}
		if n > 0 || err != nil {
			return n > 0
		}
	}
	s.err = io.ErrNoProgress
	return false
}

// peek returns at least n unread bytes if the stream has them (fewer at the
// end of the stream), without consuming them.
func (s *source) peek(n int) []byte {
	for s.w-s.r < n && s.fill() {
	}
	return s.buffered()
}

// Read implements io.Reader.
func (s *source) Read(p []byte) (int, error) {
	if s.r == s.w {
		if !s.fill() {
			return 0, s.err
		}
	}
	n := copy(p, s.buf[s.r:s.w])
	s.r += n
	return n, nil
}

// ReadByte implements io.ByteReader.
func (s *source) ReadByte() (byte, error) {
	if s.r == s.w {
		if !s.fill() {
			return 0, s.err
		}
	}
	c := s.buf[s.r]
	s.r++
	return c, nil
}

// readLine returns the next line including its '\n' (or up to the end of the
// stream). The slice is valid until the next call. If no '\n' comes within max
// bytes, it returns the first max bytes and tooLong.
func (s *source) readLine(max int) (line []byte, tooLong bool) {
	from := 0
	for {
		b := s.buffered()
		if i := bytes.IndexByte(b[from:], '\n'); i >= 0 {
			n := from + i + 1
			if n > max {
				return nil, true
			}
			s.r += n
			return b[:n], false
		}
		from = len(b)
		if from > max {
			return nil, true
		}
		if !s.fill() {
			b = s.buffered()
			s.r += len(b)
			return b, false
		}
	}
}

// peekLine is readLine without consuming. It returns the line (without
// requiring a newline at the end of the stream) and whether it fitted in max.
func (s *source) peekLine(max int) ([]byte, bool) {
	from := 0
	for {
		b := s.buffered()
		if i := bytes.IndexByte(b[from:], '\n'); i >= 0 {
			n := from + i + 1
			return b[:n], n <= max
		}
		from = len(b)
		if from > max {
			return b, false
		}
		if !s.fill() {
			return s.buffered(), true
		}
	}
}

// discard skips n bytes and returns how many were skipped.
func (s *source) discard(n int64) int64 {
	var done int64
	for done < n {
		b := s.chunk(n - done)
		if b == nil {
			break
		}
		done += int64(len(b))
	}
	return done
}

// chunk consumes and returns the next buffered bytes, at most n, filling
// the buffer first if it is empty; nil at the end of the input. The bytes
// stay valid until the buffer is filled again.
func (s *source) chunk(n int64) []byte {
	if s.r == s.w && !s.fill() {
		return nil
	}
	k := min(int64(s.w-s.r), n)
	b := s.buf[s.r : s.r+int(k)]
	s.r += int(k)
	return b
}

// rewind moves the read position back (or forward, within the buffer) to
// stream offset off. It reports false if the bytes are gone and the
// underlying reader cannot seek.
func (s *source) rewind(off int64) bool {
	s.searched = 0
	if off >= s.base && off <= s.base+int64(s.w) {
		s.r = int(off - s.base)
		return true
	}
	if s.seeker == nil || off < 0 {
		return false
	}
	if _, err := s.seeker.Seek(s.origin+off, io.SeekStart); err != nil {
		return false
	}
	s.base, s.r, s.w, s.err, s.mark = off, 0, 0, nil, -1
	return true
}

// peekAt returns up to n bytes at stream offset off, at or after the read
// position, without moving it: from the buffer, by reading ahead into it if
// that stays within limit bytes of buffered data, or with ReadAt. It returns
// fewer bytes at the end of the stream, and nil when it cannot tell.
func (s *source) peekAt(off int64, n int, limit int) []byte {
	rel := off - s.pos()
	if rel < 0 {
		return nil
	}
	if rel+int64(n) <= int64(limit) {
		b := s.peek(int(rel) + n)
		if int64(len(b)) <= rel {
			if s.exhausted() {
				return []byte{}
			}
			return nil
		}
		return b[rel:min(len(b), int(rel)+n)]
	}
	if s.at != nil {
		buf := make([]byte, n)
		k, err := s.at.ReadAt(buf, s.origin+off)
		if k == n || err == io.EOF {
			return buf[:k]
		}
	}
	return nil
}
