package train

import (
	"slices"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/label"
)

// stylesOf lists the styles other than label.MainStyle of examples,
// sorted.
func stylesOf(examples []Example) ([]string, error) {
	var styles []string
	for _, ex := range examples {
		s := label.NormStyle(ex.Style)
		if s == label.MainStyle || slices.Contains(styles, s) {
			continue
		}
		if err := label.CheckStyle(s); err != nil {
			return nil, err
		}
		styles = append(styles, s)
	}
	slices.Sort(styles)
	return styles, nil
}

// otherLabel is the CRF index of label "other".
func otherLabel() int { return slices.Index(label.Labels, "other") }

// blockCount is the number of blocks of seqs.
func blockCount(seqs []crf.Sequence) int {
	n := 0
	for _, s := range seqs {
		n += len(s.Labels)
	}
	return n
}
