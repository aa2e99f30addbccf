package label

import (
	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/grow"
)

// Windows. A page's block attributes are some 80 per block, 2 KB: held for
// every block at once, as they were, a page of a hundred thousand short
// blocks took gigabytes. A CRF stage reads them window by window instead:
// for windowBlocks blocks at a time, the attributes of those blocks and of
// the few around them that the CRF's template (and the trees' neighbour
// columns) reach are computed, extended with the style's, the trees' and
// the stack's attributes, and turned into the blocks' emission rows; only
// the rows (one value per label per block) are kept for the whole page.
// What the page passes compute (features.Prepared) and what the stages
// keep between them (marginals, the trees' probabilities) are a fixed
// number of values per block. The windows give the same emissions, to the
// bit, as one window over the whole page (crf.Model.EmitWindow).

// windowBlocks is how many blocks' emission rows a CRF stage computes from
// one window of attributes (a variable for tests).
var windowBlocks = 512

// windowScratch is the memory of the window passes, reused from window to
// window and page to page.
type windowScratch struct {
	emit  []float64 // the page's emission rows, until they become its marginals
	style extended  // the window's attributes with the style's
	boost extended  // and the trees' (the stack's are in stackScratch)
	// The window's attributes as the CRF's ids (crfPass's one lookup):
	// as the trees read them, then with the trees' attributes.
	ids, withTrees crf.Resolved
}

// extended is a window of attribute lists, each a list of another window
// with attributes appended.
type extended struct {
	out [][]crf.Attr
	buf []crf.Attr
}

// extend returns a copy of win with extra(i, dst) appended to the list of
// each block i of the window; per is about how many extra appends.
func (x *extended) extend(win [][]crf.Attr, per int, extra func(i int, dst []crf.Attr) []crf.Attr) [][]crf.Attr {
	need := 0
	for _, a := range win {
		need += len(a) + per
	}
	if cap(x.buf) < need {
		x.buf = make([]crf.Attr, 0, need+need/4)
	}
	buf := x.buf[:0]
	x.out = grow.Slice(x.out, len(win))
	for i, a := range win {
		start := len(buf)
		buf = extra(i, append(buf, a...))
		x.out[i] = buf[start:len(buf):len(buf)]
	}
	x.buf = buf[:0]
	return x.out[:len(win)]
}

// pooled reports whether the memory is small enough to keep.
func (ws *windowScratch) pooled() bool {
	const most = features.MaxPooled
	return cap(ws.style.out) <= most && cap(ws.boost.out) <= most
}

// crfPass computes the marginals of the CRF m over s's page, window by
// window. A window's attributes are the extractor's (s.prep), then the
// style's, then the trees' (computed in this pass the first time, from
// s.tp after), then add's, if set: add(lo, win) extends the attributes of
// blocks lo to lo+len(win)-1.
func (l *Labeller) crfPass(s *state, m *crf.Model, add func(lo int, win [][]crf.Attr) [][]crf.Attr) [][]float64 {
	n := len(s.p.Blocks)
	before, after := m.Span()
	trees := s.trees
	reach := 0
	if trees != nil && !s.tpDone {
		reach = 1 // the trees read the blocks next to each block
		s.tp = grow.Slice(s.ab.boost.p, n)
		s.ab.boost.p = s.tp
	}
	// One lookup an attribute for the trees and the CRF, when the trees
	// run in this pass and the CRF is the labeller's (l.dict).
	fused := trees != nil && !s.tpDone && add == nil && m == l.crf && l.dict != nil
	L := len(m.Labels())
	ws := &s.ab.win
	ws.emit = grow.Slice(ws.emit, n*L)
	for from := 0; from < n; from += windowBlocks {
		to := min(from+windowBlocks, n)
		lo, hi := max(from-before-reach, 0), min(to+after+reach, n)
		win := s.prep.AttrsInto(lo, hi, &s.ab.attrs)
		win = withStyle(win, s.style, &ws.style)
		if fused {
			tlo, thi := max(from-before, 0), min(to+after, n)
			resetResolved(&ws.ids, lo)
			trees.probs(win, lo, tlo, thi, s.tp, &s.ab.boost, &l.dict, &ws.ids)
			l.withTrees(&ws.ids, tlo, thi, s.tp, &ws.withTrees)
			m.EmitResolved(&ws.withTrees, n, from, to, ws.emit[:n*L])
			continue
		}
		if trees != nil {
			tlo, thi := max(from-before, 0), min(to+after, n)
			if !s.tpDone {
				trees.probs(win, lo, tlo, thi, s.tp, &s.ab.boost, &trees.dict, nil)
			}
			win, lo = win[tlo-lo:thi-lo], tlo
			bk := l.ext.Bucket(features.Boost, "b.p")
			win = ws.boost.extend(win, 2, func(i int, dst []crf.Attr) []crf.Attr { return appendBoostAttrs(dst, s.tp[lo+i], bk) })
		}
		if add != nil {
			win = add(lo, win)
		}
		m.EmitWindow(win, lo, n, from, to, ws.emit[:n*L])
	}
	if trees != nil {
		s.tpDone = true
	}
	if s.lastReader {
		s.prep.Release() // before forward-backward, which takes as much
	}
	// The marginals are computed over the emission rows, which they then
	// own: the pass's next call starts a new buffer.
	emit := ws.emit[:n*L]
	ws.emit = nil
	return m.LatticeOf(emit).Consume()
}

// resetResolved empties r for a window starting at block lo.
func resetResolved(r *crf.Resolved, lo int) {
	r.Start = append(r.Start[:0], 0)
	r.IDs, r.Vals, r.Lo = r.IDs[:0], r.Vals[:0], lo
}

// withTrees writes into out the CRF's attributes of blocks from to to-1:
// those ids holds (from block ids.Lo), each block's followed by the Boost
// group's attributes of its trees' probability tp[i], as crfPass appends
// them to the block's attribute list (appendBoostAttrs).
func (l *Labeller) withTrees(ids *crf.Resolved, from, to int, tp []float64, out *crf.Resolved) {
	bk := l.ext.Bucket(features.Boost, "b.p")
	resetResolved(out, from)
	var buf [2]crf.Attr
	for i := from; i < to; i++ {
		a, b := ids.Start[i-ids.Lo], ids.Start[i-ids.Lo+1]
		out.IDs = append(out.IDs, ids.IDs[a:b]...)
		out.Vals = append(out.Vals, ids.Vals[a:b]...)
		l.dict.resolveInto(out, appendBoostAttrs(buf[:0], tp[i], bk))
	}
}
