// Package label is the decide stage's trained block labeller. A Labeller
// is an ordered list of stages (stage.go) over a page's blocks, each in a
// file of its own: boosted trees over the block features (boost.go, the
// trees stage, package gbdt), a linear-chain CRF in the manner of Victor
// (seed, chapters 3 and 4; crfstage.go, package crf), optionally a second
// CRF over the first's verdicts (stack.go) or context trees that judge each
// block again from the page's verdicts (context.go), the blend of CRF and
// trees (blend.go), path smoothing (smooth.go) and the content region
// (region.go). It gives each block a page.Label: other, heading,
// paragraph, list item or continuation.
//
// The stages read the block attributes of package features (the
// extractor of the labeller's FeatureConfig).
//
// A model file (modelfile.go) holds the feature configuration, the list
// of stages and each stage's trained part. Package train trains them; this
// package only labels.
package label
