package features

// Boost: the verdict of gradient-boosted trees over the block's attributes
// and its neighbours' (package label's trees stage): "b.p", the trees' content
// probability in buckets, and "r.b.p", the same real-valued. Trees see
// conjunctions of attributes that the CRF's weights, one per attribute,
// cannot. The trees stage gives them, after the extractor's; the group declares
// their keys and buckets.
const Boost Group = "boost"

var boostGroup = groupSpec{
	group:   Boost,
	keys:    []string{"b.p", "r.b.p"},
	buckets: []bucketDef{{"b.p", probB}},
	window:  1,
}
