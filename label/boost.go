package label

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/gbdt"
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

// boostColumn is one column of a booster's vector.
type boostColumn struct {
	Name string `json:"name"` // the key (num, real) or the attribute name (bin)
	Kind string `json:"kind"`
}

// boostSpec is the part of a booster that the model file keeps as JSON.
type boostSpec struct {
	Columns []boostColumn `json:"columns"`
	// Neighbours are the columns also read from the blocks before and
	// after (indices into Columns).
	Neighbours []int `json:"neighbours"`
}

// TreesStage is the trees stage: it turns a page's attributes into
// vectors, scores them with boosted trees and gives the CRF their verdict
// as the Boost group's attributes. It is safe for concurrent use.
type TreesStage struct {
	spec  boostSpec
	model *gbdt.Model

	own   int                 // len(spec.Columns)
	width int                 // own + 2·len(Neighbours)
	names map[string]colValue // attribute name → column and value (num and bin)
	keys  map[string]int32    // key → column (num and real)
	kinds []string            // kind of each own column
	init  []float32           // a block's own columns before its attributes
}

type colValue struct {
	col int32
	val float32
}

// DefaultBoost returns the options of the boosted trees that Train uses
// unless told otherwise: 150 trees of depth 5 at shrinkage 0.2, each
// fitted to half the blocks. On the shared data (3 folds, the trees'
// verdicts blended half and half with the CRF's) they gave WCXB a
// content-word F1 of 85.12 against 85.21 for 300 trees at 0.1 (and 84.74
// for the CRF alone), at half the labelling cost.
func DefaultBoost() gbdt.Options {
	return gbdt.Options{Trees: 150, Depth: 5, LearningRate: 0.2, Bins: 64, MinLeaf: 5, L2: 1, Subsample: 0.5}
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

// newBoostSpec builds the columns from the training blocks' attributes.
func newBoostSpec(seqs []crf.Sequence) boostSpec {
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
	var spec boostSpec
	for _, k := range sortedKeys(num) {
		spec.Columns = append(spec.Columns, boostColumn{k, colNum})
	}
	for _, k := range sortedKeys(real) {
		spec.Columns = append(spec.Columns, boostColumn{k, colReal})
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
		spec.Columns = append(spec.Columns, boostColumn{b.name, colBin})
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

// newBooster checks spec and builds the lookup tables for e's attributes
// (with e nil, for those of the Labeller it joins); model may be nil while
// the trees are being trained.
func newBooster(e *Extractor, spec boostSpec, model *gbdt.Model) (*TreesStage, error) {
	b := &TreesStage{spec: spec, model: model, own: len(spec.Columns),
		names: map[string]colValue{}, keys: map[string]int32{}, kinds: make([]string, len(spec.Columns))}
	b.width = b.own + 2*len(spec.Neighbours)
	b.init = make([]float32, b.own)
	for i, c := range spec.Columns {
		col := int32(i)
		switch c.Kind {
		case colNum:
			b.keys[c.Name] = col
			b.init[i] = float32(math.NaN())
		case colReal:
			b.keys[c.Name] = col
		case colBin:
			b.names[c.Name] = colValue{col, 1}
		default:
			return nil, fmt.Errorf("label: boosted trees: column %d (%q) has unknown kind %q", i, c.Name, c.Kind)
		}
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

// vector writes the vectors of a page's blocks into x (grown as needed) and
// returns it: len(attrs) rows of b.width values.
func (b *TreesStage) vector(attrs [][]crf.Attr, x []float32) []float32 {
	n := len(attrs)
	x = grow(x, n*b.width)
	for i, as := range attrs {
		row := x[i*b.width : i*b.width+b.own]
		copy(row, b.init)
		for _, a := range as {
			if a.Value != 0 {
				if c, ok := b.keys[a.Name]; ok {
					row[c] = float32(a.Value)
				}
				continue
			}
			if cv, ok := b.names[a.Name]; ok {
				row[cv.col] = cv.val
				continue
			}
			k, v, ok := strings.Cut(a.Name, "=")
			if !ok {
				continue
			}
			c, ok := b.keys[k]
			if !ok || b.kinds[c] != colNum {
				continue
			}
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			row[c] = float32(f)
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

// learnBuckets caches the names of e's numeric attributes, so that
// labelling looks each up once instead of parsing it.
func (b *TreesStage) learnBuckets(e *Extractor) {
	learn := func(bk *Bucket) {
		c, ok := b.keys[bk.key]
		if !ok || b.kinds[c] != colNum {
			return
		}
		for i, name := range bk.names {
			b.names[name] = colValue{c, float32(bk.bounds[i])}
		}
	}
	for _, bk := range e.buckets {
		learn(bk)
	}
	for _, f := range e.filters {
		learn(f.bucket)
	}
}

// boostScratch is the working memory of booster.attrs.
type boostScratch struct {
	p   []float64 // the trees' content probability of each block
	x   []float32
	out [][]crf.Attr
	buf []crf.Attr
}

// attrs returns attrs with the Boost group's attributes of each block
// appended, in bs's memory.
func (b *TreesStage) attrs(attrs [][]crf.Attr, bk *Bucket, bs *boostScratch) [][]crf.Attr {
	n := len(attrs)
	bs.x = b.vector(attrs, bs.x)
	total := 0
	for _, a := range attrs {
		total += len(a) + 2
	}
	bs.buf = grow(bs.buf, total)[:0]
	bs.out = grow(bs.out, n)
	bs.p = grow(bs.p, n)
	for i, a := range attrs {
		p := b.model.Prob(bs.x[i*b.width : (i+1)*b.width])
		bs.p[i] = p
		start := len(bs.buf)
		bs.buf = appendBoostAttrs(append(bs.buf, a...), p, bk)
		bs.out[i] = bs.buf[start:len(bs.buf):len(bs.buf)]
	}
	return bs.out[:n]
}

// appendBoostAttrs appends the Boost group's attributes of a block the
// trees give content probability p: "b.p" in bk's buckets and, unless
// zero, "r.b.p".
func appendBoostAttrs(dst []crf.Attr, p float64, bk *Bucket) []crf.Attr {
	dst = append(dst, crf.Attr{Name: bk.Name(p)})
	if p > 0 {
		dst = append(dst, crf.Attr{Name: "r.b.p", Value: p})
	}
	return dst
}

// boostWeight is a block's weight in the trees' training: its page's
// weight times 1 + ln(1 + its words), as long blocks weigh most in the
// word-level scores.
func boostWeight(pageWeight float64, words int32) float64 {
	if pageWeight == 0 {
		pageWeight = 1
	}
	return pageWeight * (1 + math.Log1p(float64(max(words, 0))))
}

// trainBoost fits boosted trees to seqs' content-or-other labels, appends
// the Boost attributes to every sequence (held-out verdicts, from folds
// of the groups, so the CRF sees how the trees do on pages they did not
// see) and returns the trees fitted to all of them, and the held-out
// verdicts of each sequence's blocks. words[k][i] is the word count of
// block i of sequence k.
func (e *Extractor) trainBoost(ctx context.Context, seqs []crf.Sequence, words [][]int32, groups []string, folds int, other int, opt gbdt.Options, stage func(string)) (*TreesStage, [][]float64, error) {
	spec := newBoostSpec(seqs)
	b, err := newBooster(e, spec, nil)
	if err != nil {
		return nil, nil, err
	}
	bk := e.buckets[bBP]
	rows := blockCount(seqs)
	x := make([]float32, 0, rows*b.width)
	y := make([]float64, 0, rows)
	w := make([]float64, 0, rows)
	first := make([]int, len(seqs)+1) // first row of each sequence
	var scratch []float32
	for k, s := range seqs {
		first[k] = len(y)
		scratch = b.vector(s.Attrs, scratch)
		x = append(x, scratch[:len(s.Attrs)*b.width]...)
		for i, l := range s.Labels {
			y = append(y, boolTarget(l != other))
			w = append(w, boostWeight(s.Weight, words[k][i]))
		}
	}
	first[len(seqs)] = len(y)

	held := make([]float64, rows)
	fold := AssignFolds(groups, folds)
	fw := make([]float64, rows)
	size := fmt.Sprintf("%d blocks, %d columns", rows, b.width)
	for f := range folds {
		// The fold's rows weigh nothing, which leaves them out.
		for k := range seqs {
			for r := first[k]; r < first[k+1]; r++ {
				fw[r] = w[r]
				if fold[k] == f {
					fw[r] = 0
				}
			}
		}
		stage(fmt.Sprintf("boosted trees without fold %d of %d (%s)", f+1, folds, size))
		m, err := gbdt.Train(ctx, x, b.width, y, fw, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("label: boosted trees, fold %d of %d: %w", f+1, folds, err)
		}
		for k := range seqs {
			if fold[k] == f {
				for r := first[k]; r < first[k+1]; r++ {
					held[r] = m.Prob(x[r*b.width : (r+1)*b.width])
				}
			}
		}
	}
	stage("boosted trees (" + size + ")")
	b.model, err = gbdt.Train(ctx, x, b.width, y, w, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("label: boosted trees: %w", err)
	}
	for k := range seqs {
		s := &seqs[k]
		out := make([][]crf.Attr, len(s.Attrs))
		for i, a := range s.Attrs {
			p := held[first[k]+i]
			out[i] = appendBoostAttrs(append(make([]crf.Attr, 0, len(a)+2), a...), p, bk)
		}
		s.Attrs = out
	}
	tp := make([][]float64, len(seqs))
	for k := range seqs {
		tp[k] = held[first[k]:first[k+1]:first[k+1]]
	}
	return b, tp, nil
}

func boolTarget(v bool) float64 {
	if v {
		return 1
	}
	return 0
}

// Name returns StageTrees.
func (*TreesStage) Name() string { return StageTrees }

func (b *TreesStage) run(l *Labeller, s *state) {
	s.attrs = b.attrs(s.attrs, l.ext.buckets[bBP], &s.ab.boost)
	s.tp = s.ab.boost.p
}

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
	specData, trees, ok := lengthPrefixed(data)
	if !ok {
		return nil, errors.New("label: model file truncated in its boosted trees")
	}
	var spec boostSpec
	if err := json.Unmarshal(specData, &spec); err != nil {
		return nil, fmt.Errorf("label: boosted trees' columns: %w", err)
	}
	m, err := gbdt.Unmarshal(trees)
	if err != nil {
		return nil, fmt.Errorf("label: boosted trees: %w", err)
	}
	return newBooster(nil, spec, m)
}
