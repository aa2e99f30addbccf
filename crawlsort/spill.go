package crawlsort

import (
	"bufio"
	"crypto/sha1"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/klauspost/compress/gzip"

	"github.com/sluice-project/sluice/warc"
)

// spillFile holds the bytes of the records of one input that cannot be
// copied from it by offset: records of a gzip member holding several
// (decompressed), and ARC records (converted to WARC). They are written
// plain, one after the other.
type spillFile struct {
	path string
	f    *os.File
	w    *bufio.Writer
	size int64
	// the gzip member being decompressed, for records that share one
	zr        *gzip.Reader
	memberOff int64
	pos       int64 // decompressed bytes of the member read
}

// unreadable is an error reading a record again from its input (not an
// error of the spill file).
type unreadable struct{ err error }

func (u *unreadable) Error() string { return u.err.Error() }

func newSpillFile(path string) (*spillFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &spillFile{path: path, f: f, w: bufio.NewWriterSize(f, runBuffer), memberOff: -1}, nil
}

// copyShared copies the decompressed bytes of rec, which shares the gzip
// member at rec.MemberOffset of f with other records, and returns where
// they are in the spill file. The records of a member come in order: the
// member is decompressed once, as they come.
func (s *spillFile) copyShared(f *os.File, rec *warc.Record) (off, n int64, err error) {
	if s.zr == nil || s.memberOff != rec.MemberOffset || rec.Offset < s.pos {
		sr := io.NewSectionReader(f, rec.MemberOffset, math.MaxInt64-rec.MemberOffset)
		br := bufio.NewReaderSize(sr, runBuffer)
		if s.zr == nil {
			s.zr, err = gzip.NewReader(br)
		} else {
			err = s.zr.Reset(br)
		}
		if err != nil {
			s.memberOff = -1
			return 0, 0, &unreadable{err}
		}
		s.zr.Multistream(false)
		s.memberOff, s.pos = rec.MemberOffset, 0
	}
	if _, err := io.CopyN(io.Discard, s.zr, rec.Offset-s.pos); err != nil {
		s.memberOff = -1
		return 0, 0, &unreadable{err}
	}
	off = s.size
	k, err := io.CopyN(s.w, s.zr, rec.Length)
	s.size += k
	s.pos = rec.Offset + k
	if err != nil {
		s.memberOff = -1
		if werr := s.w.Flush(); werr != nil {
			return 0, 0, fmt.Errorf("%s: %w", s.path, werr)
		}
		return 0, 0, &unreadable{err}
	}
	return off, rec.Length, nil
}

// convertARC writes the ARC record rec of the input at path as a WARC
// record (warc.Writer: its header synthesised from the ARC URL line, its
// block byte-identical, a WARC-Record-ID made from the input's path and
// the record's offset, so that sorting again gives the same ID) and
// returns where it is in the spill file.
func (s *spillFile) convertARC(rec *warc.Record, path string) (off, n int64, err error) {
	if rec.ID() == "" {
		rec.Header.Set(warc.FieldRecordID, derivedID(path, rec.MemberOffset, rec.Offset))
	}
	w := warc.NewWriter(s.w, false)
	if err := w.WriteRecord(rec); err != nil {
		return 0, 0, fmt.Errorf("%s: %w", s.path, err)
	}
	off = s.size
	s.size += rec.Length
	return off, rec.Length, nil
}

// derivedID is a WARC-Record-ID for a record that has none: a UUID made
// from the SHA-1 of where the record is (as a version 5 UUID is).
func derivedID(path string, member, off int64) string {
	h := sha1.Sum([]byte(path + "\x00" + strconv.FormatInt(member, 10) + "\x00" + strconv.FormatInt(off, 10)))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// close writes what is buffered and closes the file.
func (s *spillFile) close() error {
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	return nil
}
