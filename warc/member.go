package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// Reading the records of a gzip member.
//
// A gzip member ends with the CRC-32 of its data: until it is read, nothing
// says the data came out right. A flipped bit in deflate data either makes
// the decoder fail at once, or, more often, makes it produce wrong bytes
// for a while (a literal read as another, a length or distance gone wrong,
// the Huffman codes out of step) before it fails or the CRC-32 disagrees.
// The records decoded from the damaged stretch look like records, with a
// block that lost or changed bytes.
//
// So the records of a member are held until the member's end verifies:
// a member that holds one record (as crawlers write *.warc.gz) yields it
// after its CRC-32 and length matched; a member that holds several (a file
// compressed as one gzip stream) holds them up to Options.HoldBytes. If the
// member fails, the records held and not vouched for by their own
// WARC-Block-Digest become DamageUnverifiable errors, one each, and the rest
// of the member one damaged span from where decoding stopped. Memory stays
// bounded: past HoldBytes the reader checks the member on its own first,
// decompressing it a second time through io.ReaderAt (trustVerified or
// trustDamaged from then on); an input that is not an io.ReaderAt gets the
// records past the cap marked Record.Unverified (trustUnchecked).

// States of the current member's trust.
const (
	trustHolding   = iota // records are held until the member ends
	trustVerified         // the member verified on its own: records pass
	trustDamaged          // the member fails: only digested records pass
	trustUnchecked        // cannot be checked: records pass, marked
)

// heldOverhead is what a held item costs besides its block.
const heldOverhead = 256

// memberEmit passes on an item read from the current member, as the trust
// in the member says.
func (r *Reader) memberEmit(rec *Record, err error) {
	r.memberN++
	switch r.trust {
	case trustHolding:
		r.held = append(r.held, item{rec, err})
		r.heldBytes += heldOverhead
		if rec != nil {
			r.heldBytes += int64(len(rec.Content))
		}
		if len(r.held) > 1 && r.heldBytes > r.opts.HoldBytes {
			r.overflow()
		}
	case trustVerified:
		r.emit(rec, err)
	case trustDamaged:
		r.pending = append(r.pending, r.distrust(item{rec, err}))
	case trustUnchecked:
		if rec != nil && rec.Digest != DigestBlock {
			rec.Unverified = true
		}
		r.emit(rec, err)
	}
}

// overflow decides about a member whose held records reached HoldBytes.
func (r *Reader) overflow() {
	switch {
	case r.phys.at == nil:
		r.trust = trustUnchecked
		for _, it := range r.held {
			if it.rec != nil && it.rec.Digest != DigestBlock {
				it.rec.Unverified = true
			}
		}
	case r.verifyMember():
		r.trust = trustVerified
	default:
		r.trust = trustDamaged
		for i := range r.held {
			r.held[i] = r.distrust(r.held[i])
		}
	}
	r.release()
}

// release passes the held items on.
func (r *Reader) release() {
	r.pending = append(r.pending, r.held...)
	clear(r.held)
	r.held, r.heldBytes = r.held[:0], 0
}

// distrust turns a record of a damaged member without a block digest of its
// own into an error.
func (r *Reader) distrust(it item) item {
	if it.rec == nil {
		return it
	}
	if it.rec.Digest == DigestBlock {
		// Its block is whole; its header is covered by nothing (a
		// flipped literal changes one byte and decoding goes on).
		it.rec.Unverified = true
		return it
	}
	return item{err: &RecordError{Offset: r.memberOff, InMember: it.rec.Offset, Length: it.rec.Length, End: -1, Kind: DamageUnverifiable,
		Reason: "record from a gzip member that fails its checksum, without a WARC-Block-Digest to show it was not hit: not trusted"}}
}

// verifyMember decompresses the current member on its own, from the input
// through io.ReaderAt, and reports whether it is whole and its checksum
// matches.
func (r *Reader) verifyMember() bool {
	p := r.phys
	size := int64(1<<63 - 1 - p.origin - r.memberOff)
	if p.size >= 0 {
		size = p.size - r.memberOff
	}
	zr, err := gzip.NewReader(bufio.NewReaderSize(io.NewSectionReader(p.at, p.origin+r.memberOff, size), 64<<10))
	if err != nil {
		return false
	}
	zr.Multistream(false)
	_, err = io.Copy(io.Discard, zr)
	return err == nil
}

// memberDone ends a member whose data and checksum were read whole.
func (r *Reader) memberDone() {
	r.inMember = false
	r.unread()
	r.phys.clearMark()
	if r.trust == trustHolding && len(r.held) == 1 {
		// The member holds one item: it has an offset and a length in
		// the file.
		fileLen := r.phys.pos() - r.memberOff
		if it := r.held[0]; it.rec != nil {
			it.rec.Shared, it.rec.Offset, it.rec.Length = false, r.memberOff, fileLen
		} else if re, ok := it.err.(*RecordError); ok {
			re.InMember, re.Length, re.End = -1, fileLen, r.memberOff+fileLen
		}
	}
	r.release()
}

// memberFailed reports a decompression error of the current member and
// rescans the input from the byte after the member's start. recOff is the
// decompressed offset of what was being read.
func (r *Reader) memberFailed(recOff int64) {
	r.inMember = false
	r.unread()
	if r.phys.broken() {
		r.release()
		r.fatal()
		return
	}
	err := r.mem.err
	kind, reason := DamageGzipMember, "damaged gzip member"
	if errors.Is(err, io.ErrUnexpectedEOF) {
		kind, reason = DamageGzipTruncated, "gzip member cut short: the input ends inside it"
	}
	lost := r.resync(r.phys, r.rescanFrom(), true)
	if r.trust == trustHolding && (len(r.held) == 0 || len(r.held) == 1 && r.mem.pos() == recOff) {
		// Nothing of the member was passed on, and it failed before a
		// second item began (a member of one record whose checksum
		// fails): the member is one damaged span.
		clear(r.held)
		r.held = r.held[:0]
		r.damage(r.memberOff, r.phys.pos()-r.memberOff, kind, reason+lostNote(lost), err)
	} else {
		if r.trust == trustHolding {
			for i := range r.held {
				r.held[i] = r.distrust(r.held[i])
			}
		}
		r.release()
		r.emit(nil, &RecordError{Offset: r.memberOff, InMember: recOff, Length: -1, End: r.phys.pos(), Kind: kind,
			Reason: reason + ": the rest of the member from this decompressed offset is lost" + lostNote(lost), Err: err})
	}
	if r.phys.failed() {
		r.fatal()
	}
}

// rescanFrom returns where to rescan the input after the current member
// failed, its compressed data read up to the input's position: the byte
// after the member's start, so that members its damaged data swallowed are
// found; but the end of what was read when the member was itself found
// inside the span of a member that failed. Going back into a failing member
// that lies in a failing member would decompress the same bytes again for
// each level of nesting (members in stored deflate blocks nest at will):
// each compressed byte is decompressed at most twice, and a member hidden
// in two damaged ones is reported inside the second one's damage.
func (r *Reader) rescanFrom() int64 {
	end := r.phys.pos()
	nested := r.memberOff < r.failedEnd
	r.failedEnd = max(r.failedEnd, end)
	if nested {
		return end
	}
	return r.memberOff + 1
}

// inMemberError is damage inside the current member, at decompressed
// offset off, covering n decompressed bytes.
func (r *Reader) inMemberError(off, n int64, kind DamageKind, reason string, err error) *RecordError {
	return &RecordError{Offset: r.memberOff, InMember: off, Length: n, End: -1, Kind: kind, Reason: reason, Err: err}
}

// memberStep reads the next record of the current gzip member.
func (r *Reader) memberStep() {
	m := r.mem
	skipBlank(m)
	recOff := m.pos()
	if m.failed() {
		r.memberFailed(recOff)
		return
	}
	if m.atEOF() {
		r.memberDone()
		return
	}
	kind := r.recordStart(m)
	if kind == startNone {
		head := bytes.Clone(m.peek(64))
		if !m.failed() {
			r.scan(m, -1, false)
		}
		if m.failed() {
			r.memberFailed(recOff)
			return
		}
		n := m.pos() - recOff
		r.memberEmit(nil, r.inMemberError(recOff, n, DamageGarbage, fmt.Sprintf("%d bytes in the gzip member that are not a record (%s)", n, describeShort(head)), nil))
		return
	}
	m.setMark()
	rec, perr := r.parseRecord(m, kind)
	if perr != nil {
		var lost int64
		if !m.failed() && !perr.framed {
			lost = r.resync(m, recOff+1, false)
		}
		if m.failed() {
			// Decompression failed: that is the cause to report.
			r.memberFailed(recOff)
			return
		}
		m.clearMark()
		r.memberEmit(nil, r.inMemberError(recOff, m.pos()-recOff, perr.kind, perr.reason+lostNote(lost), perr.err))
		return
	}
	m.clearMark()
	rec.Shared, rec.Offset, rec.Length, rec.MemberOffset = true, recOff, m.pos()-recOff, r.memberOff
	r.memberEmit(rec, nil)
}

// trialBytes is how much of a member with a damaged header is decompressed
// to see whether it holds a record.
const trialBytes = 16 << 10

// isDamagedGzipMagic reports whether b starts with the gzip magic and the
// deflate method, with reserved flag bits set: a gzip decoder must refuse
// the member (RFC 1952, 2.3.1.2).
func isDamagedGzipMagic(b []byte) bool {
	return len(b) >= 4 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8 && b[3]&0xe0 != 0
}

// trialDamagedMember reports whether b, the start of a gzip member whose
// flags byte has reserved bits set, decompresses to a record start when
// the flags are read without them, or as zero: then it is a member with a
// damaged header (to report on its own), not bytes inside other data.
func trialDamagedMember(b []byte) bool {
	for _, flags := range []byte{b[3] & 0x1f, 0} {
		n := gzipHeaderLen(b, flags)
		if n < 0 {
			continue
		}
		out, _ := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(b[n:])), 512))
		out = bytes.TrimLeft(out, "\r\n")
		if isWARCStart(firstLine(out)) {
			return true
		}
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			if _, ok := parseARCLine(out[:i+1], 0); ok {
				return true
			}
		}
	}
	return false
}

// gzipHeaderLen returns the length of the gzip header at the start of b
// read with the given flags, or -1 if b is too short.
func gzipHeaderLen(b []byte, flags byte) int {
	const (
		fhcrc    = 1 << 1
		fextra   = 1 << 2
		fname    = 1 << 3
		fcomment = 1 << 4
	)
	n := 10
	if flags&fextra != 0 {
		if len(b) < n+2 {
			return -1
		}
		n += 2 + int(b[n]) + int(b[n+1])<<8
	}
	for _, f := range []byte{fname, fcomment} {
		if flags&f != 0 {
			if n > len(b) {
				return -1
			}
			i := bytes.IndexByte(b[n:], 0)
			if i < 0 {
				return -1
			}
			n += i + 1
		}
	}
	if flags&fhcrc != 0 {
		n += 2
	}
	if n > len(b) {
		return -1
	}
	return n
}
