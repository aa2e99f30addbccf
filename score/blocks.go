package score

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// This file scores block labelling as the Victor report does (Marek,
// Pecina and Spousta, "Web page cleaning with conditional random fields",
// 2007; chapter 5, "Data and Evaluation"): "labeling accuracy — the ratio of
// correctly assigned block labels (1) from the full label set and (2)
// distinguishing only between content and noisy blocks". Content is any
// label but Other. Their Table 6.1 reports 74.45 to 75.09 (full set) and
// 82.60 to 83.09 (content vs noise) on the development data.

// Confusion is a confusion matrix of block labels: how many blocks of each
// gold label were given each predicted label. The zero value is an empty
// matrix, ready to use; it always covers the five labels of package page and
// grows for any larger label value it is given.
type Confusion struct {
	n     int   // labels 0..n-1
	cells []int // cells[gold*n+pred]
}

// numLabels is the number of labels package page defines.
const numLabels = int(page.Continuation) + 1

// CompareLabels returns the confusion matrix of predicted against gold
// labels, position by position. It fails when the sequences differ in
// length, which means they do not label the same blocks.
func CompareLabels[L ~uint8](pred, gold []L) (*Confusion, error) {
	if len(pred) != len(gold) {
		return nil, fmt.Errorf("score: %d predicted labels for %d gold labels: the sequences must label the same blocks", len(pred), len(gold))
	}
	c := new(Confusion)
	for i := range pred {
		c.Add(page.Label(gold[i]), page.Label(pred[i]))
	}
	return c, nil
}

// Add counts one block with the given gold and predicted labels.
func (c *Confusion) Add(gold, pred page.Label) {
	c.ensure(max(int(gold), int(pred)) + 1)
	c.cells[int(gold)*c.n+int(pred)]++
}

// Merge adds the counts of d to c (to pool pages or folds).
func (c *Confusion) Merge(d *Confusion) {
	c.ensure(d.n)
	for g := 0; g < d.n; g++ {
		for p := 0; p < d.n; p++ {
			c.cells[g*c.n+p] += d.cells[g*d.n+p]
		}
	}
}

// ensure makes the matrix at least n by n (and at least numLabels).
func (c *Confusion) ensure(n int) {
	n = max(n, numLabels)
	if n <= c.n {
		return
	}
	cells := make([]int, n*n)
	for g := 0; g < c.n; g++ {
		copy(cells[g*n:g*n+c.n], c.cells[g*c.n:(g+1)*c.n])
	}
	c.n, c.cells = n, cells
}

// Count is the number of blocks with gold label gold predicted as pred.
func (c Confusion) Count(gold, pred page.Label) int {
	if int(gold) >= c.n || int(pred) >= c.n {
		return 0
	}
	return c.cells[int(gold)*c.n+int(pred)]
}

// Total is the number of blocks counted.
func (c Confusion) Total() int {
	t := 0
	for _, x := range c.cells {
		t += x
	}
	return t
}

// Correct is the number of blocks whose predicted label is the gold one.
func (c Confusion) Correct() int {
	t := 0
	for l := 0; l < c.n; l++ {
		t += c.cells[l*c.n+l]
	}
	return t
}

// Accuracy is Victor's labelling accuracy over the full label set: the share
// of blocks whose predicted label is the gold label. It is 1 when no block
// was counted (nothing was mislabelled), as Counts scores empty pages.
func (c Confusion) Accuracy() float64 {
	return ratio(c.Correct(), c.Total())
}

// ContentAccuracy is Victor's content-vs-noise accuracy: the share of blocks
// whose prediction is right about being content (any label but Other) or
// noise (Other), whatever the content label. 1 when no block was counted.
func (c Confusion) ContentAccuracy() float64 {
	k := c.ContentCounts()
	total := c.Total()
	tn := total - k.TP - k.FP - k.FN
	return ratio(k.TP+tn, total)
}

// ContentCounts treats content (any label but Other) as the positive class:
// TP counts content blocks predicted as content, FP noise predicted as
// content, FN content predicted as noise.
func (c Confusion) ContentCounts() Counts {
	var k Counts
	for g := 0; g < c.n; g++ {
		for p := 0; p < c.n; p++ {
			x := c.cells[g*c.n+p]
			gc, pc := g != int(page.Other), p != int(page.Other)
			switch {
			case gc && pc:
				k.TP += x
			case pc:
				k.FP += x
			case gc:
				k.FN += x
			}
		}
	}
	return k
}

// LabelCounts treats label l as the positive class (one against the rest):
// TP counts blocks of gold label l predicted as l, FP other blocks predicted
// as l, FN blocks of label l predicted as something else.
func (c Confusion) LabelCounts(l page.Label) Counts {
	var k Counts
	if int(l) >= c.n {
		return k
	}
	for x := 0; x < c.n; x++ {
		if x == int(l) {
			continue
		}
		k.FP += c.cells[x*c.n+int(l)]
		k.FN += c.cells[int(l)*c.n+x]
	}
	k.TP = c.cells[int(l)*c.n+int(l)]
	return k
}

func ratio(num, den int) float64 {
	if den == 0 {
		return 1
	}
	return float64(num) / float64(den)
}

// labels returns the labels the matrix covers.
func (c Confusion) labels() []page.Label {
	n := max(c.n, numLabels)
	ls := make([]page.Label, n)
	for i := range ls {
		ls[i] = page.Label(i)
	}
	return ls
}

// labelName is l's name, or its number for labels package page does not
// define.
func labelName(l page.Label) string {
	if int(l) < numLabels {
		return l.String()
	}
	return fmt.Sprint(int(l))
}

// String prints the matrix as a table, gold labels in rows and predicted
// labels in columns, with row and column totals, followed by both
// accuracies. Labels beyond those of package page print as numbers.
func (c Confusion) String() string {
	ls := c.labels()
	name := labelName
	head := []string{`gold \ predicted`}
	for _, l := range ls {
		head = append(head, name(l))
	}
	head = append(head, "total")
	rows := [][]string{head}
	colTotal := make([]int, len(ls))
	for _, g := range ls {
		row := []string{name(g)}
		sum := 0
		for pi, p := range ls {
			x := c.Count(g, p)
			row = append(row, fmt.Sprint(x))
			sum += x
			colTotal[pi] += x
		}
		rows = append(rows, append(row, fmt.Sprint(sum)))
	}
	last := []string{"total"}
	for _, x := range colTotal {
		last = append(last, fmt.Sprint(x))
	}
	rows = append(rows, append(last, fmt.Sprint(c.Total())))

	width := make([]int, len(head))
	for _, r := range rows {
		for i, s := range r {
			width[i] = max(width[i], len(s))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, s := range r {
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", width[i], s)
			} else {
				fmt.Fprintf(&b, "  %*s", width[i], s)
			}
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "accuracy %.2f%% (full label set), %.2f%% (content vs noise), %d blocks\n",
		100*c.Accuracy(), 100*c.ContentAccuracy(), c.Total())
	return b.String()
}

// confusionJSON is the JSON form of a Confusion.
type confusionJSON struct {
	Labels          []string `json:"labels"`
	Matrix          [][]int  `json:"matrix"` // [gold][predicted]
	Blocks          int      `json:"blocks"`
	Accuracy        float64  `json:"accuracy"`
	ContentAccuracy float64  `json:"content_accuracy"`
}

// MarshalJSON encodes the matrix as {"labels", "matrix" ([gold][predicted]),
// "blocks", "accuracy", "content_accuracy"}.
func (c Confusion) MarshalJSON() ([]byte, error) {
	ls := c.labels()
	out := confusionJSON{
		Blocks:          c.Total(),
		Accuracy:        c.Accuracy(),
		ContentAccuracy: c.ContentAccuracy(),
		Matrix:          make([][]int, len(ls)),
	}
	for gi, g := range ls {
		out.Labels = append(out.Labels, labelName(g))
		out.Matrix[gi] = make([]int, len(ls))
		for pi, p := range ls {
			out.Matrix[gi][pi] = c.Count(g, p)
		}
	}
	return json.Marshal(out)
}
