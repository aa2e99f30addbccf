package label

import (
	"github.com/sluice-project/sluice/features"
)

// FeatureConfig is the configuration of a labeller, which its model file
// keeps: the block features (features.Config, whose fields it holds as its
// own in JSON), the annotation styles, the decision thresholds, the stage
// settings and the stage list.
type FeatureConfig struct {
	features.Config
	// Styles are the annotation styles besides MainStyle that a trained
	// model knows (see StyleLine); Train sets them from its examples.
	Styles []string `json:"styles,omitempty"`
	// Thresholds are the decision thresholds (ExpectedF1 or a fixed
	// threshold) chosen for a trained model by
	// cross-validation, per style; a style left out uses 0.5.
	Thresholds map[string]float64 `json:"thresholds,omitempty"`
	// Smooth is the weight of path smoothing (see smooth.go), from 0 (off,
	// as in models made before it) to 1: a block's content probability
	// becomes (1-Smooth) times its own plus Smooth times the mean over the
	// blocks at the same element path.
	Smooth float64 `json:"smooth,omitempty"`
	// Region is how much the content probability of the blocks outside
	// the page's content region is lowered (see region.go): they are
	// multiplied by 1-Region. 0 (models made before it) is off.
	Region float64 `json:"region,omitempty"`
	// Blend is how far a block's content probability moves from the
	// CRF's toward the boosted trees' (see blend.go): (1-Blend) times the
	// one plus Blend times the other. 0 (models made before it) is off; it
	// has no effect without the trees stage.
	Blend float64 `json:"blend,omitempty"`
	// Stages is the labeller's list of stages (see Stage), in the order
	// they run. Model files made before it have none: Load derives the
	// list from their layout.
	Stages []string `json:"stages,omitempty"`
}

// DefaultFeatureConfig returns the default configuration: the default
// features (features.DefaultConfig) and stage settings.
func DefaultFeatureConfig() FeatureConfig {
	return FeatureConfig{
		Config: features.DefaultConfig(),
		Smooth: DefaultSmooth,
		Region: DefaultRegion,
		Blend:  DefaultBlend,
	}
}

// work is the memory of labelling one page, reused from page to page.
type work struct {
	attrs   features.AttrBuf // the block attributes
	stack   stackScratch     // the stack stage's (stack.go)
	boost   boostScratch     // the trees stage's (boost.go)
	smooth  smoothScratch    // path smoothing's (smooth.go)
	context contextScratch   // the context stage's (context.go)
	win     windowScratch    // the CRF stages' window passes (window.go)
	copies  copyScratch      // DropFarCopies' (copies.go)
}
