package train

import (
	"fmt"
	"maps"

	"github.com/sluice-project/sluice/features"
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
	j.cueFold = AssignFolds(groups, folds)
	j.cueExt = make([]*features.Extractor, folds)
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
	}
	return nil
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
	return j.cueExt[j.cueFold[i]]
}
