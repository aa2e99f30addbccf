package filter

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// fxBlock describes one block of a hand-built page.
type fxBlock struct {
	text  string
	link  int   // characters inside <a href>; -1: all of them
	tags  int32 // Split.Tags, the tags crossed before the block
	inner int32 // InnerTags
}

// fxPage builds a page from block descriptions, computing Words, Units,
// Chars and LinkChars from the text. Every block hangs from a single root node.
func fxPage(bs ...fxBlock) *page.Page {
	p := &page.Page{
		Nodes: []page.Node{{Tag: "body", Parent: -1, First: 0, End: int32(len(bs)), Elements: 1, Structural: 1}},
	}
	for _, b := range bs {
		chars := int32(utf8.RuneCountInString(strings.ReplaceAll(b.text, " ", "")))
		link := int32(b.link)
		if b.link < 0 || link > chars {
			link = chars
		}
		p.Blocks = append(p.Blocks, page.Block{
			Text:      b.text,
			Split:     page.Split{Tags: b.tags, Block: b.tags},
			InnerTags: b.inner,
			Words:     int32(len(strings.Fields(b.text))),
			Units:     float32(textunit.WordEquivalents(b.text)),
			Chars:     chars,
			LinkChars: link,
			DivGroup:  0,
			TdGroup:   -1,
		})
	}
	return p
}

var fxWords = strings.Fields(`the committee met on tuesday to discuss the proposal for a new
	bridge across the river which several members said would relieve traffic in the
	old town while others worried about the cost and the noise during construction`)

// fxPara is a paragraph of n words after "</p><p>".
func fxPara(n int) fxBlock {
	w := make([]string, n)
	for i := range w {
		w[i] = fxWords[i%len(fxWords)]
	}
	return fxBlock{text: strings.Join(w, " "), tags: 2}
}

// fxLink is a navigation item, "</a></li><li><a href>label".
func fxLink(label string) fxBlock {
	return fxBlock{text: label, link: -1, tags: 4}
}

func fxNav(n int) []fxBlock {
	labels := []string{"Home", "News", "Sport", "Weather", "About us", "Contact", "Archive", "Login"}
	out := make([]fxBlock, n)
	for i := range out {
		out[i] = fxLink(labels[i%len(labels)])
	}
	return out
}

// fxArticle is a typical article page: a navigation bar, a heading, eight
// paragraphs of 40 to 75 words, and a footer of links. It returns the page and
// which blocks are main content.
func fxArticle() (*page.Page, []bool) {
	var bs []fxBlock
	var content []bool
	add := func(b fxBlock, c bool) {
		bs = append(bs, b)
		content = append(content, c)
	}
	for _, b := range fxNav(12) {
		add(b, false)
	}
	add(fxBlock{text: "New bridge for the old town", tags: 6}, true)
	for i := range 8 {
		add(fxPara(40+5*i), true)
	}
	for _, b := range fxNav(10) {
		add(b, false)
	}
	add(fxBlock{text: "Copyright 2024 The Daily Example", tags: 6}, false)
	return fxPage(bs...), content
}

func fxMask(scores []float64) string {
	var sb strings.Builder
	for _, s := range scores {
		if s >= Keep {
			sb.WriteByte('K')
		} else {
			sb.WriteByte('.')
		}
	}
	return sb.String()
}

func TestFiltersArticle(t *testing.T) {
	p, content := fxArticle()
	for _, name := range []string{"bte", "dsc", "ttr", "density"} {
		t.Run(name, func(t *testing.T) {
			f, err := Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			out := Run(f, p)
			for i, c := range content {
				if isPara := p.Blocks[i].Words >= 40; isPara && out[i] < Keep {
					t.Errorf("paragraph %d dropped (score %.3f)", i, out[i])
				}
				if !c && out[i] >= Keep {
					t.Errorf("boilerplate block %d %q kept (score %.3f)", i, p.Blocks[i].Text, out[i])
				}
			}
			t.Logf("%-8s %s", name, fxMask(out))
		})
	}
}

func TestBTERegion(t *testing.T) {
	// Values: 30 | nav: 20 blocks of 1-4 | 25: joining through the nav
	// costs far more than the second paragraph brings, so BTE keeps the
	// first paragraph only.
	bs := []fxBlock{fxPara(30)}
	bs = append(bs, fxNav(20)...)
	bs = append(bs, fxPara(25))
	p := fxPage(bs...)
	out := Run(BTE{}, p)
	if want := "K" + strings.Repeat(".", 20) + "."; fxMask(out) != want {
		t.Fatalf("bte = %s, want %s", fxMask(out), want)
	}

	// A short navigation run between two paragraphs is cheaper than
	// the second paragraph is worth: one region across all three.
	p = fxPage(fxPara(30), fxLink("Home"), fxLink("News"), fxPara(25))
	if got := fxMask(Run(BTE{}, p)); got != "KKKK" {
		t.Fatalf("bte = %s, want KKKK", got)
	}

	// Inner tags count against a block: a sentence with many inline
	// links is worth less than its words.
	p = fxPage(fxPara(10), fxBlock{text: "a b c d e f", tags: 2, inner: 12}, fxPara(3))
	if got := fxMask(Run(BTE{}, p)); got != "K.." {
		t.Fatalf("bte = %s, want K..", got)
	}
}

// bruteBTE is Finn et al.'s quadratic search over block-aligned regions.
func bruteBTE(p *page.Page) (int64, int, int) {
	best, bf, bl := int64(0), -1, -1
	for i := range p.Blocks {
		var v int64
		for j := i; j < len(p.Blocks); j++ {
			b := p.Blocks[j]
			if j > i {
				v -= int64(b.Split.Tags)
			}
			v += int64(b.Units) - int64(b.InnerTags)
			if v > best {
				best, bf, bl = v, i, j
			}
		}
	}
	return best, bf, bl
}

func TestBTEMatchesQuadratic(t *testing.T) {
	// Pseudo-random pages: the linear scan finds a region of the same
	// value as the quadratic search.
	seed := uint32(1)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	for iter := range 2000 {
		n := rnd(12)
		bs := make([]fxBlock, n)
		for i := range bs {
			bs[i] = fxBlock{text: strings.Repeat("w ", rnd(6)), tags: int32(rnd(6)), inner: int32(rnd(4))}
		}
		p := fxPage(bs...)
		want, _, _ := bruteBTE(p)
		out := Run(BTE{}, p)
		var got int64
		first := -1
		for i, s := range out {
			if s == 1 {
				if first < 0 {
					first = i
				} else {
					got -= int64(p.Blocks[i].Split.Tags)
				}
				got += int64(p.Blocks[i].Units) - int64(p.Blocks[i].InnerTags)
			}
		}
		if got != want {
			t.Fatalf("iteration %d: region value %d, quadratic optimum %d (%s)", iter, got, want, fxMask(out))
		}
	}
}

// TestFiltersActiveMask checks the contract of filter.go: inactive blocks keep
// their out entry and are absent from the computation.
func TestFiltersActiveMask(t *testing.T) {
	p, _ := fxArticle()
	n := len(p.Blocks)
	active := make([]bool, n)
	for i := range active {
		active[i] = i%3 != 1
	}
	fs := []Filter{BTE{}, NewDSC(), NewTTR(), NewDensity(),
		Serial(NewDSC(), BTE{}), Union(BTE{}, NewDSC()), Intersection(NewTTR(), NewDensity()),
		Vote(nil, 2, BTE{}, NewDSC(), NewTTR())}
	for _, name := range Names() {
		f, _ := Lookup(name)
		fs = append(fs, f)
	}
	for _, f := range fs {
		out := make([]float64, n)
		for i := range out {
			out[i] = 7
		}
		f.Score(p, active, out)
		for i, s := range out {
			if !active[i] && s != 7 {
				t.Errorf("%s: inactive block %d changed to %v", f.Name(), i, s)
			}
			if active[i] && !(s >= 0 && s <= 1) {
				t.Errorf("%s: active block %d scored %v", f.Name(), i, s)
			}
		}
	}
}

func TestBTEAbsentBlocks(t *testing.T) {
	// Paragraph, long navigation, paragraph: with the navigation active
	// BTE keeps one paragraph; with it inactive the navigation and the
	// tags before it are gone, and the two paragraphs form one region.
	bs := []fxBlock{fxPara(30)}
	bs = append(bs, fxNav(20)...)
	bs = append(bs, fxPara(25))
	p := fxPage(bs...)
	active := make([]bool, len(bs))
	active[0], active[len(bs)-1] = true, true
	out := make([]float64, len(bs))
	BTE{}.Score(p, active, out)
	if out[0] != 1 || out[len(bs)-1] != 1 {
		t.Fatalf("bte with navigation inactive = %v, want both paragraphs kept", out)
	}
}

// fxLQF stands in for a link quota filter: it drops link-dense blocks.
type fxLQF struct{}

func (fxLQF) Name() string { return "fxlqf" }
func (fxLQF) Score(p *page.Page, active []bool, out []float64) {
	for i, b := range p.Blocks {
		if !live(active, i) {
			continue
		}
		if b.Chars > 0 && float64(b.LinkChars)/float64(b.Chars) > 0.5 {
			out[i] = 0.1
		} else {
			out[i] = 0.9
		}
	}
}

func TestSerialLQFThenBTE(t *testing.T) {
	// CombinE's LQF_BTE: the link quota filter removes the navigation
	// embedded in the article, and BTE then finds one region across it.
	bs := []fxBlock{fxPara(30)}
	bs = append(bs, fxNav(20)...)
	bs = append(bs, fxPara(25))
	p := fxPage(bs...)
	n := len(bs)

	alone := Run(BTE{}, p)
	if alone[n-1] != 0 {
		t.Fatalf("bte alone kept the second paragraph: %s", fxMask(alone))
	}
	out := Run(Serial(fxLQF{}, BTE{}), p)
	if out[0] != 1 || out[n-1] != 1 {
		t.Errorf("lqf>bte = %s, want both paragraphs kept", fxMask(out))
	}
	for i := 1; i < n-1; i++ {
		if out[i] != 0.1 {
			t.Errorf("block %d dropped by the first stage has score %v, want its score 0.1", i, out[i])
		}
	}
}
