package features

import "github.com/sluice-project/sluice/crf"

// ClassID: cues found in the class and id attributes of the nearest four
// elements around the block that have one: "cls=nav", "cls=comment"...,
// and "cls0=nav" for the cues of the innermost element that has any
// (cues.go).
const ClassID Group = "classid"

var classIDGroup = groupSpec{
	group:  ClassID,
	keys:   []string{"cls", "cls0"},
	size:   [2]int{3, 64 * 2},
	window: 1,
	needs:  passNodes,
	emit: func(_ *Extractor, s *scratch, i int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		all, inner := s.classCues(s.p, s.p.Blocks[i].Node)
		dst = appendBits(dst, all, cueAttrs)
		return appendBits(dst, inner, cue0Attrs)
	},
}

// appendBits appends names[bit] for every bit set in m, lowest first.
func appendBits(dst []crf.Attr, m uint64, names []string) []crf.Attr {
	for m != 0 {
		bit := trailingZeros(m)
		m &^= 1 << bit
		dst = append(dst, crf.Attr{Name: names[bit]})
	}
	return dst
}
