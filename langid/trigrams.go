package langid

import (
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
	_ "unsafe" // for go:linkname

	"github.com/abadojack/whatlanggo"
)

// The trigram profiles of whatlanggo's languages, by script: for each
// language its 300 most frequent trigrams, most frequent first. They are
// read from the library itself (it does not export them), so the verdicts
// are its own; TestTrigramsAgreeWithWhatlanggo holds them equal. A newer
// whatlanggo that renamed these variables would fail to link; one that
// changed their type would fail that test (go.mod pins v1.0.1, of March
// 2019).
var (
	//go:linkname latinProfiles github.com/abadojack/whatlanggo.latinLangs
	latinProfiles map[whatlanggo.Lang][]string
	//go:linkname cyrillicProfiles github.com/abadojack/whatlanggo.cyrillicLangs
	cyrillicProfiles map[whatlanggo.Lang][]string
	//go:linkname arabicProfiles github.com/abadojack/whatlanggo.arabicLangs
	arabicProfiles map[whatlanggo.Lang][]string
	//go:linkname devanagariProfiles github.com/abadojack/whatlanggo.devanagariLangs
	devanagariProfiles map[whatlanggo.Lang][]string
	//go:linkname ethiopicProfiles github.com/abadojack/whatlanggo.ethiopicLangs
	ethiopicProfiles map[whatlanggo.Lang][]string
	//go:linkname hebrewProfiles github.com/abadojack/whatlanggo.hebrewLangs
	hebrewProfiles map[whatlanggo.Lang][]string
)

// whatlanggo's constants: the distance a trigram of a profile adds when
// the text lacks it, and the most a profile's distance can be.
const (
	missingTrigram = 300
	maxDistance    = 90000
)

// trigramKey packs three runes (21 bits each) into one number whose order
// is the order of the trigrams' UTF-8 strings, which whatlanggo's ranking
// breaks ties by.
type trigramKey uint64

func keyOf(a, b, c rune) trigramKey {
	return trigramKey(a)<<42 | trigramKey(b)<<21 | trigramKey(c)
}

// rank is one place of a trigram in a profile: the candidate (an index
// into profileIndex.langs) and the trigram's rank there.
type rank struct {
	lang, pos uint16
}

// profileIndex is one script's profiles inverted: for each trigram the
// candidates whose profile holds it, and where. Detecting then costs a
// lookup per distinct trigram of the text rather than one per trigram of
// every profile.
type profileIndex struct {
	langs []whatlanggo.Lang // the candidates, in Lang order
	base  []int             // each candidate's distance when the text shares no trigram with it
	// An open-addressing table of the profiles' trigrams: slot i holds
	// keys[i] (0 when empty: no trigram packs to 0) and its ranks,
	// ranks[from[i]:from[i+1]].
	keys  []trigramKey
	from  []int32
	ranks []rank
}

func newProfileIndex(profiles map[whatlanggo.Lang][]string, allowed map[whatlanggo.Lang]bool) *profileIndex {
	ix := &profileIndex{}
	for l := range profiles {
		if allowed[l] {
			ix.langs = append(ix.langs, l)
		}
	}
	slices.Sort(ix.langs)
	byKey := map[trigramKey][]rank{}
	for li, l := range ix.langs {
		ix.base = append(ix.base, missingTrigram*len(profiles[l]))
		for pos, tg := range profiles[l] {
			r := []rune(tg)
			if len(r) != 3 {
				continue // never in whatlanggo v1.0.1; such an entry matches no text trigram
			}
			k := keyOf(r[0], r[1], r[2])
			byKey[k] = append(byKey[k], rank{uint16(li), uint16(pos)})
		}
	}
	size := 16
	for size < 2*len(byKey) {
		size *= 2
	}
	ix.keys = make([]trigramKey, size)
	ix.from = make([]int32, size+1)
	at := make([][]rank, size)
	for k, rs := range byKey {
		i := ix.slot(k)
		ix.keys[i], at[i] = k, rs
	}
	for i, rs := range at {
		ix.from[i] = int32(len(ix.ranks))
		ix.ranks = append(ix.ranks, rs...)
	}
	ix.from[size] = int32(len(ix.ranks))
	return ix
}

// slot returns the slot that holds k, or the empty one where it would go.
func (ix *profileIndex) slot(k trigramKey) int {
	mask := len(ix.keys) - 1
	i := hashSlot(k, mask)
	for ix.keys[i] != 0 && ix.keys[i] != k {
		i = (i + 1) & mask
	}
	return i
}

// ranksOf returns where k stands in the candidates' profiles.
func (ix *profileIndex) ranksOf(k trigramKey) []rank {
	i := ix.slot(k)
	return ix.ranks[ix.from[i]:ix.from[i+1]]
}

func hashSlot(k trigramKey, mask int) int {
	return int((uint64(k)*0x9E3779B97F4A7C15)>>40) & mask
}

// indexes are the scripts' inverted profiles, restricted to webLanguages,
// built on first use.
var indexes = sync.OnceValue(func() map[*unicode.RangeTable]*profileIndex {
	allowed := webLanguages.Whitelist
	return map[*unicode.RangeTable]*profileIndex{
		unicode.Latin:      newProfileIndex(latinProfiles, allowed),
		unicode.Cyrillic:   newProfileIndex(cyrillicProfiles, allowed),
		unicode.Arabic:     newProfileIndex(arabicProfiles, allowed),
		unicode.Devanagari: newProfileIndex(devanagariProfiles, allowed),
		unicode.Ethiopic:   newProfileIndex(ethiopicProfiles, allowed),
		unicode.Hebrew:     newProfileIndex(hebrewProfiles, allowed),
	}
})

// detectTrigrams gives whatlanggo.DetectWithOptions(text, webLanguages)'s
// language and confidence, computed from the same profiles without a
// string per trigram or a map lookup per profile trigram. Where two
// candidates are at the same distance whatlanggo's choice depends on map
// order; here the lower Lang wins, so the answer is the same every time.
func detectTrigrams(text string) (whatlanggo.Lang, float64) {
	ranked, latin := rankTrigrams(text)
	script := unicode.Latin
	if !latin {
		script = whatlanggo.DetectScript(text)
	}
	ix := indexes()[script]
	if ix == nil {
		info := whatlanggo.DetectWithOptions(text, webLanguages)
		return info.Lang, info.Confidence
	}
	switch len(ix.langs) {
	case 0:
		return -1, 0
	case 1:
		return ix.langs[0], 1
	}
	dist := slices.Clone(ix.base)
	for pos, k := range ranked {
		for _, r := range ix.ranksOf(k) {
			d := pos - int(r.pos)
			if d < 0 {
				d = -d
			}
			dist[r.lang] += d - missingTrigram
		}
	}
	return confidence(ix.langs, dist, len(ranked))
}

// rankTrigrams returns the distinct trigrams of text, most frequent first
// and, at equal counts, the greater first: whatlanggo's ranking. Each
// character is lower-cased; digits, punctuation, symbols and spaces are
// a space, and a trigram whose middle is a space and that begins or ends
// with one is not counted. latin reports that text has a character that
// is not a space and that all such characters are Latin letters, which
// is when whatlanggo.DetectScript says Latin without being asked.
func rankTrigrams(text string) (ranked []trigramKey, latin bool) {
	counts := getCounter(len(text) + 1)
	defer putCounter(counts)
	latin = true
	any := false
	r1, r2 := ' ', rune(-1)
	for _, r := range text {
		var stop bool
		if r < utf8.RuneSelf {
			stop = asciiStop[r]
			if !stop && r >= 'A' && r <= 'Z' {
				r += 'a' - 'A'
			}
			latin = latin && (stop || 'a' <= r && r <= 'z')
		} else {
			stop = isStop(r)
			latin = latin && (stop || unicode.Is(unicode.Latin, r))
			r = unicode.ToLower(r)
		}
		if stop {
			r = ' '
		}
		any = any || !stop
		if r2 < 0 {
			r2 = r
			continue
		}
		if r2 != ' ' || (r1 != ' ' && r != ' ') {
			counts.add(keyOf(r1, r2, r))
		}
		r1, r2 = r2, r
	}
	if r2 < 0 {
		return nil, false
	}
	if r2 != ' ' {
		counts.add(keyOf(r1, r2, ' '))
	}
	return counts.ranked(), latin && any
}

// isStop is whatlanggo's test for a character that counts as a space:
// a symbol, a space, punctuation or a digit.
func isStop(r rune) bool {
	return unicode.IsSymbol(r) || unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsDigit(r)
}

// asciiStop is isStop for the ASCII characters.
var asciiStop = func() (t [utf8.RuneSelf]bool) {
	for r := range t {
		t[r] = isStop(rune(r))
	}
	return t
}()

// counter counts trigrams in an open-addressing table: at most n
// distinct keys, in twice as many slots or more.
type counter struct {
	keys   []trigramKey
	counts []int32
	used   []int32 // the slots in use, in the order they were taken
}

// counters keeps the counters of a sample's size for reuse: a page's
// blocks are told one after another.
var counters = sync.Pool{New: func() any { return newCounter(SampleBytes + 1) }}

// getCounter returns an empty counter for n keys, from the pool when n is
// a sample's size or less.
func getCounter(n int) *counter {
	if n > SampleBytes+1 {
		return newCounter(n)
	}
	return counters.Get().(*counter)
}

// putCounter empties c and gives it back to the pool when it is of the
// pool's size.
func putCounter(c *counter) {
	if cap(c.used) != SampleBytes+1 {
		return
	}
	for _, i := range c.used {
		c.counts[i] = 0
	}
	c.used = c.used[:0]
	counters.Put(c)
}

func newCounter(n int) *counter {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return &counter{keys: make([]trigramKey, size), counts: make([]int32, size), used: make([]int32, 0, n)}
}

// slot returns the slot that holds k, or the empty one where it would go.
func (c *counter) slot(k trigramKey) int {
	mask := len(c.keys) - 1
	i := hashSlot(k, mask)
	for c.counts[i] != 0 && c.keys[i] != k {
		i = (i + 1) & mask
	}
	return i
}

func (c *counter) add(k trigramKey) {
	i := c.slot(k)
	if c.counts[i] == 0 {
		c.keys[i] = k
		c.used = append(c.used, int32(i))
	}
	c.counts[i]++
}

// ranked returns the keys by count, then key, both descending.
func (c *counter) ranked() []trigramKey {
	keys := make([]trigramKey, len(c.used))
	most := int32(0)
	for j, i := range c.used {
		keys[j] = c.keys[i]
		most = max(most, c.counts[i])
	}
	slices.Sort(keys)
	// A counting sort by count, descending, over the keys taken in
	// descending order, keeps the keys of one count descending.
	start := make([]int, most+2)
	for _, i := range c.used {
		start[most-c.counts[i]+1]++
	}
	for n := 1; n < len(start); n++ {
		start[n] += start[n-1]
	}
	out := make([]trigramKey, len(keys))
	for j := len(keys) - 1; j >= 0; j-- {
		b := most - c.counts[c.slot(keys[j])]
		out[start[b]] = keys[j]
		start[b]++
	}
	return out
}

// confidence is whatlanggo's: the nearest candidate, and how far ahead of
// the second it is, against a rate that falls with the text's number of
// distinct trigrams.
func confidence(langs []whatlanggo.Lang, dist []int, distinct int) (whatlanggo.Lang, float64) {
	first, second := -1, -1
	for i, d := range dist {
		switch {
		case first < 0 || d < dist[first]:
			first, second = i, first
		case second < 0 || d < dist[second]:
			second = i
		}
	}
	score1, score2 := maxDistance-dist[first], maxDistance-dist[second]
	switch {
	case score1 == 0:
		return -1, 0
	case score2 == 0:
		// whatlanggo divides as integers here.
		return langs[first], min(float64(score1/500), 1)
	}
	rate := float64(score1-score2) / float64(score2)
	confident := 12.0/float64(distinct) + 0.05
	if rate > confident {
		return langs[first], 1
	}
	return langs[first], rate / confident
}
