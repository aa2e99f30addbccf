package features

import (
	"slices"

	"github.com/sluice-project/sluice/crf"
)

// A feature group is declared by a groupSpec in a file of its own
// (group_*.go) and registered in featureGroups, whose order is the order
// of a block's attributes. Adding a group is one new file and one line in
// featureGroups: its name (a Group constant), its keys, its buckets, and
// an emit function (see groupSpec); the Extractor, the default CRF
// template, sluice train's --off and --ablate take it from there.

// groupSpec declares a feature group.
type groupSpec struct {
	group Group
	// keys are the attribute keys the group gives (the part of a name
	// before "="), for templates: see Extractor.Keys.
	keys []string
	// filterKey, when set, gives one more key per feature filter (see
	// FeatureConfig.Filters), after keys.
	filterKey func(f *extFilter) string
	// buckets are the default bucket lower bounds of the group's numeric
	// keys; emit reads the group's Buckets in this order. A key of the
	// form "f" gives the default of the per-filter keys "f.NAME".
	buckets []bucketDef
	// size is the typical and the largest number of attributes the group
	// gives a block, besides one per filter with filterKey; they size
	// the page's attribute array.
	size [2]int
	// window is how far the default CRF template looks for the group's
	// attributes: 0 at the block itself only, 1 also at the blocks next to
	// it, 2 also two blocks away (see DefaultTemplate).
	window int
	// needs are the page passes the group reads (see pass).
	needs pass
	// page, when set, computes what is the same for every block of the
	// page, before the blocks' attributes.
	page func(s *scratch, bk []*Bucket)
	// emit appends block i's attributes to dst. Groups whose attributes a
	// stage gives (Boost, Stack) have none.
	emit func(e *Extractor, s *scratch, i int, bk []*Bucket, dst []crf.Attr) []crf.Attr
}

// bucketDef is a numeric key and its default bucket lower bounds.
type bucketDef struct {
	key    string
	bounds []float64
}

// featureGroups lists the feature groups in the order of a block's
// attributes.
var featureGroups = []*groupSpec{
	&containerGroup, &splitGroup, &charGroup, &tokenGroup, &sentenceGroup,
	&duplicateGroup, &patternGroup, &bulletGroup, &groupRatioGroup,
	&positionGroup, &documentGroup, &schemaGroup, &classIDGroup, &learnedCuesGroup, &textCuesGroup, &sectionCuesGroup, &titleGroup, &headlineGroup, &filterScoreGroup,
	&densityGroup, &realGroup, &repeatGroup, &itemGroup, &boostGroup, &stackGroup,
}

// Groups returns every feature group, in the order their attributes appear.
func Groups() []Group {
	gs := make([]Group, len(featureGroups))
	for i, g := range featureGroups {
		gs[i] = g.group
	}
	return gs
}

// groupIndex is g's index in featureGroups, or -1.
func groupIndex(g Group) int {
	return slices.IndexFunc(featureGroups, func(s *groupSpec) bool { return s.group == g })
}

// pass is a set of page passes that groups read, each run once per page
// for all the groups on that need it (see Extractor.attrs).
type pass uint8

const (
	passDuplicates pass = 1 << iota // duplicate blocks (textstats.go)
	passGroups                      // div and td group sums (groups.go)
	passNodes                       // the memo of container tags and class cues
	passRepeats                     // repeated items (repeat.go)
	passFilters                     // the feature filters' scores
)
