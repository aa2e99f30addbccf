// Package label is the decide stage's trained block labeller: a linear-chain
// CRF (package crf) over the blocks of a page, in the manner of Victor
// (seed, chapters 3 and 4), giving each block a page.Label: other, heading,
// paragraph, list item or continuation.
//
// An Extractor turns a page into one list of CRF attributes per block (the
// block's markup, text, group, position and document features, and the
// scores of a few cheap filters), each numeric feature mapped to a finite
// set of names by a Bucket. Feature groups can be switched off one by one
// for ablations (see Groups).
//
// The default labeller has two stages (stack.go): a second CRF relabels
// the blocks from their attributes and the first stage's content
// probabilities summarised over the block's neighbours, div group,
// ancestors and page, learnt from first-stage probabilities on pages the
// first stage was not trained on (Train's inner folds). Switching the
// Stack group off trains one stage.
//
// In front of the CRF, gradient-boosted trees (package gbdt, boost.go) read
// each block's attributes as numbers, with its neighbours' real-valued
// ones, and give their content probability to the CRF as attributes of the
// Boost group; Train fits them on inner folds first, so that the CRF
// learns from their verdicts on pages they did not see. The labeller then
// blends the trees' probability with the CRF's (FeatureConfig.Blend).
// Switching the Boost group off trains the CRF alone.
//
// With one CRF stage and the trees, a second set of boosted trees, the
// context trees (the Context group, context.go), judges each block again
// from the CRF's and the first trees' verdicts summarised over its
// neighbours, its element path, its div group and the page, and replaces
// the blend; they learn from the CRF's marginals on pages held out of its
// training (inner folds, as for the Stack group). The embedded model is
// made so (the Stack group off).
package label
