// Package features turns the blocks of a segmented page into the
// attributes that the trained labeller (package label) reads: for each
// block, one list of CRF attributes (package crf) such as "container=li",
// "words=8" or "r.link" with a value.
//
// Attributes come in feature groups, each declared in a file of its own
// (group_*.go: the block's markup, split tags, characters, tokens,
// sentences, duplicates, patterns, bullets, div and td group ratios,
// position, document, class/id cues, filter scores, densities, real
// values, repeated items) and registered in featureGroups (group.go),
// whose order is the order of a block's attributes. Numeric features are
// mapped to a finite set of names by a Bucket. An Extractor, built once
// from a Config, runs the page passes the groups need and then each group
// over the blocks; groups can be switched off one by one for ablations.
// The Boost and Stack groups are declared here and given by the trees and
// stack stages of package label.
package features
