package filter

import (
	"math"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

func TestDSCSeveralRegions(t *testing.T) {
	// Two articles separated by a navigation list: BTE keeps one region,
	// DSC finds both, and drops the links.
	bs := []fxBlock{fxPara(60)}
	bs = append(bs, fxNav(15)...)
	bs = append(bs, fxPara(60))
	p := fxPage(bs...)
	want := "K" + strings.Repeat(".", 15) + "K"
	if got := fxMask(Run(NewDSC(), p)); got != want {
		t.Errorf("dsc = %s, want %s", got, want)
	}
	if got := fxMask(Run(BTE{}, p)); got == want {
		t.Errorf("bte found both regions (%s); the test no longer shows the difference", got)
	}
}

func TestDSCShortBlocksBetweenText(t *testing.T) {
	// A heading and a one-line paragraph inside running text are kept:
	// their windows reach into the paragraphs around them.
	p := fxPage(fxPara(50), fxBlock{text: "A new hope", tags: 4}, fxPara(50),
		fxBlock{text: "He agreed.", tags: 2}, fxPara(50))
	if got := fxMask(Run(NewDSC(), p)); got != "KKKKK" {
		t.Errorf("dsc = %s, want KKKKK", got)
	}
}

func TestDSCSlope(t *testing.T) {
	// One block of 10 words and 10 inner tags, no tags before it, and a
	// window wider than the page: every word sees the whole page, slope
	// 10/20 = 0.5.
	p := fxPage(fxBlock{text: strings.Repeat("w ", 10), inner: 10})
	for _, c := range []struct {
		threshold float64
		want      float64
	}{{0.5, 1}, {0.49, 0}} {
		out := Run(DSC{Window: 100, Threshold: c.threshold}, p)
		if out[0] != c.want {
			t.Errorf("threshold %v: score %v, want %v", c.threshold, out[0], c.want)
		}
	}
	// The curve: 4 tags, then 8 words with 2 inner tags.
	p = fxPage(fxBlock{text: strings.Repeat("w ", 8), tags: 4, inner: 2})
	cv := tagCurve{bs: p.Blocks}
	cv.start()
	for _, c := range []struct{ t, want float64 }{{0, 0}, {2, 2}, {4, 4}, {9, 5}, {14, 6}, {20, 6}} {
		if got := cv.at(c.t); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("C(%v) = %v, want %v", c.t, got, c.want)
		}
	}
}

func TestDSCRepeated(t *testing.T) {
	// 3XDSC: a second pass, without the tags of the dropped blocks,
	// never keeps a block the first dropped and keeps the article.
	p, content := fxArticle()
	once := Run(NewDSC(), p)
	thrice := Run(Serial(NewDSC(), NewDSC(), NewDSC()), p)
	for i := range once {
		if once[i] < Keep && thrice[i] >= Keep {
			t.Errorf("block %d dropped by dsc, kept by 3*dsc", i)
		}
		if content[i] && p.Blocks[i].Words >= 40 && thrice[i] < Keep {
			t.Errorf("paragraph %d dropped by 3*dsc", i)
		}
	}
}

// naiveDSC evaluates the curve for every word.
func naiveDSC(d DSC, p *page.Page) []float64 {
	bs := p.Blocks
	out := make([]float64, len(bs))
	k := float64(max(d.Window, 1))
	var total float64
	for _, b := range bs {
		total += float64(b.Split.Tags) + float64(b.Units) + float64(b.InnerTags)
	}
	lo, hi := tagCurve{bs: bs}, tagCurve{bs: bs}
	lo.start()
	hi.start()
	var pos float64
	for i, b := range bs {
		body := pos + float64(b.Split.Tags)
		span := float64(b.Units) + float64(b.InnerTags)
		pos = body + span
		words := unitSlots(b.Units)
		if words == 0 {
			continue
		}
		text := 0
		for j := range words {
			t := body + (float64(j)+0.5)*span/float64(words)
			a, z := max(t-k, 0), min(t+k, total)
			if (hi.at(z)-lo.at(a))/(z-a) <= d.Threshold {
				text++
			}
		}
		out[i] = float64(text) / float64(words)
	}
	return out
}

func TestDSCInteriorShortcut(t *testing.T) {
	seed := uint32(7)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	for iter := range 3000 {
		n := 1 + rnd(10)
		bs := make([]fxBlock, n)
		for i := range bs {
			text := strings.Repeat("w ", rnd(80))
			if rnd(2) == 0 { // Chinese: fractional word-equivalents
				text = strings.Repeat("中", rnd(120))
			}
			bs[i] = fxBlock{text: text, tags: int32(rnd(8)), inner: int32(rnd(30))}
		}
		p := fxPage(bs...)
		d := DSC{Window: 1 + rnd(30), Threshold: 0.01 + float64(rnd(1000))/1234.5}
		got, want := Run(d, p), naiveDSC(d, p)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Fatalf("iteration %d, %+v, block %d: %v, naive %v", iter, d, i, got[i], want[i])
			}
		}
	}
}
