package score

import (
	"math"
	"math/bits"
	"strings"
)

// RougeLSum scores output against gold with ROUGE-LSum, the summary-level
// LCS measure of ROUGE (Lin 2004, section 3.2) as the rouge-score package
// computes it (rouge_scorer.py, rouge type "rougeLsum", no stemming), the
// measure Bevendorff et al. report in "An Empirical Comparison of Web Content
// Extraction Algorithms" (SIGIR 2023).
//
// Both texts are split into sentences, by default at "\n" with empty strings
// dropped (rouge-score's split_summaries=False), and each sentence into
// tokens, by default with RougeTokens. With reference (gold) sentences
// r_1..r_u, m tokens in all, and candidate (output) sentences c_1..c_v, n
// tokens in all:
//
//	hits = Σ_i |∪_j LCS(r_i, c_j)|, clipped,  P = hits/n,  R = hits/m,  F = 2PR/(P+R)
//
// where LCS(r_i, c_j) is the set of positions of r_i on one longest common
// subsequence with c_j, chosen by rouge-score's backtracking (from the end:
// take a match when the tokens are equal, else step along c_j when that keeps
// a strictly longer LCS, else along r_i), and ∪_j their union. The union's
// tokens are taken in order of r_i; "clipped" means a token counts as a hit
// only while both its remaining count in the reference and in the candidate
// are positive, each hit decrementing both (rouge-score's guard against
// double counting, after ROUGE 1.5.5).
//
// The result is Counts{TP: hits, FP: n - hits, FN: m - hits}, whose
// Precision, Recall and F1 are P, R and F. One difference from rouge-score,
// by the conventions of Counts: when neither text has a token the score is
// 1, where rouge-score returns 0. (Bevendorff et al. also score a page 1
// when both texts are blank, but give recall 1 to any blank gold, which
// Counts scores 0.)
func RougeLSum(output, gold string) Counts {
	return RougeLSumWith(output, gold, RougeOptions{})
}

// RougeOptions configures RougeLSumWith. The zero value is rouge-score's
// default, as RougeLSum uses it.
type RougeOptions struct {
	// Tokenize splits a sentence into tokens. Nil means RougeTokens.
	// Bevendorff et al. (2023) tokenised at white space, case kept (their
	// tokenize_ws): Words.
	Tokenize func(string) []string
	// Sentences splits a text into sentences. Nil means lines: split at
	// "\n", empty strings dropped. Bevendorff et al. split with NLTK's Punkt
	// sentence tokenizer (split_summaries=True), which this package does not
	// provide: lines are a coarser split, and scores can differ.
	Sentences func(string) []string
}

// RougeLSumWith is RougeLSum with the given tokeniser and sentence splitter.
func RougeLSumWith(output, gold string, opt RougeOptions) Counts {
	tok := opt.Tokenize
	if tok == nil {
		tok = RougeTokens
	}
	split := opt.Sentences
	if split == nil {
		split = rougeLines
	}
	in := newInterner()
	sents := func(text string) [][]int32 {
		var out [][]int32
		for _, s := range split(text) {
			out = append(out, in.intern(nil, tok(s)))
		}
		return out
	}
	refs := sents(gold)
	cands := sents(output)
	return summaryLCS(refs, cands, in.size(), rowBudget)
}

// RougeTokens is rouge-score's tokenizer without stemming (tokenize.py):
// Python's lower(), every run of characters other than [a-z0-9] replaced by
// a space, split at spaces, empty tokens dropped. Only ASCII letters and
// digits survive (and the two non-ASCII characters that Python lowercases to
// ASCII, U+212A KELVIN SIGN to "k" and U+0130 to "i"): text in most other
// scripts has no ROUGE tokens at all.
func RougeTokens(s string) []string { return runs(pyLower(s), isRougeChar) }

// isRougeChar reports whether r is one of rouge-score's token characters,
// [a-z0-9].
func isRougeChar(r rune) bool { return 'a' <= r && r <= 'z' || '0' <= r && r <= '9' }

// rougeLines is rouge-score's get_sents with split_summaries=False.
func rougeLines(s string) []string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// summaryLCS is rouge-score's _summary_level_lcs over interned sentences,
// token ids below vocab; budget is the lcsTracer's row budget.
func summaryLCS(refs, cands [][]int32, vocab, budget int) Counts {
	m, n := 0, 0
	for _, r := range refs {
		m += len(r)
	}
	for _, c := range cands {
		n += len(c)
	}
	if m == 0 || n == 0 {
		return Counts{FP: n, FN: m}
	}

	// union[off[i]+p] marks position p of reference sentence i as being in
	// the union LCS of that sentence with the candidates.
	off := make([]int, len(refs))
	for i := 1; i < len(refs); i++ {
		off[i] = off[i-1] + len(refs[i-1])
	}
	union := make([]bool, m)

	t := lcsTracer{budget: budget}
	t.init(vocab)
	rows := make([]int32, 0, 64)
	orig := make([]int32, 0, 64)
	for ci, c := range cands {
		if len(c) == 0 {
			continue
		}
		t.setCandidate(c, int32(ci+1))
		for ri, r := range refs {
			// Reference tokens absent from c can never match, and dropping
			// them changes neither the LCS table's other rows nor the
			// backtracking (which always steps over such a row).
			rows, orig = rows[:0], orig[:0]
			for p, x := range r {
				if t.inCand(x) {
					rows = append(rows, x)
					orig = append(orig, int32(p))
				}
			}
			if len(rows) == 0 {
				continue
			}
			t.trace(rows, func(i int) { union[off[ri]+int(orig[i])] = true })
		}
	}

	cntR := make([]int32, vocab)
	cntC := make([]int32, vocab)
	for _, r := range refs {
		for _, x := range r {
			cntR[x]++
		}
	}
	for _, c := range cands {
		for _, x := range c {
			cntC[x]++
		}
	}
	hits := 0
	for ri, r := range refs {
		for p, x := range r {
			if union[off[ri]+p] && cntC[x] > 0 && cntR[x] > 0 {
				hits++
				cntC[x]--
				cntR[x]--
			}
		}
	}
	return Counts{TP: hits, FP: n - hits, FN: m - hits}
}

// lcsTracer finds, for a reference sequence and a candidate, the positions of
// the reference on the LCS that rouge-score's _backtrack_norec reads out of
// the full LCS table, without the quadratic table: the rows of the table are
// bit vectors (Allison-Dix / Hyyrö bit-parallel LCS), so a row of a
// candidate of b tokens takes b/64 words, and when all rows would not fit in
// budget words, only every K-th row is kept and the rows of one block are
// recomputed while the backtracking crosses it (K ≈ √rows).
type lcsTracer struct {
	budget int // words of rows kept before checkpointing

	// Candidate: tokens, and the positions of each of its symbols,
	// pos[start[k]:start[k+1]] for local symbol k = local[id] (valid when
	// stamp[id] is the candidate's stamp).
	cand         []int32
	stamp, local []int32
	cur          int32
	start, pos   []int32
	syms, fill   []int32

	w      int      // words per row
	v      []uint64 // working row
	mword  []uint64 // match mask being applied
	chk    []uint64 // checkpoint rows 0, K, 2K...
	block  []uint64 // rows s..s+K of the loaded block
	blockS int      // s, or -1
}

// rowBudget is the number of row words (8 MiB) above which the rows of one
// LCS table are checkpointed.
const rowBudget = 1 << 20

func (t *lcsTracer) init(vocab int) {
	t.stamp = make([]int32, vocab)
	t.local = make([]int32, vocab)
}

func (t *lcsTracer) inCand(x int32) bool { return t.stamp[x] == t.cur }

// setCandidate indexes c; stamp must differ from every earlier one and be
// non-zero.
func (t *lcsTracer) setCandidate(c []int32, stamp int32) {
	t.cand, t.cur = c, stamp
	t.syms = t.syms[:0]
	for _, x := range c {
		if t.stamp[x] != stamp {
			t.stamp[x] = stamp
			t.local[x] = int32(len(t.syms))
			t.syms = append(t.syms, x)
		}
	}
	k := len(t.syms)
	t.start = grow32(t.start, k+1)
	clear(t.start)
	for _, x := range c {
		t.start[t.local[x]+1]++
	}
	for s := 1; s <= k; s++ {
		t.start[s] += t.start[s-1]
	}
	t.pos = grow32(t.pos, len(c))
	t.fill = append(t.fill[:0], t.start[:k]...) // next free slot per symbol
	for j, x := range c {
		l := t.local[x]
		t.pos[t.fill[l]] = int32(j)
		t.fill[l]++
	}
	t.w = (len(c) + 63) / 64
	t.v = grow64(t.v, t.w)
	t.mword = grow64(t.mword, t.w)
	clear(t.mword)
}

// step applies reference token x (present in the candidate) to row v.
func (t *lcsTracer) step(v []uint64, x int32) {
	l := t.local[x]
	ps := t.pos[t.start[l]:t.start[l+1]]
	for _, p := range ps {
		t.mword[p>>6] |= 1 << (uint(p) & 63)
	}
	first := int(ps[0] >> 6)
	last := int(ps[len(ps)-1] >> 6)
	var carry uint64
	for k := first; k < len(v); k++ {
		if k > last && carry == 0 {
			break
		}
		vk := v[k]
		u := vk & t.mword[k]
		var sum uint64
		sum, carry = bits.Add64(vk, u, carry)
		v[k] = sum | (vk &^ u)
		t.mword[k] = 0
	}
}

// trace calls mark(i) for each position i of rows on rouge-score's LCS of
// rows and the current candidate, in decreasing order of i.
func (t *lcsTracer) trace(rows []int32, mark func(i int)) {
	a, b, w := len(rows), len(t.cand), t.w
	K := a
	if (a+1)*w > t.budget {
		K = int(math.Sqrt(float64(a))) + 1
	}
	// Forward pass: checkpoints, and the last block kept as it goes by.
	lastS := ((a - 1) / K) * K
	t.chk = grow64(t.chk, (a/K+1)*w)
	t.block = grow64(t.block, (K+1)*w)
	t.blockS = lastS
	v := t.v
	for k := range v {
		v[k] = ^uint64(0)
	}
	copy(t.chk[:w], v)
	if lastS == 0 {
		copy(t.block[:w], v)
	}
	for i := 1; i <= a; i++ {
		t.step(v, rows[i-1])
		if i%K == 0 {
			copy(t.chk[(i/K)*w:], v)
		}
		if i >= lastS {
			copy(t.block[(i-lastS)*w:], v)
		}
	}

	// Backtracking, as _backtrack_norec: at (i, j), take the match if
	// rows[i-1] == cand[j-1]; else go left if T[i][j-1] > T[i-1][j]; else up.
	// T[i][j] = j - popcount(row i, bits 0..j-1).
	i, j := a, b
	var ri, rim1 []uint64
	var ti, tim1 int
	load := func() {
		s := ((i - 1) / K) * K
		if s != t.blockS {
			t.loadBlock(rows, s, K)
		}
		ri = t.block[(i-s)*w : (i-s+1)*w]
		rim1 = t.block[(i-1-s)*w : (i-s)*w]
		ti = j - prefixOnes(ri, j)
		tim1 = j - prefixOnes(rim1, j)
	}
	load()
	for i > 0 && j > 0 {
		if rows[i-1] == t.cand[j-1] {
			mark(i - 1)
			i--
			j--
			if i > 0 && j > 0 {
				load()
			}
			continue
		}
		left := ti - inc(ri, j-1)
		if left > tim1 {
			tim1 -= inc(rim1, j-1)
			ti = left
			j--
		} else {
			i--
			if i > 0 {
				load()
			}
		}
	}
}

// loadBlock recomputes rows s..min(s+K, len(rows)) from checkpoint s.
func (t *lcsTracer) loadBlock(rows []int32, s, K int) {
	w := t.w
	v := t.v
	copy(v, t.chk[(s/K)*w:(s/K+1)*w])
	copy(t.block[:w], v)
	for i := s + 1; i <= s+K && i <= len(rows); i++ {
		t.step(v, rows[i-1])
		copy(t.block[(i-s)*w:], v)
	}
	t.blockS = s
}

// inc is T[row][k+1] - T[row][k]: 1 where bit k of the row is clear.
func inc(row []uint64, k int) int {
	return int(^row[k>>6]>>(uint(k)&63)) & 1
}

// prefixOnes counts the set bits of row among bits 0..j-1.
func prefixOnes(row []uint64, j int) int {
	n := 0
	full := j >> 6
	for _, x := range row[:full] {
		n += bits.OnesCount64(x)
	}
	if r := uint(j) & 63; r != 0 {
		n += bits.OnesCount64(row[full] & (1<<r - 1))
	}
	return n
}

func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

func grow64(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}
