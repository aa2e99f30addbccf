package features

import (
	"fmt"
	"strings"
)

// DefaultTemplate returns the CRF template used unless one is given: every
// attribute of the block itself; the attributes of the groups whose window
// is 1 or more (markup, split, sentence, bullet, class/id, filter, density
// and tree evidence) at the neighbours one block away, and of those whose
// window is 2 (split and filter evidence) two blocks away; and label
// transitions (Victor used a window of the same kind with CRF++).
func DefaultTemplate(e *Extractor) string {
	var near, far []string
	for _, g := range featureGroups {
		if g.window >= 1 {
			near = append(near, e.Keys(g.group)...)
		}
		if g.window >= 2 {
			far = append(far, e.Keys(g.group)...)
		}
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
