package label

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/gbdt"
	"github.com/sluice-project/sluice/internal/grow"
)

// Boosted trees in front of the CRF (the Boost group). A linear-chain CRF
// weighs each attribute on its own: "words=40" and "link=0.5" each add
// their weight whatever the other says, so it cannot learn that forty
// linked words are a menu on one kind of page and a product's title on
// another. Gradient-boosted trees over the same attributes, read as
// numbers, learn such conjunctions; their content probability joins the
// block's attributes, and the CRF learns how far to trust it beside
// everything else.
//
// The trees see a dense vector per block (see booster.vector): a column
// per numeric attribute key ("words", "link", "r.f.lqf"...), holding the
// bucket's bound or the real value, a column per frequent categorical
// attribute ("container=li", "cls=nav", "style=cleaneval"), 1 when the
// block has it, and the real-valued columns of the blocks before and after.
// Train fits them on held-out folds first (as for the Stack group), so that
// the CRF learns from the trees' verdicts on pages they did not see.

// Column kinds of a booster.
const (
	colNum  = "num"  // "key=v": v, the bucket's bound; NaN when absent
	colReal = "real" // a real-valued attribute: its value; 0 when absent
	colBin  = "bin"  // a categorical attribute: 1 when present, else 0
)

// TreeColumn is one column of the trees' vector.
type TreeColumn struct {
	Name string `json:"name"` // the key (num, real) or the attribute name (bin)
	Kind string `json:"kind"`
}

// TreeSpec is the columns of the trees' vector, which the model file
// keeps as JSON.
type TreeSpec struct {
	Columns []TreeColumn `json:"columns"`
	// Neighbours are the columns also read from the blocks before and
	// after (indices into Columns).
	Neighbours []int `json:"neighbours"`
}

// TreesStage is the trees stage: it turns a page's attributes into
// vectors, scores them with boosted trees and gives the CRF their verdict
// as the Boost group's attributes. It is safe for concurrent use.
type TreesStage struct {
	spec  TreeSpec
	model *gbdt.Model

	own   int       // len(spec.Columns)
	width int       // own + 2·len(Neighbours)
	dict  attrDict  // attribute name → column and value (num and bin); key → column (num and real)
	kinds []string  // kind of each own column
	init  []float32 // a block's own columns before its attributes
}

// Vocabulary limits: a categorical attribute becomes a column when at least
// boostMinShare of the training blocks have it, and at most boostMaxBin of
// the most frequent ones do.
const (
	boostMinShare = 0.002
	boostMaxBin   = 160
)

// boostNeighbourKeys are numeric keys, besides the real-valued ones, whose
// columns are also read from the neighbours.
var boostNeighbourKeys = []string{"sent.count", "char.punct", "char.alpha", "split.tags", "depth"}

// NewTreeSpec builds the columns of a trees stage from the attributes of
// the training blocks.
func NewTreeSpec(seqs []crf.Sequence) TreeSpec {
	num, real := map[string]bool{}, map[string]bool{}
	bin := map[string]int{}
	blocks := 0
	for _, s := range seqs {
		for _, attrs := range s.Attrs {
			blocks++
			for _, a := range attrs {
				if isBoostAttr(a.Name) {
					continue
				}
				if a.Value != 0 {
					real[a.Name] = true
					continue
				}
				if k, v, ok := strings.Cut(a.Name, "="); ok {
					if _, err := strconv.ParseFloat(v, 64); err == nil {
						num[k] = true
						continue
					}
				}
				bin[a.Name]++
			}
		}
	}
	var spec TreeSpec
	for _, k := range slices.Sorted(maps.Keys(num)) {
		spec.Columns = append(spec.Columns, TreeColumn{k, colNum})
	}
	for _, k := range slices.Sorted(maps.Keys(real)) {
		spec.Columns = append(spec.Columns, TreeColumn{k, colReal})
	}
	type nc struct {
		name string
		n    int
	}
	var bins []nc
	for name, n := range bin {
		if float64(n) >= boostMinShare*float64(blocks) {
			bins = append(bins, nc{name, n})
		}
	}
	slices.SortFunc(bins, func(a, b nc) int {
		if c := cmp.Compare(b.n, a.n); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	for _, b := range bins[:min(len(bins), boostMaxBin)] {
		spec.Columns = append(spec.Columns, TreeColumn{b.name, colBin})
	}
	for i, c := range spec.Columns {
		if c.Kind == colReal || c.Kind == colNum && slices.Contains(boostNeighbourKeys, c.Name) {
			spec.Neighbours = append(spec.Neighbours, i)
		}
	}
	return spec
}

// isBoostAttr reports whether an attribute is the Boost group's own, which
// the trees must not see.
func isBoostAttr(name string) bool {
	return strings.HasPrefix(name, "b.p=") || name == "r.b.p"
}

// NewTreesStage checks spec and builds the lookup tables for e's attributes
// (with e nil, for those of the Labeller it joins). model may be nil while
// the trees are being trained: the stage then gives rows (Rows) but cannot
// run.
func NewTreesStage(e *features.Extractor, spec TreeSpec, model *gbdt.Model) (*TreesStage, error) {
	b := &TreesStage{spec: spec, model: model, own: len(spec.Columns),
		dict: attrDict{}, kinds: make([]string, len(spec.Columns))}
	b.width = b.own + 2*len(spec.Neighbours)
	b.init = make([]float32, b.own)
	for i, c := range spec.Columns {
		col := int32(i)
		e := b.dict.at(c.Name)
		switch c.Kind {
		case colNum:
			e.real = col
			b.init[i] = float32(math.NaN())
		case colReal:
			e.real = col
		case colBin:
			e.bin, e.val = col, 1
		default:
			return nil, fmt.Errorf("label: boosted trees: column %d (%q) has unknown kind %q", i, c.Name, c.Kind)
		}
		b.dict[c.Name] = e
		b.kinds[i] = c.Kind
	}
	for _, n := range spec.Neighbours {
		if n < 0 || n >= b.own {
			return nil, fmt.Errorf("label: boosted trees: neighbour column %d out of range (%d columns)", n, b.own)
		}
	}
	if model != nil && model.NumFeatures() != b.width {
		return nil, fmt.Errorf("label: boosted trees read %d values, their columns make %d", model.NumFeatures(), b.width)
	}
	if e != nil {
		b.learnBuckets(e)
	}
	return b, nil
}

// Width is the number of values in a block's row.
func (b *TreesStage) Width() int { return b.width }

// Rows writes the rows of the blocks whose attributes are attrs into x
// (grown as needed) and returns it: len(attrs) rows of Width values, what
// the trees read.
func (b *TreesStage) Rows(attrs [][]crf.Attr, x []float32) []float32 {
	return b.vector(attrs, x, &b.dict, nil, nil)
}

// AppendTreeVerdict appends to dst the Boost group's attributes of a block
// the trees give content probability p.
func AppendTreeVerdict(e *features.Extractor, dst []crf.Attr, p float64) []crf.Attr {
	return appendBoostAttrs(dst, p, e.Bucket(features.Boost, "b.p"))
}

// vector writes the vectors of a page's blocks into x (grown as needed) and
// returns it: len(attrs) rows of b.width values, the attributes looked up
// in d (b.dict, or a labeller's with the CRF's ids too). Unless r is nil,
// it also appends to r, a block at a time, the CRF's ids and values of the
// attributes (see attrDict.resolveInto): one lookup an attribute for both.
// The lookups go through c (nil: straight to d).
func (b *TreesStage) vector(attrs [][]crf.Attr, x []float32, d *attrDict, r *crf.Resolved, c *dictCache) []float32 {
	n := len(attrs)
	x = grow.Slice(x, n*b.width)
	for i, as := range attrs {
		row := x[i*b.width : i*b.width+b.own]
		copy(row, b.init)
		for _, a := range as {
			e := c.at(d, a.Name)
			if r != nil && e.crf >= 0 {
				r.IDs = append(r.IDs, e.crf)
				r.Vals = append(r.Vals, crfValue(a))
			}
			switch {
			case a.Value != 0:
				if e.real >= 0 {
					row[e.real] = float32(a.Value)
				}
			case e.bin >= 0:
				row[e.bin] = e.val
			default:
				b.parsed(row, a.Name, *d)
			}
		}
		if r != nil {
			r.Start = append(r.Start, int32(len(r.IDs)))
		}
	}
	nb := len(b.spec.Neighbours)
	nan := float32(math.NaN())
	for i := range n {
		row := x[i*b.width : (i+1)*b.width]
		prev, next := row[b.own:b.own+nb], row[b.own+nb:]
		for j, c := range b.spec.Neighbours {
			prev[j], next[j] = nan, nan
			if i > 0 {
				prev[j] = x[(i-1)*b.width+c]
			}
			if i+1 < n {
				next[j] = x[(i+1)*b.width+c]
			}
		}
	}
	return x
}

// parsed sets, in row, the num column of an attribute "key=v" that the
// dictionary d does not hold (a bound no bucket has) to v.
func (b *TreesStage) parsed(row []float32, name string, d attrDict) {
	k, v, ok := strings.Cut(name, "=")
	if !ok {
		return
	}
	c := d.at(k).real
	if c < 0 || b.kinds[c] != colNum {
		return
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return
	}
	row[c] = float32(f)
}

// learnBuckets caches the names of e's numeric attributes, so that
// labelling looks each up once instead of parsing it.
func (b *TreesStage) learnBuckets(e *features.Extractor) {
	e.EachBucket(func(bk *features.Bucket) {
		c := b.dict.at(bk.Key()).real
		if c < 0 || b.kinds[c] != colNum {
			return
		}
		bounds := bk.Bounds()
		for i, name := range bk.Names() {
			en := b.dict.at(name)
			en.bin, en.val = c, float32(bounds[i])
			b.dict[name] = en
		}
	})
}

// boostScratch is the working memory of the trees.
type boostScratch struct {
	p     []float64 // the trees' content probability of each block
	x     []float32 // a window's rows
	names dictCache // the attribute names' entries
}

// probs sets tp[i] to the trees' content probability of block i, for the
// blocks i in [from, to), from the attributes win of blocks lo to
// lo+len(win)-1, which must hold the blocks next to them too (where the
// page has them), looked up in d; unless r is nil, it appends their CRF
// ids to r (see vector).
func (b *TreesStage) probs(win [][]crf.Attr, lo, from, to int, tp []float64, bs *boostScratch, d *attrDict, r *crf.Resolved) {
	bs.x = b.vector(win, bs.x, d, r, &bs.names)
	if from < to {
		b.model.Probs(bs.x[(from-lo)*b.width:(to-lo)*b.width], b.width, tp[from:to])
	}
}

// appendBoostAttrs appends the Boost group's attributes of a block the
// trees give content probability p: "b.p" in bk's buckets and, unless
// zero, "r.b.p".
func appendBoostAttrs(dst []crf.Attr, p float64, bk *features.Bucket) []crf.Attr {
	dst = append(dst, crf.Attr{Name: bk.Name(p)})
	if p > 0 {
		dst = append(dst, crf.Attr{Name: "r.b.p", Value: p})
	}
	return dst
}

// Name returns StageTrees.
func (*TreesStage) Name() string { return StageTrees }

// run has the next CRF's window pass compute the trees' verdict (see
// crfPass): the trees read the same window of attributes as the CRF.
func (b *TreesStage) run(_ *Labeller, s *state) { s.trees, s.tpDone = b, false }

// MarshalBinary encodes the stage's part of a model file: the columns
// (length-prefixed JSON), then the trees.
func (b *TreesStage) MarshalBinary() ([]byte, error) {
	spec, err := json.Marshal(b.spec)
	if err != nil {
		return nil, err
	}
	m, err := b.model.MarshalBinary()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	writePrefixed(&buf, spec)
	buf.Write(m)
	return buf.Bytes(), nil
}

// readTrees reads what MarshalBinary wrote.
func readTrees(data []byte) (Stage, error) {
	var spec TreeSpec
	trees, err := jsonPart(data, &spec, "boosted trees' columns")
	if err != nil {
		return nil, err
	}
	m, err := gbdt.Unmarshal(trees)
	if err != nil {
		return nil, fmt.Errorf("label: boosted trees: %w", err)
	}
	return NewTreesStage(nil, spec, m)
}
