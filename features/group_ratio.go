package features

import "github.com/sluice-project/sluice/crf"

// GroupRatio: Victor's div-group and td-group word ratios (section 4.2) and
// document.max-div-group / max-td-group (4.3). "div.ratio=R": the non-link
// words of the block's div group as a share of the page's; "div.link=R":
// the group's link quota; "div.max=R": the largest div group ratio of the
// page; "div.rel=R": the group's ratio over that maximum. The same with
// "td." for table cells ("td.max" always, the others only for blocks in a
// cell). The sums are groups.go's.
const GroupRatio Group = "group"

// Indices of GroupRatio's buckets.
const (
	gDivRatio = iota
	gDivLink
	gDivMax
	gDivRel
	gTdRatio
	gTdLink
	gTdMax
	gTdRel
)

var groupRatioGroup = groupSpec{
	group: GroupRatio,
	keys:  []string{"div.ratio", "div.link", "div.max", "div.rel", "td.ratio", "td.link", "td.max", "td.rel"},
	buckets: []bucketDef{
		gDivRatio: {"div.ratio", groupR}, gDivLink: {"div.link", ratio10}, gDivMax: {"div.max", groupR}, gDivRel: {"div.rel", relR},
		gTdRatio: {"td.ratio", groupR}, gTdLink: {"td.link", ratio10}, gTdMax: {"td.max", groupR}, gTdRel: {"td.rel", relR},
	},
	size:  [2]int{6, 8},
	needs: passGroups,
	page: func(s *scratch, bk []*Bucket) {
		s.divMax, s.tdMax = bk[gDivMax].Name(s.g.maxDiv), bk[gTdMax].Name(s.g.maxTd)
	},
	emit: func(_ *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr {
		b := &s.p.Blocks[i]
		dst = appendGroupRatio(dst, s.groupOf(b, false), s.nonLink, s.g.maxDiv, bk[gDivRatio:gDivRel+1])
		dst = append(dst, crf.Attr{Name: s.divMax})
		dst = appendGroupRatio(dst, s.groupOf(b, true), s.nonLink, s.g.maxTd, bk[gTdRatio:gTdRel+1])
		return append(dst, crf.Attr{Name: s.tdMax})
	},
}

// appendGroupRatio appends the ratio, link and relative ratio attributes
// of a group (none when gs is nil); bk are the ratio, link, max and
// relative buckets.
func appendGroupRatio(dst []crf.Attr, gs *groupSum, nonLink, maxRatio float64, bk []*Bucket) []crf.Attr {
	if gs == nil {
		return dst
	}
	ratio := safeDiv(gs.nonLink, nonLink)
	return append(dst,
		crf.Attr{Name: bk[0].Name(ratio)},
		crf.Attr{Name: bk[1].Name(safeDiv(gs.linkChars, gs.chars))},
		crf.Attr{Name: bk[3].Name(safeDiv(ratio, maxRatio))})
}
