package features

import (
	"github.com/sluice-project/sluice/page"
)

type groupInfo struct{ maxDiv, maxTd float64 }

// groupRatios sums the non-link words, characters and link characters of
// every div and td group into s.groups (a div group's sums at slot, a td
// group's at slot+1, slot taken from s.slot by node) and returns the
// largest ratios.
func (s *scratch) groupRatios(p *page.Page, nonLink float64) groupInfo {
	if cap(s.slot) < len(p.Nodes) {
		s.slot = make([]int32, len(p.Nodes))
		for i := range s.slot {
			s.slot[i] = -1
		}
	}
	s.slot = s.slot[:len(p.Nodes)]
	s.groups = s.groups[:0]
	for i := range p.Blocks {
		b := &p.Blocks[i]
		st := &s.stats[i]
		for k, gid := range [2]int32{b.DivGroup, b.TdGroup} {
			if gid < 0 || int(gid) >= len(s.slot) {
				continue
			}
			if s.slot[gid] < 0 {
				s.slot[gid] = int32(len(s.groups))
				s.groups = append(s.groups, groupSum{}, groupSum{})
			}
			gs := &s.groups[int(s.slot[gid])+k]
			gs.nonLink += st.nonLink
			gs.chars += float64(b.Chars)
			gs.linkChars += float64(b.LinkChars)
		}
	}
	var g groupInfo
	for i := 0; i < len(s.groups); i += 2 {
		g.maxDiv = max(g.maxDiv, safeDiv(s.groups[i].nonLink, nonLink))
		g.maxTd = max(g.maxTd, safeDiv(s.groups[i+1].nonLink, nonLink))
	}
	return g
}

// resetGroups clears the node slots used by the page, leaving s.slot all -1.
func (s *scratch) resetGroups(p *page.Page) {
	if len(s.groups) == 0 {
		return
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		for _, gid := range [2]int32{b.DivGroup, b.TdGroup} {
			if gid >= 0 && int(gid) < len(s.slot) {
				s.slot[gid] = -1
			}
		}
	}
	s.groups = s.groups[:0]
}
