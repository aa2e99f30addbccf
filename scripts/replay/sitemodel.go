package main

import (
	"slices"

	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
	"github.com/sluice-project/sluice/train"
)

// siteModels are the site models replay applies as sluice corpus --site
// does: each page decided from its held-out marginals (the expected-F1
// rule), then corrected by the model of its site's pages (dataset
// Page.Site), itself among them (leave-one-out: member true).
var siteModels = map[string]site.Options{
	"site":         {},                                            // template evidence dropped
	"site+rescue":  {Rescue: true},                                // and prose next to the content kept
	"site+prior":   {Prior: site.DefaultPrior},                    // the template and the path prior: corpus's default
	"prior":        {Prior: site.DefaultPrior, MinPages: 1 << 30}, // the path prior alone
	"site+prior50": {Prior: 0.5},
	"site+prior75": {Prior: 0.75},
	"site+prior1":  {Prior: 1},
}

// applySiteModel decides every page, corrects it with its site's model and
// writes the result back as marginals that decide the same way (one-hot
// rows). A page the labeller keeps nothing of is left as it is: scoring
// falls back to the heuristic pipeline there, as sluice corpus does.
func applySiteModel(opts site.Options, lab *label.Labeller, kept []*train.TrainPage, marg [][][]float64, other int) {
	decided := make([]*page.Page, len(kept))
	bySite := map[string][]int{}
	for i, p := range kept {
		pg := *p.Example.Page
		pg.Blocks = slices.Clone(pg.Blocks)
		lab.Decide(&pg, marg[i], label.ExpectedF1)
		if !slices.ContainsFunc(pg.Blocks, func(b page.Block) bool { return b.Label.Kept() }) || p.Data.Site == "" {
			continue
		}
		decided[i] = &pg
		key := p.Data.Set + "/" + p.Data.Site
		bySite[key] = append(bySite[key], i)
	}
	for _, members := range bySite {
		b := site.NewBuilder(opts)
		for _, i := range members {
			b.Add(decided[i])
		}
		m := b.Build()
		for _, i := range members {
			if m.Judges(true) {
				m.Apply(decided[i], true)
			}
			oneHot(decided[i], marg[i], other)
		}
	}
}

// oneHot writes p's decisions into marg: a kept block's row is 1 on its
// label, a dropped one's on other.
func oneHot(p *page.Page, marg [][]float64, other int) {
	for i := range p.Blocks {
		clear(marg[i])
		l := p.Blocks[i].Label
		k := other
		if l.Kept() {
			k = slices.Index(label.Labels, l.String())
		}
		marg[i][k] = 1
	}
}
