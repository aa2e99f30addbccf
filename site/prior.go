package site

import (
	"cmp"
	"slices"

	"github.com/sluice-project/sluice/internal/expectf1"
	"github.com/sluice-project/sluice/page"
)

// The path prior. The pages of one site are built from a few templates, and
// a template puts the same kind of text at the same place on every page:
// the article's paragraphs in one container, the related links in another.
// The labeller judges each page alone, and its verdicts on one container
// differ from page to page where the page gives it little evidence. The
// prior is what the labeller said, on the host's other pages, about the
// blocks at the same container path (tagPaths and the classes of the three
// nearest elements, as PathKey has it, without the text): a block's content
// score c becomes (1-w)·c + w·m, where m is the mean score of the blocks
// at its path on the n other pages that have such blocks and
// w = Prior·n/(n+priorPages), and the page is decided again by the
// expected-F1 rule (package expectf1). A block changes sides only in the
// direction the prior moved it; the page's other decisions (the
// labeller's region and structure stages) stay.
//
// Measured on held-out labels (docs/experiments.md, "Site models"): with
// the labeller's cross-validated marginals, cleanportaleval's CleanEval F1
// rises by about half a point and xmu-news-zh's by about one; sets without
// several pages of one site do not move.

// DefaultPrior is Options.Prior's weight when the prior is on.
const DefaultPrior = 0.9

// priorPages is the number of other pages at which the prior has half its
// weight: one other page counts a third, two a half, twenty 0.9.
const priorPages = 2

// priorOthers is the fewest other pages a model's prior judges a page by
// (Model.Judges): as for the template (DefaultMinPages), a host of two
// pages is cleaned page by page.
const priorOthers = DefaultMinPages

// pathStat is what a host's pages hold at one path: the mean content score
// of the path's blocks on each page that has some, summed, and the number
// of those pages.
type pathStat struct {
	sum   float64
	pages uint32
}

// pathMean is one path of one page and the mean score of its blocks there.
type pathMean struct {
	key  uint64
	mean float64
}

// pathKeys returns the path of every block of p in s.keys: the element's
// tag path and the classes of the three nearest elements (blockPath).
func (s *scratch) pathKeys(p *page.Page) []uint64 {
	s.tags = tagPaths(s.tags, p)
	s.keys = s.keys[:0]
	for i := range p.Blocks {
		s.keys = append(s.keys, blockPath(p, s.tags, p.Blocks[i].Node))
	}
	return s.keys
}

// pathMeans returns, sorted by path, the mean score of p's blocks at each
// of its paths, in s.means; keys are p's block paths (pathKeys).
func (s *scratch) pathMeans(p *page.Page, keys []uint64) []pathMean {
	s.means = s.means[:0]
	for i, k := range keys {
		s.means = append(s.means, pathMean{k, p.Blocks[i].Score})
	}
	slices.SortStableFunc(s.means, func(a, b pathMean) int { return cmp.Compare(a.key, b.key) })
	out := s.means[:0]
	for i := 0; i < len(s.means); {
		j, sum := i, 0.0
		for ; j < len(s.means) && s.means[j].key == s.means[i].key; j++ {
			sum += s.means[j].mean
		}
		out = append(out, pathMean{s.means[i].key, sum / float64(j-i)})
		i = j
	}
	s.means = out
	return out
}

// addPaths adds p's path means to the Builder's table.
func (b *Builder) addPaths(p *page.Page) {
	for _, pm := range b.s.pathMeans(p, b.s.pathKeys(p)) {
		st, ok := b.paths[pm.key]
		if !ok && len(b.paths) >= b.opts.MaxEntries {
			b.prunePaths(b.opts.MaxEntries / 2)
		}
		st.sum += pm.mean
		if st.pages < ^uint32(0) {
			st.pages++
		}
		b.paths[pm.key] = st
	}
}

// prunePaths drops the paths seen on the fewest pages until at most target
// remain, as prune does for fingerprints.
func (b *Builder) prunePaths(target int) {
	for level := uint32(1); len(b.paths) > target; level++ {
		for k, st := range b.paths {
			if st.pages <= level {
				delete(b.paths, k)
			}
		}
	}
}

// ApplyPrior decides the labelled page p again under the model's path
// prior (see above) and returns the blocks it dropped and kept anew. member
// is as for Template: p's own scores are taken out of the table. Nothing
// changes when the model has no prior (Options.Prior 0), when no block of
// p has a path the other pages have, or when the expected-F1 rule keeps
// nothing of p, before the prior or after it (a page the labeller was sure
// of nothing on was cleaned by the heuristic pipeline instead).
func (m *Model) ApplyPrior(p *page.Page, member bool) (dropped, kept int) {
	if m == nil || m.opts.Prior <= 0 || len(m.paths) == 0 || m.others(member) < priorOthers {
		return 0, 0
	}
	if !slices.ContainsFunc(p.Blocks, func(b page.Block) bool { return b.Score >= sureContent }) {
		// The labeller was sure of nothing: the page was cleaned by the
		// heuristic pipeline instead (sluice.Cleaner), its scores are not
		// the model's, or decided on scaled probabilities
		// (label.UnsureContent), which a blend with other pages' would
		// not respect.
		return 0, 0
	}
	var s scratch
	keys := s.pathKeys(p) // pathMeans below writes s.means, not s.keys
	var own []pathMean
	if member {
		own = s.pathMeans(p, keys)
	}
	moved := false
	scores := make([]float64, len(p.Blocks))
	for i, k := range keys {
		c := p.Blocks[i].Score
		scores[i] = c
		st := m.paths[k]
		if member && st.pages > 0 {
			if j, ok := slices.BinarySearchFunc(own, k, func(a pathMean, k uint64) int { return cmp.Compare(a.key, k) }); ok {
				st.sum -= own[j].mean
				st.pages--
			}
		}
		if st.pages == 0 {
			continue
		}
		n := float64(st.pages)
		w := m.opts.Prior * n / (n + priorPages)
		scores[i] = (1-w)*c + w*min(max(st.sum/n, 0), 1)
		moved = moved || scores[i] != c
	}
	if !moved {
		return 0, 0
	}
	bs := make([]expectf1.Block, len(p.Blocks))
	for i := range p.Blocks {
		bs[i] = expectf1.Block{P: scores[i], W: float64(p.Blocks[i].Words)}
	}
	cut := expectf1.Cut(bs, sureContent)
	if cut > 1 {
		return 0, 0
	}
	drop := make([]bool, len(p.Blocks))
	var gain []int
	for i := range p.Blocks {
		b := &p.Blocks[i]
		was := b.Score
		b.Score = scores[i]
		switch {
		case b.Label.Kept() && scores[i] < cut && scores[i] < was:
			drop[i] = true
		case !b.Label.Kept() && scores[i] >= cut && scores[i] > was:
			gain = append(gain, i)
		}
	}
	dropped = Remove(p, drop)
	for _, i := range gain {
		keepBlock(p, i)
	}
	return dropped, len(gain)
}

// sureContent is the labeller's label.SureContent, which this package
// cannot import: the content probability one block must reach for the
// expected-F1 rule to keep anything.
const sureContent = 0.5
