package label

import (
	"fmt"
	"strings"
)

// DefaultTemplate returns the CRF template used unless one is given: every
// attribute of the block itself; the markup, split, density, link and
// filter evidence of the neighbours one block away; the split and filter
// evidence two blocks away; and label transitions (Victor used a window of
// the same kind with CRF++).
func DefaultTemplate(e *Extractor) string {
	var near, far []string
	for _, g := range []Group{Container, Split, Density, FilterScore, ClassID, Sentence, Bullet, Boost} {
		near = append(near, e.Keys(g)...)
	}
	for _, g := range []Group{Split, FilterScore} {
		far = append(far, e.Keys(g)...)
	}
	var sb strings.Builder
	sb.WriteString("U[0]\n")
	if len(near) > 0 {
		fmt.Fprintf(&sb, "U[-1]:%s\nU[1]:%s\n", strings.Join(near, ","), strings.Join(near, ","))
	}
	if len(far) > 0 {
		fmt.Fprintf(&sb, "U[-2]:%s\nU[2]:%s\n", strings.Join(far, ","), strings.Join(far, ","))
	}
	sb.WriteString("B\n")
	return sb.String()
}
