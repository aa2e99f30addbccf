package main

import (
	"strings"
	"unicode"

	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
)

// teasers drops, in the main style, a block of at least min words whose
// words begin a longer block of the page (a teaser cut from a paragraph:
// "The river rose two metres overnight and…"), the last word allowed to
// be cut; with levels above 0, only when the two elements are that many
// levels or more below the element holding both.
func teasers(min, levels int) func(p *page.Page, style string, marg [][]float64, other int) {
	return func(p *page.Page, style string, marg [][]float64, other int) {
		if style != label.MainStyle {
			return
		}
		words := make([][]string, len(p.Blocks))
		groups := map[string][]int{}
		for i := range p.Blocks {
			if int(p.Blocks[i].Words) < min {
				continue
			}
			w := strings.FieldsFunc(strings.ToLower(p.Blocks[i].Text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
			if len(w) < min {
				continue
			}
			words[i] = w
			k := strings.Join(w[:min-1], " ")
			groups[k] = append(groups[k], i)
		}
		for _, g := range groups {
			if len(g) < 2 {
				continue
			}
			for _, s := range g {
				for _, l := range g {
					if s == l || len(words[s]) >= len(words[l]) || !isPrefix(words[s], words[l]) {
						continue
					}
					if levels > 0 {
						up, _, lca := p.CommonAncestor(p.Blocks[s].Node, p.Blocks[l].Node)
						if lca < 0 || up < int32(levels) {
							continue
						}
					}
					dropBlock(marg[s], other)
					break
				}
			}
		}
	}
}

// isPrefix reports whether s begins l, its last word perhaps cut.
func isPrefix(s, l []string) bool {
	for i, w := range s {
		if w != l[i] && !(i == len(s)-1 && strings.HasPrefix(l[i], w)) {
			return false
		}
	}
	return true
}
