package score

import "slices"

// Runs finds the longest runs of symbols that two sequences share, as
// Python's difflib.SequenceMatcher.find_longest_match does with no junk:
// index b once (Index), then ask for the longest run in regions of a and b
// (Longest), and extend a run over equal symbols (Extend). It serves the
// CleanEval scorer (difflib.go) and the alignment of gold texts with pages
// (package train). The zero value is ready; a Runs is not safe for
// concurrent use.
type Runs struct {
	// The positions in b of symbol s, ascending: pos[start[s]:start[s+1]].
	start, pos []int32
	// The run lengths ending at each position of b on the previous and the
	// current symbol of a, indexed by position+1 (difflib's j2len and
	// newj2len), zero but at the positions listed in prevSet and curSet.
	prev, cur       []int32
	prevSet, curSet []int32
}

// Index indexes b, a sequence over the symbols [0, nsym).
func (r *Runs) Index(b []int32, nsym int) {
	r.start = slices.Grow(r.start[:0], nsym+1)[:nsym+1]
	clear(r.start)
	cnt := r.start[1:] // cnt[s] == start[s+1]: the count of s, then its end
	for _, s := range b {
		cnt[s]++
	}
	for s := 1; s < nsym; s++ {
		cnt[s] += cnt[s-1]
	}
	// start[s+1] is now the end of s's range. Fill each range from its end,
	// walking b backwards so that positions come out ascending; afterwards
	// start[s+1] is the beginning of s's range.
	r.pos = slices.Grow(r.pos[:0], len(b))[:len(b)]
	for j := len(b) - 1; j >= 0; j-- {
		s := b[j]
		cnt[s]--
		r.pos[cnt[s]] = int32(j)
	}
	copy(r.start[:nsym], r.start[1:])
	r.start[nsym] = int32(len(b))
	n := len(b) + 1
	if cap(r.prev) < n {
		r.prev, r.cur = make([]int32, n), make([]int32, n)
	}
	r.prev, r.cur = r.prev[:n], r.cur[:n]
	clear(r.prev)
	clear(r.cur)
}

// Count returns how many times symbol s occurs in the indexed sequence.
func (r *Runs) Count(s int32) int { return int(r.start[s+1] - r.start[s]) }

// Longest returns the longest run a[x:x+k] == b[y:y+k] with x in
// [alo, ahi) and y in [blo, bhi), where b is the sequence indexed. Symbols
// s with skip[s] (skip may be nil) cannot start a run nor be inside one.
// Among runs of the same length the first wins, or with last the last.
// With no run, it returns alo, blo, 0.
func (r *Runs) Longest(a []int32, alo, ahi, blo, bhi int, skip []bool, last bool) (x, y, k int) {
	x, y = alo, blo
	prev, cur := r.prev, r.cur
	prevSet, curSet := r.prevSet[:0], r.curSet[:0]
	for i := alo; i < ahi; i++ {
		s := a[i]
		var js []int32
		if skip == nil || !skip[s] {
			js = r.pos[r.start[s]:r.start[s+1]]
		}
		// Skip the positions below blo (Python: continue), by binary search.
		lo, hi := 0, len(js)
		for lo < hi {
			h := int(uint(lo+hi) >> 1)
			if int(js[h]) < blo {
				lo = h + 1
			} else {
				hi = h
			}
		}
		for _, j32 := range js[lo:] {
			j := int(j32)
			if j >= bhi {
				break
			}
			n := prev[j] + 1
			cur[j+1] = n
			curSet = append(curSet, int32(j+1))
			if int(n) > k || last && int(n) == k {
				x, y, k = i-int(n)+1, j-int(n)+1, int(n)
			}
		}
		// j2len = newj2len
		for _, p := range prevSet {
			prev[p] = 0
		}
		prev, cur = cur, prev
		prevSet, curSet = curSet, prevSet[:0]
	}
	for _, p := range prevSet {
		prev[p] = 0
	}
	r.prev, r.cur = prev, cur
	r.prevSet, r.curSet = prevSet[:0], curSet[:0]
	return x, y, k
}

// Extend extends the run a[x:x+k] == b[y:y+k] over equal symbols on each
// side, within [alo, ahi) and [blo, bhi): the way symbols that Longest
// skipped join a run (difflib's loops over popular elements).
func Extend(a, b []int32, alo, ahi, blo, bhi, x, y, k int) (int, int, int) {
	for x > alo && y > blo && a[x-1] == b[y-1] {
		x, y, k = x-1, y-1, k+1
	}
	for x+k < ahi && y+k < bhi && a[x+k] == b[y+k] {
		k++
	}
	return x, y, k
}
