// Package train makes labellers (package label) from pages with gold
// standards: it reads data sets and labels their blocks (by aligning them
// with the gold text, align.go, or from a hand annotation, annotate.go),
// trains each stage of a labeller in turn (train.go, trees.go, stack.go,
// context.go), and cross-validates with folds that keep the pages of a
// site together, choosing each annotation style's decision threshold
// (cv.go).
//
// Package label runs what this package trains; it never imports it, nor
// the data sets.
package train
