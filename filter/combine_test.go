package filter

import (
	"math"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// fxConst scores block i with scores[i], and records which blocks it saw.
type fxConst struct {
	name   string
	scores []float64
	saw    *[]bool
}

func (c fxConst) Name() string { return c.name }
func (c fxConst) Score(p *page.Page, active []bool, out []float64) {
	if c.saw != nil {
		*c.saw = make([]bool, len(p.Blocks))
	}
	for i := range p.Blocks {
		if live(active, i) {
			out[i] = c.scores[i]
			if c.saw != nil {
				(*c.saw)[i] = true
			}
		}
	}
}

func fxBlank(n int) *page.Page {
	bs := make([]fxBlock, n)
	for i := range bs {
		bs[i] = fxPara(5)
	}
	return fxPage(bs...)
}

func fxNear(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func fxSame(t *testing.T, what string, got, want []float64) {
	t.Helper()
	for i := range want {
		if !fxNear(got[i], want[i]) {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
	}
}

func TestUnionIntersection(t *testing.T) {
	p := fxBlank(4)
	a := fxConst{"a", []float64{0, 0.2, 0.7, 1}, nil}
	b := fxConst{"b", []float64{0.4, 0.9, 0.1, 1}, nil}
	c := fxConst{"c", []float64{0.3, 0.5, 0.6, 0}, nil}
	fxSame(t, "union", Run(Union(a, b, c), p), []float64{0.4, 0.9, 0.7, 1})
	fxSame(t, "inter", Run(Intersection(a, b, c), p), []float64{0, 0.2, 0.1, 0})
	if got := Union(a, Union(b, c)).Name(); got != "union(a,b,c)" {
		t.Errorf("nested union name %q", got)
	}
	if got := Intersection(a, Union(b, c)).Name(); got != "inter(a,union(b,c))" {
		t.Errorf("inter of union name %q", got)
	}
	if _, ok := Union(a).(fxConst); !ok {
		t.Errorf("Union of one filter is not that filter")
	}

	// With a mask: inactive entries untouched, children see the mask.
	var saw []bool
	a.saw = &saw
	out := []float64{7, 7, 7, 7}
	Union(a, b).Score(p, []bool{true, false, true, false}, out)
	fxSame(t, "masked union", out, []float64{0.4, 7, 0.7, 7})
	if saw[1] || saw[3] || !saw[0] || !saw[2] {
		t.Errorf("child saw %v", saw)
	}
}

func TestSerial(t *testing.T) {
	p := fxBlank(5)
	var sawB, sawC []bool
	a := fxConst{"a", []float64{0.9, 0.2, 0.8, 0.6, 0.5}, nil}
	b := fxConst{"b", []float64{0.1, 0.99, 0.7, 0.3, 1}, &sawB}
	c := fxConst{"c", []float64{0.99, 0.99, 0.6, 0.99, 0.4}, &sawC}
	s := Serial(a, b, c)
	if s.Name() != "a>b>c" {
		t.Errorf("name %q", s.Name())
	}
	out := []float64{7, 7, 7, 7, 7}
	s.Score(p, []bool{true, true, true, true, false}, out)
	// Block 0: a keeps, b drops -> 0.1. Block 1: a drops -> 0.2.
	// Block 2: all keep -> c's 0.6. Block 3: b drops -> 0.3. Block 4 inactive.
	fxSame(t, "a>b>c", out, []float64{0.1, 0.2, 0.6, 0.3, 7})
	if want := []bool{true, false, true, true, false}; !fxEqualBools(sawB, want) {
		t.Errorf("b saw %v, want %v", sawB, want)
	}
	if want := []bool{false, false, true, false, false}; !fxEqualBools(sawC, want) {
		t.Errorf("c saw %v, want %v", sawC, want)
	}

	if got := Serial(a, Serial(b, b), b, c).Name(); got != "a>3*b>c" {
		t.Errorf("name %q, want a>3*b>c", got)
	}
	if _, ok := Serial(a).(fxConst); !ok {
		t.Errorf("Serial of one filter is not that filter")
	}
}

func fxEqualBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestVote(t *testing.T) {
	p := fxBlank(8)
	// Every pattern of three keep/drop votes: block i's bit k says
	// whether filter k keeps it.
	mk := func(name string, bit int) fxConst {
		s := make([]float64, 8)
		for i := range s {
			if i>>bit&1 == 1 {
				s[i] = 0.8
			} else {
				s[i] = 0.3
			}
		}
		return fxConst{name, s, nil}
	}
	dsc, bte, accb := mk("dsc", 0), mk("bte", 1), mk("accb", 2)

	// MIX3: two of three.
	mix3 := Vote(nil, 2, dsc, bte, accb)
	if mix3.Name() != "vote(dsc,bte,accb;2)" {
		t.Errorf("name %q", mix3.Name())
	}
	out := Run(mix3, p)
	// votes per block: 0 1 1 2 1 2 2 3; W=3, t=2.
	fxSame(t, "mix3", out, []float64{0, 0.25, 0.25, 0.5, 0.25, 0.5, 0.5, 1})
	if got := fxMask(out); got != "...K.KKK" {
		t.Errorf("mix3 keeps %s", got)
	}

	// MIX4: DSC 1, BTE 1, ACCB 2, threshold 2: ACCB alone suffices.
	mix4 := Vote([]float64{1, 1, 2}, 2, dsc, bte, accb)
	if mix4.Name() != "vote(dsc,bte,accb:2;2)" {
		t.Errorf("name %q", mix4.Name())
	}
	out = Run(mix4, p)
	// votes: 0 1 1 2 2 3 3 4; W=4, t=2.
	fxSame(t, "mix4", out, []float64{0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1})

	// Edge thresholds.
	fxSame(t, "t=0", Run(Vote(nil, 0, dsc, bte, accb), p), []float64{0.5, 2. / 3, 2. / 3, 5. / 6, 2. / 3, 5. / 6, 5. / 6, 1})
	if got := fxMask(Run(Vote(nil, 4, dsc, bte, accb), p)); got != "........" {
		t.Errorf("unreachable threshold keeps %s", got)
	}
	if got := fxMask(Run(Vote(nil, 3, dsc, bte, accb), p)); got != ".......K" {
		t.Errorf("unanimity keeps %s", got)
	}

	if m := Majority([]float64{1, 1, 1}); m != 2 {
		t.Errorf("majority of 3 = %v", m)
	}
	if m := Majority([]float64{1, 1, 2}); m != 3 {
		t.Errorf("majority of 1,1,2 = %v", m)
	}
	if m := Majority([]float64{0.5, 1}); m != 0.75 {
		t.Errorf("majority of 0.5,1 = %v", m)
	}
}

func TestVotePanics(t *testing.T) {
	a := fxConst{"a", nil, nil}
	for name, fn := range map[string]func(){
		"count":    func() { Vote([]float64{1, 2}, 1, a) },
		"negative": func() { Vote([]float64{-1}, 1, a) },
		"nan":      func() { Vote(nil, math.NaN(), a) },
		"empty":    func() { Vote(nil, 1) },
		"serial":   func() { Serial() },
		"union":    func() { Union() },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			fn()
		}()
	}
}

// TestFiltersEdgePages runs every filter and some combinations on degenerate pages:
// no panic, no NaN, scores in [0,1].
func TestFiltersEdgePages(t *testing.T) {
	pages := map[string]*page.Page{
		"empty":    fxPage(),
		"single":   fxPage(fxPara(20)),
		"one link": fxPage(fxLink("Home")),
		"all link": fxPage(fxNav(15)...),
		"no words": fxPage(fxBlock{}, fxBlock{tags: 3}, fxBlock{tags: 0, inner: 2}),
		"mixed":    fxPage(fxBlock{}, fxPara(10), fxBlock{text: "|", tags: 5}, fxLink("x"), fxBlock{}),
		"no tags":  fxPage(fxBlock{text: "a b c"}, fxBlock{text: "d e"}),
	}
	var fs []Filter
	for _, name := range Names() {
		f, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	fs = append(fs, Serial(NewDSC(), NewDSC(), NewDSC()), Union(BTE{}, NewTTR()),
		Vote(nil, 2, BTE{}, NewDSC(), NewDensity()))
	for pname, p := range pages {
		for _, f := range fs {
			for _, active := range [][]bool{nil, make([]bool, len(p.Blocks))} {
				out := make([]float64, len(p.Blocks))
				f.Score(p, active, out)
				for i, s := range out {
					if math.IsNaN(s) || s < 0 || s > 1 {
						t.Errorf("%s on %s page (mask %v): block %d scored %v", f.Name(), pname, active != nil, i, s)
					}
				}
			}
		}
	}
	// A single paragraph is content for every method of this file set,
	// and an all-link page has none.
	for _, f := range []Filter{BTE{}, NewDSC(), NewTTR(), NewDensity()} {
		if out := Run(f, pages["single"]); out[0] < Keep {
			t.Errorf("%s drops the only paragraph of a page (%.3f)", f.Name(), out[0])
		}
		if f.Name() == "ttr" || f.Name() == "bte" {
			// TTR is relative to the page; BTE always finds its best
			// region, here the two words of "About us".
			continue
		}
		if out := Run(f, pages["all link"]); fxMask(out) != "..............." {
			t.Errorf("%s keeps links of an all-link page: %s", f.Name(), fxMask(out))
		}
	}
}

// fxSynthetic is a 500-block page: a header menu, an article of paragraphs
// with sub-headings and an embedded link list, a sidebar, comments and a
// footer.
func fxSynthetic() *page.Page {
	var bs []fxBlock
	bs = append(bs, fxNav(40)...)
	for len(bs) < 300 {
		bs = append(bs, fxBlock{text: "A sub-heading of the article", tags: 4})
		for i := range 12 {
			b := fxPara(20 + (len(bs)*7+i*13)%90)
			if i%4 == 1 {
				b.inner, b.link = 4, 12
			}
			bs = append(bs, b)
		}
		bs = append(bs, fxNav(6)...)
	}
	for len(bs) < 420 {
		bs = append(bs, fxLink("Related story with a longer title"), fxBlock{text: "12 comments", tags: 3})
	}
	for len(bs) < 480 {
		bs = append(bs, fxBlock{text: "Posted by reader", tags: 5}, fxPara(15+len(bs)%30))
	}
	bs = append(bs, fxNav(500-len(bs))...)
	return fxPage(bs...)
}

// BenchmarkFilters runs every registered filter and CombinE's combinations
// on a synthetic 500-block page.
func BenchmarkFilters(b *testing.B) {
	p := fxSynthetic()
	exprs := append(Names(), "lqf>bte", "3*dsc", "union(dsc,bte,accb-r40)", "vote(dsc,bte,accb-r40:2;2)")
	for _, expr := range exprs {
		f, err := Parse(expr)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(expr, func(b *testing.B) {
			out := make([]float64, len(p.Blocks))
			b.ReportAllocs()
			for b.Loop() {
				f.Score(p, nil, out)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}
