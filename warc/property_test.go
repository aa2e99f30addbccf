package warc

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

// The property tests generate archives with their own writer (not Writer),
// damage them at random, and check what the Reader yields against what was
// generated: every record yielded is one generated, whole and unchanged
// unless nothing could have told (a plain record without a digest);
// every record generated is yielded or inside a reported damaged span; a
// record the damage did not touch is yielded.

var propSeeds = flag.Int("warc.seeds", 0, "seeds of the archive damage property tests (default 300 with -short, 4000 without)")

func seeds() int {
	switch {
	case *propSeeds > 0:
		return *propSeeds
	case testing.Short():
		return 300
	}
	return 4000
}

// Layouts of a generated archive.
const (
	layoutPlain     = iota
	layoutPerRecord // one gzip member per record
	layoutStream    // one gzip member for the whole file
)

var layoutNames = []string{"plain", "gzip per record", "gzip stream"}

// genRec is a generated record and where it is.
type genRec struct {
	id, uri string
	block   []byte
	digest  bool // it has a WARC-Block-Digest
	payload bool // it has only a WARC-Payload-Digest
	// start and end delimit the record in the file (plain, gzip per
	// record: its member), or, for layoutStream, in the decompressed data.
	start, end   int64
	touched      bool // the damage hit it
	lengthBroken bool // its declared length was broken before compression
	mayFail      bool // the damage is next to it, where it cannot be told apart
}

// genArchive is a generated archive.
type genArchive struct {
	arc    bool
	layout int
	recs   []*genRec
	data   []byte
	plain  []byte // layoutStream: the decompressed data
	log    []string
	// layoutStream: the file offset of the member, and whether its flags
	// byte was damaged (which the standard library's reader lets pass).
	memberAt int64
	flagsHit bool
}

var words = strings.Fields("the river carries silt past the mill and the town where the bridge stands over water light falls on stone")

func genBody(rng *rand.Rand, i int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<html><head><title>Page %d</title></head><body>", i)
	for range 1 + rng.IntN(6) {
		b.WriteString("<p>")
		for range 5 + rng.IntN(60) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		b.WriteString("</p>\n")
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// labelledDigest writes a digest in one of the forms seen in the wild.
func labelledDigest(rng *rand.Rand, b []byte) string {
	switch rng.IntN(4) {
	case 0:
		s := sha256.Sum256(b)
		return "sha256:" + hex.EncodeToString(s[:])
	case 1:
		s := md5.Sum(b)
		return "md5:" + strings.ToLower(base32.StdEncoding.EncodeToString(s[:]))
	case 2:
		s := sha1.Sum(b)
		return "sha1:" + hex.EncodeToString(s[:])
	}
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

// serialize writes one record; length, if set, replaces its declared length.
func serialize(rng *rand.Rand, g *genRec, arc bool, length string) []byte {
	if length == "" {
		length = fmt.Sprint(len(g.block))
	}
	var b bytes.Buffer
	if arc {
		fmt.Fprintf(&b, "%s 192.0.2.%d 20240506070809 text/html %s\n", g.uri, 1+rng.IntN(250), length)
		b.Write(g.block)
		b.WriteByte('\n')
		return b.Bytes()
	}
	fmt.Fprintf(&b, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: %s\r\nWARC-Date: 2024-05-06T07:08:09Z\r\nWARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\n", g.id, g.uri)
	if g.digest {
		fmt.Fprintf(&b, "WARC-Block-Digest: %s\r\n", labelledDigest(rng, g.block))
	}
	if g.payload {
		fmt.Fprintf(&b, "WARC-Payload-Digest: %s\r\n", labelledDigest(rng, g.block[httpHeaderEnd(g.block):]))
	}
	fmt.Fprintf(&b, "Content-Length: %s\r\n\r\n", length)
	b.Write(g.block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// generate makes an archive of a few records, with broken declared lengths
// at random.
func generate(rng *rand.Rand, arc bool, layout int) *genArchive {
	a := &genArchive{arc: arc, layout: layout}
	n := 2 + rng.IntN(6)
	var parts [][]byte
	if arc {
		desc := []byte("1 0 sluice-test\nURL IP-address Archive-date Content-type Archive-length\n")
		parts = append(parts, []byte(fmt.Sprintf("filedesc://test.arc 0.0.0.0 20240506070809 text/plain %d\n%s\n", len(desc), desc)))
		a.recs = append(a.recs, &genRec{uri: "filedesc://test.arc", block: desc})
	}
	for i := range n {
		body := genBody(rng, i)
		block := []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
		g := &genRec{id: fmt.Sprintf("<urn:test:%d-%d>", i, rng.Int64()), uri: fmt.Sprintf("http://example.com/p%d", i), block: block}
		if !arc {
			switch rng.IntN(3) {
			case 0:
				g.digest = true
			case 1:
				g.payload = true
			}
		}
		length := ""
		if rng.IntN(12) == 0 {
			length = []string{"12x", fmt.Sprint(len(block) + 1 + rng.IntN(40)), fmt.Sprint(len(block) - 1 - rng.IntN(40)), ""}[rng.IntN(4)]
			g.touched, g.lengthBroken = length != "", length != ""
			a.log = append(a.log, fmt.Sprintf("record %d: length %q", len(a.recs), length))
		}
		a.recs = append(a.recs, g)
		parts = append(parts, serialize(rng, g, arc, length))
	}
	var off int64
	for i, p := range parts {
		if layout == layoutPerRecord {
			p = gzipBytes(p)
		}
		a.recs[i].start, a.recs[i].end = off, off+int64(len(p))
		off += int64(len(p))
		a.data = append(a.data, p...)
	}
	if layout == layoutStream {
		a.plain = a.data
		a.data = gzipBytes(a.plain)
	}
	return a
}

// damage damages the archive once at random.
func (a *genArchive) damage(rng *rand.Rand) {
	if len(a.data) == 0 {
		return
	}
	pos := rng.Int64N(int64(len(a.data)))
	if rng.IntN(4) == 0 {
		pos = a.recs[rng.IntN(len(a.recs))].start // at a boundary
		if a.layout == layoutStream {
			pos = a.memberAt
		}
		if pos >= int64(len(a.data)) {
			return
		}
	}
	switch k := rng.IntN(5); {
	case k == 0: // bit flip
		a.data[pos] ^= 1 << rng.IntN(8)
		a.log = append(a.log, fmt.Sprintf("flip at %d", pos))
		a.hit(pos, pos+1, false)
	case k == 1: // truncation
		a.data = a.data[:pos]
		a.log = append(a.log, fmt.Sprintf("cut at %d", pos))
		a.hit(pos, 1<<62, false)
	case k == 2: // inserted garbage
		g := make([]byte, 1+rng.IntN(40))
		for i := range g {
			g[i] = "abcdefghij \n<>"[rng.IntN(14)]
		}
		a.data = append(a.data[:pos], append(g, a.data[pos:]...)...)
		a.log = append(a.log, fmt.Sprintf("insert %q at %d", g, pos))
		a.hit(pos, pos, true)
		a.shift(pos, int64(len(g)))
	case k == 3 && a.layout != layoutPlain: // bad gzip header
		g := a.recs[rng.IntN(len(a.recs))]
		at := g.start
		if a.layout == layoutStream {
			at = a.memberAt
		}
		if at+10 > int64(len(a.data)) {
			return
		}
		if rng.IntN(2) == 0 {
			a.data[at+3] |= 0xe0
			a.flagsHit = true
			a.log = append(a.log, fmt.Sprintf("gzip flags at %d", at))
		} else {
			i := at + rng.Int64N(10)
			a.data[i] ^= byte(1 + rng.IntN(255))
			a.flagsHit = a.flagsHit || i == at+3 && a.data[i]&0xe0 != 0
			a.log = append(a.log, fmt.Sprintf("gzip header byte at %d", i))
		}
		a.hit(at, at+10, false)
	default: // several bit flips close together
		for range 2 + rng.IntN(4) {
			p := min(int64(len(a.data)-1), pos+rng.Int64N(64))
			a.data[p] ^= 1 << rng.IntN(8)
			a.hit(p, p+1, false)
		}
		a.log = append(a.log, fmt.Sprintf("flips near %d", pos))
	}
}

// hit marks the records that file bytes [from, to) of the damage touch (an
// insertion: from == to, inside a record only).
func (a *genArchive) hit(from, to int64, insert bool) {
	if a.layout == layoutStream {
		return // decided by decompressing (see settle)
	}
	for i, g := range a.recs {
		if insert && g.start < from && from < g.end || !insert && g.start < to && from < g.end {
			g.touched = true
			if a.arc && a.layout == layoutPlain && i > 0 {
				// The damage of an ARC record's URL line, or garbage
				// right after a record, may cost the record before it:
				// a wrong Archive-length cannot be told from them.
				a.recs[i-1].mayFail = true
			}
		}
		if a.arc && a.layout == layoutPlain && insert && (from == g.end || from == g.start) {
			// Garbage glued to an ARC URL line damages the line.
			g.mayFail = true
		}
	}
}

// shift moves the records at or after file offset at by n.
func (a *genArchive) shift(at, n int64) {
	if a.layout == layoutStream {
		if at <= a.memberAt {
			a.memberAt += n
		}
		return
	}
	for _, g := range a.recs {
		if g.start >= at {
			g.start += n
		}
		if g.end > at {
			g.end += n
		}
	}
}

// settle decides, for the stream layout, which records the damage touched:
// it decompresses the damaged file with the standard library's gzip and
// compares. It reports whether the member is damaged.
func (a *genArchive) settle() (damaged bool) {
	if a.layout != layoutStream {
		return false
	}
	zr, err := gzip.NewReader(bytes.NewReader(a.data[min(a.memberAt, int64(len(a.data))):]))
	var out []byte
	if err == nil {
		zr.Multistream(false)
		out, err = io.ReadAll(zr)
	}
	for _, g := range a.recs {
		if a.flagsHit || int64(len(out)) < g.end || !bytes.Equal(out[g.start:g.end], a.plain[g.start:g.end]) {
			g.touched = true
		}
	}
	return err != nil || a.flagsHit
}

// checkArchive reads a damaged archive and checks the properties.
func checkArchive(t *testing.T, a *genArchive, seekable bool) {
	t.Helper()
	damaged := a.settle()
	recs, errs, _ := readAll(t, a.data, Options{}, seekable)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, %s, seekable %v, %s: %s", map[bool]string{true: "ARC", false: "WARC"}[a.arc], layoutNames[a.layout], seekable, strings.Join(a.log, "; "), fmt.Sprintf(format, args...))
	}
	var res []*RecordError
	notArchive := false
	for _, err := range errs {
		var re *RecordError
		switch {
		case errors.As(err, &re):
			res = append(res, re)
		case errors.Is(err, ErrNotArchive):
			notArchive = true
		default:
			fail("unexpected error %v", err)
		}
	}
	got := map[*genRec]bool{}
	for _, rec := range recs {
		g := a.find(rec)
		if g == nil {
			fail("record at %d (shared %v, %d bytes) matches no record generated", rec.Offset, rec.Shared, rec.Length)
		}
		if got[g] {
			fail("record at %d yielded twice", rec.Offset)
		}
		got[g] = true
		// What vouches for the record: its digest (as the reader found
		// it: a damaged digest field checks nothing), or the gzip CRC-32
		// (but not of an ARC length broken before compression: nothing
		// checks that).
		protected := rec.Digest != DigestNone || a.layout != layoutPlain && !(a.arc && g.lengthBroken)
		switch {
		case rec.Digest == DigestPayload:
			i, j := httpHeaderEnd(rec.Content), httpHeaderEnd(g.block)
			if i < 0 || !bytes.Equal(rec.Content[i:], g.block[j:]) {
				fail("record at %d yielded with a payload that is not the one generated", rec.Offset)
			}
		case protected || !g.touched:
			if !bytes.Equal(rec.Content, g.block) || !a.arc && rec.ID() != g.id && !g.touched {
				fail("record at %d yielded with a block of %d bytes, generated %d (%s)", rec.Offset, len(rec.Content), len(g.block), rec.ID())
			}
		}
		if a.layout == layoutStream && damaged && !rec.Unverified {
			fail("record at %d of a damaged gzip stream yielded without the Unverified mark", rec.Offset)
		}
		if a.layout == layoutStream && damaged && g.digest == false {
			fail("record at %d of a damaged gzip stream yielded without a digest to vouch for it", rec.Offset)
		}
	}
	for i, g := range a.recs {
		if got[g] || a.layout != layoutStream && g.start >= int64(len(a.data)) || len(a.data) == 0 {
			continue // yielded, or cut off the file
		}
		if !notArchive && !a.covered(g, res) {
			fail("record %d at %d-%d neither yielded nor in a damaged span: errors %v", i, g.start, g.end, errs)
		}
		intact := !g.touched && !g.mayFail
		if a.layout == layoutStream && damaged && !g.digest {
			intact = false
		}
		if intact && !notArchive {
			fail("intact record %d at %d-%d not yielded: errors %v", i, g.start, g.end, errs)
		}
	}
	if a.layout != layoutStream && !notArchive {
		a.checkTiling(t, recs, res, fail)
	}
}

// find returns the generated record that rec is, by its position.
func (a *genArchive) find(rec *Record) *genRec {
	for _, g := range a.recs {
		switch {
		case a.layout != layoutStream && !rec.Shared && rec.Offset == g.start:
			return g
		case a.layout == layoutPerRecord && rec.Shared && rec.MemberOffset == g.start:
			// A member that fails after its record, with a digest.
			return g
		case a.layout == layoutStream && rec.Shared && rec.MemberOffset == a.memberAt && rec.Offset == g.start:
			return g
		case a.layout == layoutStream && !rec.Shared && len(a.recs) == 1:
			return g
		case a.arc && a.layout == layoutPlain && !rec.Shared && rec.Offset+rec.Length == g.end && abs(g.start-rec.Offset) <= 64:
			// Garbage glued before an ARC URL line that still parses:
			// nothing tells it from an address.
			g.touched = true
			return g
		}
	}
	return nil
}

// covered reports whether a damaged span holds g.
func (a *genArchive) covered(g *genRec, res []*RecordError) bool {
	for _, e := range res {
		if e.InMember < 0 {
			end := e.Offset + e.Length
			if a.layout == layoutStream && e.Offset <= a.memberAt && end > a.memberAt {
				return true
			}
			if a.layout != layoutStream && e.Offset < g.end && end > g.start {
				return true
			}
			continue
		}
		if a.layout != layoutStream && e.End >= 0 && e.Offset < g.end && e.End > g.start {
			return true // a member that failed after records, over g
		}
		if a.layout != layoutStream && e.Offset >= g.start && e.Offset < g.end {
			return true // inside g's member
		}
		if a.layout == layoutStream && e.Offset == a.memberAt && e.InMember < g.end && (e.Length < 0 || e.InMember+e.Length > g.start) {
			return true
		}
	}
	return false
}

// checkTiling checks that the records and damaged spans of a file do not
// overlap and leave out line ends only.
func (a *genArchive) checkTiling(t *testing.T, recs []*Record, res []*RecordError, fail func(string, ...any)) {
	t.Helper()
	type span struct {
		from, to int64
		what     string
	}
	var spans []span
	for _, r := range recs {
		if !r.Shared {
			spans = append(spans, span{r.Offset, r.Offset + r.Length, "record"})
		}
	}
	for _, e := range res {
		switch {
		case e.InMember < 0:
			if e.Length <= 0 || e.End != e.Offset+e.Length {
				fail("damaged span of length %d, end %d: %v", e.Length, e.End, e)
			}
			spans = append(spans, span{e.Offset, e.Offset + e.Length, "damage: " + e.Error()})
		case e.End >= 0:
			spans = append(spans, span{e.Offset, e.End, "damaged member: " + e.Error()})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var at int64
	for _, s := range spans {
		if s.from < at {
			fail("%s at %d-%d overlaps what ends at %d", s.what, s.from, s.to, at)
		}
		if gap := a.data[at:s.from]; len(bytes.Trim(gap, "\r\n")) > 0 {
			fail("bytes %d-%d (%q) in no record and no damaged span", at, s.from, gap)
		}
		at = s.to
	}
	if rest := a.data[min(at, int64(len(a.data))):]; len(bytes.Trim(rest, "\r\n")) > 0 {
		fail("bytes %d-%d in no record and no damaged span", at, len(a.data))
	}
}

// TestDamageProperty damages generated WARC and ARC files at random and
// checks every record against the generator.
func TestDamageProperty(t *testing.T) {
	n := seeds()
	kinds := []struct {
		arc    bool
		layout int
	}{{false, layoutPlain}, {false, layoutPerRecord}, {false, layoutStream}, {true, layoutPlain}, {true, layoutPerRecord}}
	for seed := range n {
		k := kinds[seed%len(kinds)]
		rng := rand.New(rand.NewPCG(uint64(seed), 19))
		a := generate(rng, k.arc, k.layout)
		for range 1 + rng.IntN(3) {
			a.damage(rng)
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkArchive(t, a, true)
			if seed%4 == 0 {
				checkArchive(t, a, false)
			}
		})
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
