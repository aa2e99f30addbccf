package tableset

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/internal/atomicfile"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/tables"
)

// SampleOptions choose the tables Sample returns. Zero fields take the
// defaults.
type SampleOptions struct {
	// N is the number of tables (default 800), Seed the random seed.
	N    int
	Seed uint64
	// DataShare is the share of the sample drawn from the data-ish
	// tables, those whose tables.DataScore is at least MinScore (defaults
	// 0.4 and 0.3); the rest is drawn uniformly from the other tables.
	DataShare, MinScore float64
	// PerPage caps the tables taken from one page (default 3), SetShare
	// the share of the other (not data-ish) tables taken from one set
	// (default 0.35), so that the set with the most tables does not
	// dominate them; a set's tables beyond it are taken only when the
	// other sets run out.
	PerPage  int
	SetShare float64
}

func (o *SampleOptions) defaults() {
	if o.N <= 0 {
		o.N = 800
	}
	if o.DataShare <= 0 {
		o.DataShare = 0.4
	}
	if o.MinScore == 0 {
		o.MinScore = 0.3
	}
	if o.PerPage <= 0 {
		o.PerPage = 3
	}
	if o.SetShare <= 0 {
		o.SetShare = 0.35
	}
}

// Candidate is one leaf table of the sets, with the heuristic's score.
type Candidate struct {
	Ref
	// Order is the page's place in its set (for sorting in the set's
	// natural order).
	Order int
	// Score is tables.DataScore of the table's features.
	Score float64
}

// SampleStats says what Sample drew from.
type SampleStats struct {
	Pages, Failed, Tables, DataIsh int
	// Chosen and ChosenDataIsh count the sample, by set and in all ("").
	Chosen, ChosenDataIsh map[string]int
}

// Candidates segments every page of the sets (on all CPUs) and returns
// their leaf tables in set and page order, with the number of pages read
// and of pages that could not be read or segmented.
func (s *Source) Candidates(ctx context.Context, sets []string) (cands []Candidate, pages, failed int, err error) {
	type item struct {
		set   string
		order int
		id    string
	}
	var items []item
	for _, name := range sets {
		set, err := s.Set(name)
		if err != nil {
			return nil, 0, 0, err
		}
		for i, id := range set.IDs() {
			items = append(items, item{name, i, id})
		}
	}
	work := func(ctx context.Context, it item) ([]Candidate, error) {
		dp, err := s.sets[it.set].Page(it.id)
		if err != nil {
			return nil, err
		}
		p, err := Segment(ctx, s.cl, dp)
		if err != nil {
			return nil, err
		}
		var out []Candidate
		for t := range p.Tables {
			score := tables.DataScore(tables.Measure(p, &p.Tables[t]))
			out = append(out, Candidate{Ref: Ref{it.set, it.id, t}, Order: it.order, Score: score})
		}
		return out, nil
	}
	for cs, err := range parallel.Map(ctx, slices.Values(items), work, parallel.Options[item]{}) {
		pages++
		if err != nil {
			failed++
			continue
		}
		cands = append(cands, cs...)
	}
	return cands, pages, failed, ctx.Err()
}

// Sample chooses o.N leaf tables of the sets, deterministically for a seed:
// about o.DataShare of them among the tables the heuristic finds data-ish,
// so that data tables are well represented, the rest uniformly among the
// others, never more than o.PerPage from one page. The labels are ? and
// the tables come in set, page and table order.
func Sample(cands []Candidate, o SampleOptions) ([]TableLabel, SampleStats) {
	o.defaults()
	st := SampleStats{Tables: len(cands), Chosen: map[string]int{}, ChosenDataIsh: map[string]int{}}
	var dataIsh, other []Candidate
	for _, c := range cands {
		if c.Score >= o.MinScore {
			dataIsh = append(dataIsh, c)
		} else {
			other = append(other, c)
		}
	}
	st.DataIsh = len(dataIsh)
	rng := rand.New(rand.NewPCG(o.Seed, 0x7461626c65736574))
	rng.Shuffle(len(dataIsh), func(i, j int) { dataIsh[i], dataIsh[j] = dataIsh[j], dataIsh[i] })
	rng.Shuffle(len(other), func(i, j int) { other[i], other[j] = other[j], other[i] })
	perPage, perSet := map[[2]string]int{}, map[string]int{}
	var chosen []Candidate
	take := func(from []Candidate, n, setCap int) []Candidate {
		var rest []Candidate
		for _, c := range from {
			k := [2]string{c.Set, c.Page}
			if n <= 0 || perPage[k] >= o.PerPage || perSet[c.Set] >= setCap {
				rest = append(rest, c)
				continue
			}
			perPage[k]++
			perSet[c.Set]++
			chosen = append(chosen, c)
			n--
		}
		return rest
	}
	all := len(cands)
	dataIsh = take(dataIsh, int(float64(o.N)*o.DataShare+0.5), all)
	clear(perSet)
	quota := o.N - len(chosen)
	other = take(other, quota, int(float64(quota)*o.SetShare+0.5))
	other = take(other, o.N-len(chosen), all) // the capped sets fill what is left
	take(dataIsh, o.N-len(chosen), all)       // too few others: more data-ish ones
	slices.SortFunc(chosen, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(a.Set, b.Set), cmp.Compare(a.Order, b.Order), cmp.Compare(a.Table, b.Table))
	})
	out := make([]TableLabel, len(chosen))
	for i, c := range chosen {
		out[i] = TableLabel{Ref: c.Ref, Label: LabelUnknown}
		for _, k := range []string{"", c.Set} {
			st.Chosen[k]++
			if c.Score >= o.MinScore {
				st.ChosenDataIsh[k]++
			}
		}
	}
	return out, st
}

// Write prints the stats: what was read, and the sample by set.
func (st SampleStats) Write(w io.Writer) {
	fmt.Fprintf(w, "read %d pages (%d failed): %d leaf tables, %d data-ish\n", st.Pages, st.Failed, st.Tables, st.DataIsh)
	fmt.Fprintf(w, "chose %d tables, %d of them data-ish\n", st.Chosen[""], st.ChosenDataIsh[""])
	for _, s := range slices.Sorted(maps.Keys(st.Chosen)) {
		if s != "" {
			fmt.Fprintf(w, "  %-16s %4d (%d data-ish)\n", s, st.Chosen[s], st.ChosenDataIsh[s])
		}
	}
}

// SampleFile draws a sample from the sets (all of dataset.Sets when none
// are given) and writes it as a tables file at path, whole or not at all,
// with a comment line saying how it was made; the stats go to log.
func SampleFile(ctx context.Context, src *Source, sets []string, o SampleOptions, path string, log io.Writer) error {
	if len(sets) == 0 {
		var err error
		if sets, err = dataset.Sets(); err != nil {
			return err
		}
	}
	cands, pages, failed, err := src.Candidates(ctx, sets)
	if err != nil {
		return err
	}
	labels, st := Sample(cands, o)
	st.Pages, st.Failed = pages, failed
	o.defaults()
	var b bytes.Buffer
	fmt.Fprintf(&b, "# sluice tables sample --n %d --seed %d --sets %s\n", o.N, o.Seed, strings.Join(sets, ","))
	if err := WriteTables(&b, labels); err != nil {
		return err
	}
	st.Write(log)
	return atomicfile.WriteFile(path, b.Bytes(), 0o644)
}
