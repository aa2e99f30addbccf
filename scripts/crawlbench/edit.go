package main

import (
	"html"
	"math/rand/v2"
	"strings"

	"github.com/sluice-project/sluice/textunit"
)

// The shared pages are fewer than the crawl's records, so each is used
// many times. So that two uses of one page are not near-duplicates of each
// other, every record's text has a share of its words (Han characters for
// Chinese) replaced by others drawn from the same page: at 15%, two uses
// share about a fifth of their 5-unit shingles, far below any threshold a
// near-duplicate filter would use, while the text keeps its language, its
// function words and its length. A planted copy takes its original's text
// as it was written and changes a few more units (one in a hundred, two
// to eight).

// texts returns the body's pieces as written for a record drawn by r:
// markup as it is, text with a share p of its units replaced.
func (s *source) texts(r *rand.Rand, p float64) []string {
	out := make([]string, len(s.body))
	for i, pc := range s.body {
		if !pc.text {
			out[i] = pc.s
			continue
		}
		out[i] = rewrite(pc.s, func(u textunit.Unit) string {
			if r.Float64() >= p {
				return u.Text
			}
			return s.replacement(r, u)
		})
	}
	return out
}

// replacement draws a unit of u's kind from the page; u itself for a
// number.
func (s *source) replacement(r *rand.Rand, u textunit.Unit) string {
	switch {
	case u.Kind == textunit.Word && len(s.words) > 0:
		return s.words[r.IntN(len(s.words))]
	case u.Kind == textunit.Char && len(s.chars) > 0:
		return s.chars[r.IntN(len(s.chars))]
	}
	return u.Text
}

// edit changes k units of the text pieces of texts (in place), at places
// drawn by r, and returns how many it changed.
func (s *source) edit(texts []string, r *rand.Rand, k int) int {
	n := 0
	for i, pc := range s.body {
		if pc.text {
			n += countUnits(texts[i])
		}
	}
	if n == 0 {
		return 0
	}
	k = min(k, n)
	at := map[int]bool{}
	for len(at) < k {
		at[r.IntN(n)] = true
	}
	seen, changed := 0, 0
	for i, pc := range s.body {
		if !pc.text {
			continue
		}
		texts[i] = rewrite(texts[i], func(u textunit.Unit) string {
			if u.Kind != textunit.Word && u.Kind != textunit.Char {
				return u.Text
			}
			seen++
			if !at[seen-1] {
				return u.Text
			}
			for range 8 { // a different unit, where the page has one
				if v := s.replacement(r, u); v != u.Text {
					changed++
					return v
				}
			}
			return u.Text
		})
	}
	return changed
}

// copyEdits is how many units a planted copy changes: one in a hundred,
// two to eight.
func copyEdits(units int) int { return min(max(units/100, 2), 8) }

func countUnits(text string) int {
	n := 0
	textunit.Units(text, func(u textunit.Unit) bool {
		if u.Kind == textunit.Word || u.Kind == textunit.Char {
			n++
		}
		return true
	})
	return n
}

// rewrite returns text with each unit replaced by fn's answer.
func rewrite(text string, fn func(u textunit.Unit) string) string {
	var b strings.Builder
	last := 0
	textunit.Units(text, func(u textunit.Unit) bool {
		if v := fn(u); v != u.Text {
			b.WriteString(text[last:u.Start])
			b.WriteString(v)
			last = u.Start + len(u.Text)
		}
		return true
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// bodyHTML joins the pieces, text escaped.
func (s *source) bodyHTML(texts []string) string {
	var b strings.Builder
	for i, pc := range s.body {
		if pc.text {
			b.WriteString(html.EscapeString(texts[i]))
		} else {
			b.WriteString(texts[i])
		}
	}
	return b.String()
}

// shingles returns the set of hashed 5-unit shingles of the text pieces
// (units lower-cased), as package corpus forms them.
func (s *source) shingles(texts []string) map[uint64]bool {
	var only []string
	for i, pc := range s.body {
		if pc.text {
			only = append(only, texts[i])
		}
	}
	return shingles(only...)
}

// shingles returns the set of hashed 5-unit shingles of texts, read as one
// text.
func shingles(texts ...string) map[uint64]bool {
	set := map[uint64]bool{}
	var ring [5]string
	n := 0
	for _, t := range texts {
		textunit.Units(t, func(u textunit.Unit) bool {
			ring[n%5] = strings.ToLower(u.Text)
			n++
			if n >= 5 {
				set[hashStrings(ring[n%5:], ring[:n%5])] = true
			}
			return true
		})
	}
	return set
}

func hashStrings(a, b []string) uint64 {
	h := uint64(14695981039346656037)
	for _, part := range [2][]string{a, b} {
		for _, s := range part {
			for i := 0; i < len(s); i++ {
				h ^= uint64(s[i])
				h *= 1099511628211
			}
			h ^= 0xff
			h *= 1099511628211
		}
	}
	return h
}

// jaccard is |a∩b| / |a∪b|.
func jaccard(a, b map[uint64]bool) float64 {
	inter := 0
	for k := range a {
		if b[k] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}
