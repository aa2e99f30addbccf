package features

// Stack: the first stage's verdict, for the stack stage's CRF: a block's
// content probability under the crf stage ("s.p"), its neighbours'
// ("s.prev", "s.next") and the mean over seven blocks around it ("s.win"),
// over its div group ("s.div") and over the blocks of its three nearest
// ancestors that hold more blocks ("s.a1", "s.a2", "s.a3"); the share of
// the page's words in more probable blocks ("s.rank"), the page's highest
// probability ("s.max"), the share of its words above one half
// ("s.sure"), the block's probability with the page's highest ("s.pm"),
// and "r.s.p" and "r.s.div", real-valued. Package label's stack stage gives
// them; the group declares their keys and buckets.
const Stack Group = "stack"

var stackGroup = groupSpec{
	group: Stack,
	keys:  []string{"s.p", "s.prev", "s.next", "s.win", "s.div", "s.a1", "s.a2", "s.a3", "s.rank", "s.max", "s.sure", "s.pm", "r.s.p", "r.s.div"},
	buckets: []bucketDef{
		{"s.p", probB}, {"s.prev", probB}, {"s.next", probB}, {"s.win", probB}, {"s.div", probB},
		{"s.a1", probB}, {"s.a2", probB}, {"s.a3", probB}, {"s.rank", ratio10},
		{"s.max", []float64{0, .2, .4, .5, .6, .7, .8, .9, .95}}, {"s.sure", ratio10},
	},
}
