package dataset

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Kind names a data set layout and gold format: the name of one of the
// registered kinds (see Kinds), such as "cleaneval". Its KindSpec says
// everything else about it.
type Kind string

// KindSpec describes one kind of data set: where a set of this kind keeps
// its files, how a folder is recognised as one, how its gold is read, and
// what scoring and training need to know about that gold. Each kind is one
// KindSpec in a file of its own (cleaneval.go, dragnet.go, l3s.go, wcxb.go,
// readability.go, annotation.go), registered in the ordered list that Kinds
// returns; nothing outside this package decides anything by a kind's name.
type KindSpec interface {
	// Kind is the kind's name, the Kind of its sets.
	Kind() Kind
	// Layout is where a set of this kind keeps each page's HTML and gold
	// files.
	Layout() Layout
	// Detect reports whether dir, a folder that holds the Layout's HTML
	// and gold folders, is a set of this kind. Open asks the kinds in the
	// order of Kinds, and the first that says yes is the set's kind.
	Detect(dir string) bool
	// Open prepares to read the pages of the set in dir (reading what the
	// set keeps besides its pages, such as the L3S-GN1 URL mapping) and
	// returns the function that reads each page's gold.
	Open(dir string) (GoldReader, error)
	// MainMetric names the metric of package evaluate that a set of this
	// kind is measured with by default: "cleaneval" or "bow".
	MainMetric() string
	// DefaultStyle is the annotation style of a set of this kind called
	// name unless told otherwise: "main" (its main content only) or
	// "cleaneval" (all running text, as CleanEval's annotators kept it);
	// the styles of package label.
	DefaultStyle(name string) string
	// Alignment is what of the gold a page's blocks are aligned with to
	// label them for training.
	Alignment() Alignment
	// Annotated reports whether the gold labels the page's blocks itself
	// (Gold.Annotation), so that training takes its labels as they are
	// instead of aligning the blocks with the gold.
	Annotated() bool
}

// GoldReader fills in a page from the bytes of its gold file. The page's
// Set, ID and HTML are set when it is called; it sets Gold and, where the
// data set says them, URL, Site and Charset. An error is about the gold
// file.
type GoldReader func(p *Page, gold []byte) error

// Layout is where a kind keeps a page's two files: the page's HTML is
// HTMLDir/ID+HTMLExt and its gold GoldDir/ID+GoldExt, in the set's folder.
// HTML files whose extension ends in ".gz" are gzipped.
type Layout struct {
	HTMLDir, HTMLExt, GoldDir, GoldExt string
}

// Alignment is what of a gold standard a page's blocks are aligned with
// (see train.Align).
type Alignment int

const (
	// AlignText: the paragraphs of Gold.Text are the main content; those
	// of Gold.Comments are aligned too, as text that is not. Structure
	// labels come from the page's markup.
	AlignText Alignment = iota
	// AlignSegments: the labelled Gold.Segments (heading, paragraph, list
	// item) give the content and its labels.
	AlignSegments
	// AlignSpans: the L3S-GN1 Gold.Spans, whose classes say which text is
	// content (headline and full text) and which text is a headline.
	AlignSpans
)

var alignmentNames = [...]string{AlignText: "text", AlignSegments: "segments", AlignSpans: "spans"}

func (a Alignment) String() string {
	if a >= 0 && int(a) < len(alignmentNames) {
		return alignmentNames[a]
	}
	return fmt.Sprintf("Alignment(%d)", int(a))
}

// kinds are the registered kinds in the order Open tries them: the more
// specific layouts first, so that html/ with ann/ is an annotated set even
// when it has a gold/ too (labels corrected by hand are the better gold),
// and html/ with gold/*.txt is CleanEval when the gold files start with a
// "URL:" line and Dragnet otherwise.
//
// A new kind is a file of its own (its Kind constant, its KindSpec type and
// its gold reader), an entry here, a small fixture set testdata/NAME (which
// TestKindsDetected requires) and a row of TestKindValues.
var kinds = []KindSpec{
	annotatedKind{},
	l3sKind{},
	readabilityKind{},
	wcxbKind{},
	cleanEvalKind{},
	dragnetKind{},
}

// Kinds returns the registered kinds in the order Open tries them.
func Kinds() []KindSpec { return slices.Clone(kinds) }

// Spec returns the registered kind called k. A name that is not registered
// (the zero Kind among them) gives a kind with plain-text gold: measured
// with "bow", in the "main" style, aligned as text, not annotated, and
// detected in no folder.
func (k Kind) Spec() KindSpec {
	for _, s := range kinds {
		if s.Kind() == k {
			return s
		}
	}
	return unknownKind(k)
}

// unknownKind is a kind that is not registered.
type unknownKind Kind

func (k unknownKind) Kind() Kind               { return Kind(k) }
func (unknownKind) Layout() Layout             { return Layout{} }
func (unknownKind) Detect(string) bool         { return false }
func (unknownKind) MainMetric() string         { return "bow" }
func (unknownKind) DefaultStyle(string) string { return "main" }
func (unknownKind) Alignment() Alignment       { return AlignText }
func (unknownKind) Annotated() bool            { return false }
func (k unknownKind) Open(string) (GoldReader, error) {
	return nil, fmt.Errorf("dataset: unknown kind %q", string(k))
}

// detectKind recognises a data set folder's layout: the first registered
// kind whose HTML and gold folders dir holds and whose Detect says yes.
func detectKind(dir string) (KindSpec, error) {
	var near []KindSpec // kinds whose folders dir has
	for _, k := range kinds {
		if !k.Layout().in(dir) {
			continue
		}
		if k.Detect(dir) {
			return k, nil
		}
		near = append(near, k)
	}
	if len(near) > 0 {
		// Only the gold files are missing: say which were looked for.
		gold := near[0].Layout().GoldDir
		var exts []string
		for _, k := range near {
			if k.Layout().GoldDir == gold {
				exts = append(exts, k.Layout().GoldExt)
			}
		}
		slices.Sort(exts)
		return nil, fmt.Errorf("dataset: %s: %s/ holds %s files", dir, gold, noneOf(slices.Compact(exts)))
	}
	return nil, fmt.Errorf("dataset: %s: unknown layout; expected %s", dir, layoutsExpected())
}

// in reports whether dir holds the layout's HTML and gold folders.
func (l Layout) in(dir string) bool {
	return l.HTMLDir != "" && isDir(filepath.Join(dir, l.HTMLDir)) && isDir(filepath.Join(dir, l.GoldDir))
}

// noneOf says "no x", "neither x nor y" or "none of x, y or z".
func noneOf(items []string) string {
	switch len(items) {
	case 1:
		return "no " + items[0]
	case 2:
		return "neither " + items[0] + " nor " + items[1]
	}
	return "none of " + strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

// layoutsExpected lists the registered layouts for the error of a folder
// of none of them: "html/ with ann/ (*.ann), ..., or html/ with gold/
// (*.json or *.txt)", the gold extensions of kinds that share their
// folders together.
func layoutsExpected() string {
	type folders struct{ html, gold string }
	var order []folders
	exts := map[folders][]string{}
	for _, k := range kinds {
		l := k.Layout()
		f := folders{l.HTMLDir, l.GoldDir}
		if _, ok := exts[f]; !ok {
			order = append(order, f)
		}
		if !slices.Contains(exts[f], "*"+l.GoldExt) {
			exts[f] = append(exts[f], "*"+l.GoldExt)
		}
	}
	var out []string
	for _, f := range order {
		out = append(out, fmt.Sprintf("%s/ with %s/ (%s)", f.html, f.gold, strings.Join(exts[f], " or ")))
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + ", or " + out[len(out)-1]
}
