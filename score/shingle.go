package score

// ShingleSize is the shingle length of the Zyte (Scrapinghub) article
// extraction benchmark.
const ShingleSize = 4

// Shingles scores output against gold with the 4-word-shingle measure of the
// Zyte (formerly Scrapinghub) article extraction benchmark
// (github.com/scrapinghub/article-extraction-benchmark, evaluate.py,
// string_shingle_matching with ngram_n=4). Its definition, which this
// reproduces:
//
//   - Tokens are re.findall(r'\w+', text), case kept (WordTokens; the
//     benchmark's IGNORECASE flag does not change what \w+ matches).
//   - The shingles of a text are its n-grams of consecutive tokens
//     tokens[i:i+n] for i in range(max(1, len(tokens)-n+1)), empty ones
//     dropped: a text of 1 to n-1 tokens has exactly one, shorter, shingle
//     (all its tokens); a text with no token has none.
//   - Shingles are counted as multisets: for every shingle,
//     TP += min(true, pred), FP += max(0, pred-true), FN += max(0, true-pred).
//
// The benchmark then divides TP, FP and FN by their sum "so that longer texts
// do not have more weight"; that scaling changes no per-page precision or
// recall, so the integer counts are returned. Its corpus figures are not
// means of per-page F1: precision is averaged over the pages with TP+FP > 0,
// recall over those with TP+FN > 0, and F1 is the harmonic mean of those two
// means; Summary.MacroDefined computes exactly that.
//
// Every Han, kana, Thai... character is a token of its own (WordTokensCJK),
// so that a shingle there is 4 characters; ShinglesAs with CJKRuns is the
// benchmark's measure exactly.
func Shingles(output, gold string) Counts {
	return ShinglesAs(output, gold, ShingleSize, CJKChars)
}

// ShinglesN is Shingles with shingles of n tokens (n >= 1; it panics
// otherwise).
func ShinglesN(output, gold string, n int) Counts { return ShinglesAs(output, gold, n, CJKChars) }

// ShinglesAs is ShinglesN with the given tokenisation of the scripts
// written without spaces.
func ShinglesAs(output, gold string, n int, cjk CJK) Counts {
	if n < 1 {
		panic("score: shingle size must be at least 1")
	}
	in := newInterner()
	a := in.intern(nil, cjk.cut(WordTokens(output)))
	b := in.intern(nil, cjk.cut(WordTokens(gold)))
	sh := shingler{next: int32(in.size())}
	sa := sh.shingles(a, n)
	sb := sh.shingles(b, n)
	return multisetOverlap(sa, sb, int(sh.next))
}

// shingler gives each distinct sequence of token ids a single id: the
// sequence t1..tk (k >= 2) is the pair (id of t1..tk-1, tk). Ids of
// sequences are allocated from next upward, above all token ids, and one id
// names one sequence of one length, so ids of different lengths never
// collide.
type shingler struct {
	pairs map[[2]int32]int32
	next  int32
}

func (s *shingler) pair(prefix, tok int32) int32 {
	if s.pairs == nil {
		s.pairs = make(map[[2]int32]int32)
	}
	k := [2]int32{prefix, tok}
	if id, ok := s.pairs[k]; ok {
		return id
	}
	id := s.next
	s.next++
	s.pairs[k] = id
	return id
}

// shingles returns the ids of the shingles of toks, in the benchmark's
// order.
func (s *shingler) shingles(toks []int32, n int) []int32 {
	if len(toks) == 0 {
		return nil
	}
	if len(toks) < n {
		id := toks[0]
		for _, t := range toks[1:] {
			id = s.pair(id, t)
		}
		return []int32{id}
	}
	// Level k holds the ids of the k-grams starting at each position; build
	// level n from level 1 in place.
	cur := append([]int32(nil), toks...)
	for k := 2; k <= n; k++ {
		for i := 0; i+k <= len(toks); i++ {
			cur[i] = s.pair(cur[i], toks[i+k-1])
		}
	}
	return cur[:len(toks)-n+1]
}

// multisetOverlap returns the multiset intersection counts of the id
// sequences out and gold, all ids being below size.
func multisetOverlap(out, gold []int32, size int) Counts {
	left := make([]int32, size)
	for _, id := range gold {
		left[id]++
	}
	tp := 0
	for _, id := range out {
		if left[id] > 0 {
			left[id]--
			tp++
		}
	}
	return Counts{TP: tp, FP: len(out) - tp, FN: len(gold) - tp}
}
