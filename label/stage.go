package label

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/page"
)

// A Labeller is an ordered list of stages, each one small step over a
// page's working state: the trees give their verdict, a CRF computes
// marginals, another CRF or the context trees judge again, smoothing and
// the content region adjust the result. The list is data: a model file
// holds it (FeatureConfig.Stages) with each stage's trained part, and
// sluice train takes it as --stages.
//
// Adding a stage is one file here (a type implementing Stage, and a
// stageKind entry in stageKinds for its name, its place and how its part
// of a model file is read) and one in package train (how it is trained).

// Stage is one step of a Labeller (see the list above). Stages are made by
// package train, or read from a model file by Load.
type Stage interface {
	// Name is the stage's name in a model's stage list: one of
	// StageNames.
	Name() string
	// run applies the stage to one page's state.
	run(l *Labeller, s *state)
}

// marshaler is a Stage with a trained part of its own in a model file.
type marshaler interface {
	MarshalBinary() ([]byte, error)
}

// state is what the stages of a Labeller read and write for one page.
type state struct {
	p      *page.Page
	style  string
	prep   *features.Prepared // the page's features, block attributes window by window (crfPass)
	marg   [][]float64        // the marginals, once a CRF has run
	trees  *TreesStage        // the trees stage, once it has run
	tpDone bool               // whether a CRF pass has computed tp
	tp     []float64          // the boosted trees' content probability of each block, once a CRF pass has run after them
	ab     *work
	// lastReader is set while the last stage that reads the block
	// attributes runs: the pass frees prep's memory when done with it.
	lastReader bool
}

// Stage names, in the only order in which they may appear.
const (
	StageTrees   = "trees"   // boosted trees whose verdict the CRF reads (boost.go)
	StageCRF     = "crf"     // the linear-chain CRF (crfstage.go)
	StageStack   = "stack"   // a second CRF over the first's verdicts (stack.go)
	StageContext = "context" // context trees that judge each block again (context.go)
	StageBlend   = "blend"   // the CRF's verdict moved toward the trees' (blend.go)
	StageSmooth  = "smooth"  // path smoothing (smooth.go)
	StageRegion  = "region"  // the content region (region.go)
)

// stageKind describes one kind of stage.
type stageKind struct {
	name string
	// group is the feature group whose attributes the stage gives ("" for
	// none): it is on exactly when the stage is in the list.
	group features.Group
	// needs lists the stages that must come before it.
	needs []string
	// read decodes the stage's part of a model file; nil for a stage with
	// no trained part.
	read func(data []byte) (Stage, error)
	// make returns the stage when it has no trained part.
	make func() Stage
}

// stageKinds lists the kinds of stage in the order a list must keep.
var stageKinds = []stageKind{
	{name: StageTrees, group: features.Boost, read: readTrees},
	{name: StageCRF, read: readCRF},
	{name: StageStack, group: features.Stack, needs: []string{StageCRF}, read: readStack},
	{name: StageContext, needs: []string{StageTrees, StageCRF}, read: readContext},
	{name: StageBlend, needs: []string{StageTrees, StageCRF}, make: func() Stage { return BlendStage{} }},
	{name: StageSmooth, needs: []string{StageCRF}, make: func() Stage { return SmoothStage{} }},
	{name: StageRegion, needs: []string{StageCRF}, make: func() Stage { return RegionStage{} }},
}

// StageNames returns the names of the kinds of stage, in the order a
// Labeller's list keeps them.
func StageNames() []string {
	names := make([]string, len(stageKinds))
	for i, k := range stageKinds {
		names[i] = k.name
	}
	return names
}

// stageKindOf returns the kind of stage name, and its index in stageKinds.
func stageKindOf(name string) (*stageKind, int) {
	for i := range stageKinds {
		if stageKinds[i].name == name {
			return &stageKinds[i], i
		}
	}
	return nil, -1
}

// CheckStages checks a list of stage names: each known, at most once, in
// the order of StageNames, with the stages it needs before it (a CRF
// always, and at most one of stack and context).
func CheckStages(names []string) error {
	last := -1
	for _, n := range names {
		k, i := stageKindOf(n)
		if k == nil {
			return fmt.Errorf("label: unknown stage %q (the stages are %s)", n, strings.Join(StageNames(), ", "))
		}
		if i <= last {
			return fmt.Errorf("label: stage %q is out of place or given twice: give stages in the order %s", n, strings.Join(StageNames(), ", "))
		}
		last = i
		for _, need := range k.needs {
			if !slices.Contains(names, need) {
				return fmt.Errorf("label: stage %q needs stage %q", n, need)
			}
		}
	}
	if !slices.Contains(names, StageCRF) {
		return errors.New("label: a labeller needs the crf stage")
	}
	if slices.Contains(names, StageStack) && slices.Contains(names, StageContext) {
		return errors.New("label: the stack and context stages each judge the CRF's verdict again: give one of them")
	}
	return nil
}

// StageGroups returns the feature groups that stage lists switch on or
// off (a stage's group is on exactly when the stage is in the list).
func StageGroups() []features.Group {
	var gs []features.Group
	for _, k := range stageKinds {
		if k.group != "" {
			gs = append(gs, k.group)
		}
	}
	return gs
}

// WithStages returns cfg with its stage list set to names and the groups
// of the stages switched on or off to match (see StageGroups).
func (cfg FeatureConfig) WithStages(names []string) FeatureConfig {
	cfg.Stages = slices.Clone(names)
	if _, ok := cfg.Off[features.Context]; ok {
		cfg.Off = maps.Clone(cfg.Off)
		delete(cfg.Off, features.Context)
	}
	for _, k := range stageKinds {
		if k.group == "" {
			continue
		}
		if slices.Contains(names, k.name) {
			cfg.switchOn(k.group)
		} else {
			cfg.switchOff(k.group)
		}
	}
	return cfg
}

// stageNames returns the names of stages.
func stageNames(stages []Stage) []string {
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = s.Name()
	}
	return names
}

// switchOff switches group g off in a copy of fc.Off, so that the
// caller's map is left alone.
func (fc *FeatureConfig) switchOff(g features.Group) {
	off := maps.Clone(fc.Off)
	if off == nil {
		off = map[features.Group]bool{}
	}
	off[g] = true
	fc.Off = off
}

// switchOn switches group g on in a copy of fc.Off.
func (fc *FeatureConfig) switchOn(g features.Group) {
	if !fc.Off[g] {
		return
	}
	off := maps.Clone(fc.Off)
	delete(off, g)
	fc.Off = off
}

// RemoveStage returns names without stage name and without the stages
// that need it (see CheckStages): without trees, no blend nor context.
func RemoveStage(names []string, name string) []string {
	var out []string
	for _, s := range names {
		k, _ := stageKindOf(s)
		if s == name || k != nil && slices.ContainsFunc(k.needs, func(need string) bool { return !slices.Contains(out, need) }) {
			continue
		}
		out = append(out, s)
	}
	return out
}
