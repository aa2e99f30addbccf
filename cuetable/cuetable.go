// Package cuetable learns tables of cues from labelled pages: for each
// token a block can carry (a class/id token of the elements around it, a
// word of its text), the log-odds that a block carrying it is content,
// relative to the average page, estimated by site votes so that one
// site's template says nothing on its own. Package features reads the
// tables (its learnedcues and textcues groups); sluice train fills them.
package cuetable

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// Tokens appends to dst the distinct tokens of block b of p.
type Tokens func(p *page.Page, b int, dst []string) []string

// Sample is one labelled page for Learn: its blocks, which of them
// are content, and its group (its site), by which the evidence is counted.
type Sample struct {
	Page    *page.Page
	Content []bool
	Group   string
}

// Options tunes Learn; the zero value gives the defaults.
type Options struct {
	// MinSites is the fewest groups (sites) a token must appear on to
	// enter the table (default 3): a token of one site's template says
	// nothing about other sites.
	MinSites int
	// Prior is how many groups' worth of the average content share each
	// token's estimate starts from (default 2).
	Prior float64
	// MaxTokens caps the table, keeping the tokens seen on the most
	// groups (default 20,000).
	MaxTokens int
}

// Learn estimates a table of learned cues from labelled pages, with tokens
// giving the tokens of a block (distinct ones, appended to dst). For a
// token, each group (site) whose pages carry it gives one vote: the share
// of the words under its elements that are content, over that group's
// pages. The votes' mean, shrunk toward the mean content share of all
// groups by Prior groups' worth of it, is the token's content share; its
// value is that share's log-odds minus the average's. Words are
// page.Block.Words, which count every script. Tokens of fewer than
// MinSites groups are left out. Samples with no group count as a group
// each.
func Learn(samples []Sample, opts Options, tokens Tokens) map[string]float32 {
	cc := countCues(samples, tokens)
	avg, ok := cc.average()
	if !ok {
		return nil
	}
	return cc.table(avg, opts)
}

// cueCounts are the content words and words (in that order) of each group,
// and of each token in each group.
type cueCounts struct {
	groups map[string]*[2]float64
	tokens map[string]map[string]*[2]float64
}

// countCues counts the words of the samples' blocks, and of the blocks
// with each token, per group.
func countCues(samples []Sample, tokens Tokens) cueCounts {
	cc := cueCounts{groups: map[string]*[2]float64{}, tokens: map[string]map[string]*[2]float64{}}
	add := func(m map[string]*[2]float64, g string, c, w float64) {
		s := m[g]
		if s == nil {
			s = new([2]float64)
			m[g] = s
		}
		s[0] += c
		s[1] += w
	}
	var toks []string
	for k, smp := range samples {
		g := smp.Group
		if g == "" {
			g = fmt.Sprintf("#%d", k)
		}
		for i := range smp.Page.Blocks {
			b := &smp.Page.Blocks[i]
			w := float64(b.Words)
			if w <= 0 || i >= len(smp.Content) {
				continue
			}
			c := 0.0
			if smp.Content[i] {
				c = w
			}
			add(cc.groups, g, c, w)
			toks = tokens(smp.Page, i, toks[:0])
			for _, t := range toks {
				if cc.tokens[t] == nil {
					cc.tokens[t] = map[string]*[2]float64{}
				}
				add(cc.tokens[t], g, c, w)
			}
		}
	}
	return cc
}

// average is the mean over the groups with words of their content share;
// ok is false when there is none. Groups are summed in sorted order, so
// that the table is the same from run to run.
func (cc cueCounts) average() (avg float64, ok bool) {
	n := 0
	for _, g := range slices.Sorted(maps.Keys(cc.groups)) {
		if s := cc.groups[g]; s[1] > 0 {
			avg += s[0] / s[1]
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return avg / float64(n), true
}

// table turns the counts into Learn's table.
func (cc cueCounts) table(avg float64, opts Options) map[string]float32 {
	minSites := cmp.Or(opts.MinSites, 3)
	prior := cmp.Or(opts.Prior, 2)
	maxTokens := cmp.Or(opts.MaxTokens, 20000)
	type entry struct {
		tok string
		n   int
		val float32
	}
	var out []entry
	for tok, byGroup := range cc.tokens {
		if len(byGroup) < minSites {
			continue
		}
		votes := 0.0
		for _, g := range slices.Sorted(maps.Keys(byGroup)) {
			votes += byGroup[g][0] / byGroup[g][1]
		}
		share := (votes + prior*avg) / (float64(len(byGroup)) + prior)
		out = append(out, entry{tok, len(byGroup), float32(logit(share) - logit(avg))})
	}
	slices.SortFunc(out, func(a, b entry) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.tok, b.tok)) })
	table := make(map[string]float32, min(len(out), maxTokens))
	for _, e := range out[:min(len(out), maxTokens)] {
		table[e.tok] = e.val
	}
	return table
}

// logit is the log-odds of p, kept within 1% of 0 and 1.
func logit(p float64) float64 {
	p = min(max(p, 0.01), 0.99)
	return math.Log(p / (1 - p))
}

// TextTokens calls fn with each of the first limit tokens of text: its
// Word units (textunit) of two letters or more and its pairs of
// neighbouring Char units (a lone one alone), lower-cased into buf, with
// its place among the units (1 for the first); numbers and one-letter
// words are skipped but counted. tok is only valid during the call. It
// returns buf, to be reused.
func TextTokens(text string, limit int, buf []byte, fn func(tok []byte, unit int)) []byte {
	n := 0
	textunit.Bigrams(text, func(u textunit.Unit) bool {
		n++
		if u.Kind == textunit.Number || u.Kind == textunit.Word && utf8.RuneCountInString(u.Text) < 2 {
			return n < limit
		}
		buf = lowerInto(buf[:0], u.Text)
		fn(buf, n)
		return n < limit
	})
	return buf
}

// TextTokenHashes calls fn with the hash (TokenHash) and the place of
// each of TextTokens' tokens of text, the first limit ones. It reads an
// ASCII text in one loop, each token lower-cased and hashed as it is
// read, where TextTokens calls through the units and copies each token;
// buf is scratch for other texts, returned for reuse.
func TextTokenHashes(text string, limit int, buf []byte, fn func(h uint64, unit int)) []byte {
	if !textunit.IsASCII(text) {
		return TextTokens(text, limit, buf, func(tok []byte, unit int) { fn(TokenHash(tok), unit) })
	}
	n := 0
	for i := 0; ; {
		start, end, k := textunit.NextASCII(text, i)
		if start == len(text) {
			break
		}
		i = end
		n++
		if k != textunit.Number && end-start >= 2 { // as TextTokens skips them
			h := uint64(fnvOffset)
			for j := start; j < end; j++ {
				c := text[j]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				h = (h ^ uint64(c)) * fnvPrime
			}
			fn(h, n)
		}
		if n >= limit {
			break
		}
	}
	return buf
}

// The FNV-1a hash's constants (64 bits).
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// TokenHash is tok's FNV-1a hash, the key by which the extractor looks a
// token up in its cue tables.
func TokenHash(tok []byte) uint64 {
	v := uint64(fnvOffset)
	for _, c := range tok {
		v = (v ^ uint64(c)) * fnvPrime
	}
	return v
}

// lowerInto appends s lower-cased to buf.
func lowerInto(buf []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		buf = utf8.AppendRune(buf, unicode.ToLower(r))
		i += size
	}
	return buf
}
