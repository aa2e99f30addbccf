package features

import (
	"github.com/sluice-project/sluice/bullet"
	"github.com/sluice-project/sluice/crf"
)

// Bullet: "bullet=dot|dash|star|arrow|num|section|alpha|roman": the text
// starts like a list item (•, -, *, », "1.", "a)", "iv.") or a numbered
// section heading ("3.4 "); see package bullet.
const Bullet Group = "bullet"

var bulletGroup = groupSpec{
	group:  Bullet,
	keys:   []string{"bullet"},
	size:   [2]int{0, 1},
	window: 1,
	emit: func(_ *Extractor, s *scratch, i int, _ []*Bucket, dst []crf.Attr) []crf.Attr {
		if k := bullet.Of(s.p.Blocks[i].Text); k != bullet.None {
			dst = append(dst, crf.Attr{Name: bullet.Names[k]})
		}
		return dst
	},
}
