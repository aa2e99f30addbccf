package train

import (
	"fmt"
	"hash/fnv"
	"maps"

	"github.com/sluice-project/sluice/features"
	"github.com/sluice-project/sluice/internal/mix"
	"github.com/sluice-project/sluice/page"
)

// cueFolds is the number of folds in which the training pages' learned
// class/id cues are computed: each page's attributes read a table learned
// from the other folds' sites, so that the CRF and the trees learn how far
// to trust the cues on sites the table has not seen, as on new pages. The
// model keeps the table learned from every page.
const cueFolds = 5

// learnCues fills the feature configuration's learned cue tables from the
// examples (features.LearnCues for class/id tokens, features.LearnTextCues
// for text tokens) and, with more than one site, the extractors whose
// tables leave out each cue fold's sites. A table whose group is off is
// left empty; with both off it does nothing else.
func (j *job) learnCues() error {
	classOn, textOn := !j.fc.Off[features.LearnedCues], !j.fc.Off[features.TextCues]
	j.fc.Cues, j.fc.TextCues = nil, nil
	if !classOn && !textOn {
		return nil
	}
	samples := make([]features.CueSample, len(j.examples))
	groups := make([]string, len(j.examples))
	for i, ex := range j.examples {
		content := make([]bool, len(ex.Labels))
		for k, l := range ex.Labels {
			content[k] = l != page.Other
		}
		g := ex.Group
		if g == "" {
			g = fmt.Sprintf("#%d", i)
		}
		samples[i] = features.CueSample{Page: ex.Page, Content: content, Group: g}
		groups[i] = g
	}
	j.fc.Cues, j.fc.TextCues = learnTables(samples, classOn, textOn)
	folds := min(cueFolds, distinct(groups))
	if folds < 2 {
		return nil
	}
	if textOn && j.cfg.BlindSites > 0 {
		j.blind = make([]bool, len(groups))
		blind := map[string]bool{}
		for i, g := range groups {
			j.blind[i] = blindSite(g, j.cfg.BlindSites)
			if j.blind[i] {
				blind[g] = true
			}
		}
		j.stage(fmt.Sprintf("%d of %d sites read without text cues", len(blind), distinct(groups)))
	}
	j.cueFold = AssignFolds(groups, folds)
	j.cueExt = make([]*features.Extractor, folds)
	if j.blind != nil {
		j.blindExt = make([]*features.Extractor, folds)
	}
	for f := range folds {
		var rest []features.CueSample
		for i, s := range samples {
			if j.cueFold[i] != f {
				rest = append(rest, s)
			}
		}
		cfg := j.fc.Config
		cfg.Cues, cfg.TextCues = learnTables(rest, classOn, textOn)
		cfg.Off = maps.Clone(cfg.Off)
		ext, err := features.NewExtractor(cfg)
		if err != nil {
			return err
		}
		j.cueExt[f] = ext
		if j.blind != nil {
			cfg.TextCues = nil
			if j.blindExt[f], err = features.NewExtractor(cfg); err != nil {
				return err
			}
		}
	}
	return nil
}

// blindSite reports whether the pages of site g are among the share of
// the sites (Config.BlindSites) that training reads without the text cue
// table: those whose name hashes below share, so that a site is chosen the
// same way in every fold and every run.
func blindSite(g string, share float64) bool {
	h := fnv.New64a()
	h.Write([]byte(g))
	// FNV's top bits hardly move with a name's last bytes
	// ("site1", "site2"): mix them in.
	x := mix.Mix64(h.Sum64())
	return float64(x>>11)/(1<<53) < share
}

// learnTables learns the class/id and the text cue tables of samples, each
// when its group is on.
func learnTables(samples []features.CueSample, classOn, textOn bool) (class, text map[string]float32) {
	if classOn {
		class = features.LearnCues(samples, features.CueOptions{})
	}
	if textOn {
		text = features.LearnTextCues(samples, features.CueOptions{})
	}
	return class, text
}

// trainingExtractor returns the extractor of example i's training
// attributes: the one of its cue fold, or the model's.
func (j *job) trainingExtractor(i int) *features.Extractor {
	if j.cueExt == nil {
		return j.ext
	}
	if j.blind != nil && j.blind[i] {
		return j.blindExt[j.cueFold[i]]
	}
	return j.cueExt[j.cueFold[i]]
}
