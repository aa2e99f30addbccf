package filter

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/textunit"
)

// ccbtBuilder builds a page.Page by hand, the way segment would for the
// same markup, so that the tests of ccb.go, lqf.go and targetnode.go do not
// depend on the segmenter. It starts with <html><body> open.
type ccbtBuilder struct {
	p       page.Page
	stack   []int32 // open elements
	structs []int32 // structural count when each open element was opened
	nstruct int32
	split   page.Split // tags crossed since the last block
	open    bool       // the last block can still take inner tags
}

var ccbtStructural = map[string]bool{
	"body": true, "div": true, "p": true, "ul": true, "ol": true, "li": true,
	"table": true, "tbody": true, "tr": true, "td": true, "th": true,
	"h1": true, "h2": true, "h3": true, "nav": true, "section": true,
	"article": true, "header": true, "footer": true, "aside": true,
	"main": true, "form": true, "br": true, "hr": true, "blockquote": true,
}

func ccbtNew() *ccbtBuilder {
	b := &ccbtBuilder{}
	b.push("html", true)
	b.p.Body = b.push("body", true)
	return b
}

// push opens an element; block-level ones end the open block.
func (b *ccbtBuilder) push(tag string, block bool) int32 {
	parent, depth := int32(-1), int32(0)
	if len(b.stack) > 0 {
		parent = b.stack[len(b.stack)-1]
		depth = b.p.Nodes[parent].Depth + 1
	}
	idx := int32(len(b.p.Nodes))
	b.p.Nodes = append(b.p.Nodes, page.Node{Tag: tag, Parent: parent, Depth: depth, First: int32(len(b.p.Blocks))})
	b.stack = append(b.stack, idx)
	b.structs = append(b.structs, b.nstruct)
	if ccbtStructural[tag] {
		b.nstruct++
	}
	if depth > 0 {
		b.tag(block, tag == "a")
	}
	return idx
}

func (b *ccbtBuilder) tag(block, link bool) {
	if block {
		b.open = false
	}
	if b.open && !block {
		last := &b.p.Blocks[len(b.p.Blocks)-1]
		last.InnerTags++
		if link {
			last.InnerLinkTags++
		}
		return
	}
	b.split.Tags++
	if block {
		b.split.Block++
	} else {
		b.split.Inline++
	}
	if link {
		b.split.Links++
	}
}

// Open opens a block-level element.
func (b *ccbtBuilder) Open(tag string) *ccbtBuilder { b.push(tag, true); return b }

// Close closes the innermost open element.
func (b *ccbtBuilder) Close() *ccbtBuilder {
	top := len(b.stack) - 1
	idx := b.stack[top]
	nd := &b.p.Nodes[idx]
	nd.End = int32(len(b.p.Blocks))
	nd.Elements = int32(len(b.p.Nodes)) - idx
	nd.Structural = b.nstruct - b.structs[top]
	b.stack, b.structs = b.stack[:top], b.structs[:top]
	if nd.Depth > 0 {
		b.tag(nd.Tag != "a" && nd.Tag != "span" && nd.Tag != "b", nd.Tag == "a")
	}
	return b
}

// Text adds a block of plain text in the innermost open element.
func (b *ccbtBuilder) Text(s string) *ccbtBuilder { return b.Rich(s, 0, 0) }

// Rich adds a block of text with links inline <a href> elements inside it
// (2*links inner tags) holding linkChars of its characters.
func (b *ccbtBuilder) Rich(s string, links int, linkChars int32) *ccbtBuilder {
	words := strings.Fields(s)
	var chars int32
	for _, w := range words {
		chars += int32(utf8.RuneCountInString(w))
	}
	b.p.Blocks = append(b.p.Blocks, page.Block{
		Text: strings.Join(words, " "), Node: b.stack[len(b.stack)-1], Split: b.split,
		InnerTags: int32(2 * links), InnerLinkTags: int32(2 * links),
		Words: int32(len(words)), Units: float32(textunit.WordEquivalents(s)), Chars: chars, LinkChars: min(linkChars, chars),
		DivGroup: -1, TdGroup: -1,
	})
	b.split = page.Split{}
	b.open = true
	return b
}

// Link adds a block that is all anchor text: <a href>s</a>.
func (b *ccbtBuilder) Link(s string) *ccbtBuilder {
	b.push("a", false)
	b.Text(s)
	last := &b.p.Blocks[len(b.p.Blocks)-1]
	last.LinkChars = last.Chars
	return b.Close()
}

// Item adds <li><a href>s</a></li>.
func (b *ccbtBuilder) Item(s string) *ccbtBuilder { return b.Open("li").Link(s).Close() }

// Para adds <p>s</p>.
func (b *ccbtBuilder) Para(s string) *ccbtBuilder { return b.Open("p").Text(s).Close() }

// Page closes every open element and returns the page.
func (b *ccbtBuilder) Page() *page.Page {
	for len(b.stack) > 0 {
		b.Close()
	}
	return &b.p
}

// ccbtWords returns n distinct-looking words of text.
func ccbtWords(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("word%d", i%7)
	}
	return strings.Join(w, " ")
}

// ccbtMenu adds a <ul> of n one-word links.
func ccbtMenu(b *ccbtBuilder, n int) {
	b.Open("ul")
	for i := range n {
		b.Item(fmt.Sprintf("Menu%d", i))
	}
	b.Close()
}

// ccbtArticle is a page with a navigation menu, an article of long
// paragraphs and a footer menu. It returns the page and the block ranges
// of the three parts.
func ccbtArticle() (p *page.Page, nav, main, foot [2]int) {
	b := ccbtNew()
	b.Open("div")
	ccbtMenu(b, 12)
	b.Close()
	nav = [2]int{0, len(b.p.Blocks)}
	b.Open("div").Open("h1").Text("A title of the story").Close()
	for range 5 {
		b.Para(ccbtWords(60))
	}
	b.Close()
	main = [2]int{nav[1], len(b.p.Blocks)}
	b.Open("div")
	ccbtMenu(b, 6)
	b.Close()
	foot = [2]int{main[1], len(b.p.Blocks)}
	return b.Page(), nav, main, foot
}

func ccbtRun(t *testing.T, name string, p *page.Page, active []bool) []float64 {
	t.Helper()
	f, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, len(p.Blocks))
	for i := range out {
		out[i] = -7 // sentinel: must stay for inactive blocks
	}
	f.Score(p, active, out)
	for i, s := range out {
		if active != nil && !active[i] {
			if s != -7 {
				t.Errorf("%s: inactive block %d was written: %v", name, i, s)
			}
			continue
		}
		if math.IsNaN(s) || s < 0 || s > 1 {
			t.Errorf("%s: block %d score %v out of [0,1]", name, i, s)
		}
	}
	return out
}

func ccbtKept(s float64) bool { return s >= Keep }

func TestCCBArticle(t *testing.T) {
	p, nav, main, foot := ccbtArticle()
	for _, name := range []string{"ccb", "accb", "accb-r40", "tccb"} {
		out := ccbtRun(t, name, p, nil)
		for i := main[0] + 1; i < main[1]; i++ { // the paragraphs
			if !ccbtKept(out[i]) {
				t.Errorf("%s: paragraph block %d dropped (%.3f)", name, i, out[i])
			}
		}
		for _, r := range [][2]int{nav, foot} {
			for i := r[0]; i < r[1]; i++ {
				if ccbtKept(out[i]) {
					t.Errorf("%s: menu block %d kept (%.3f)", name, i, out[i])
				}
			}
		}
	}
}

// A paragraph with many inline links: CCB counts their markup as code and
// lowers it below the threshold, ACCB ignores it and keeps it.
func TestACCBKeepsLinkedParagraph(t *testing.T) {
	b := ccbtNew()
	ccbtMenu(b, 8)
	b.Open("div")
	b.Open("p").Rich(ccbtWords(40), 12, 80).Close()
	b.Close()
	ccbtMenu(b, 8)
	p := b.Page()
	i := 8 // the paragraph
	ccb := ccbtRun(t, "ccb", p, nil)[i]
	accb := ccbtRun(t, "accb", p, nil)[i]
	if !(accb > ccb) {
		t.Errorf("accb %.3f not above ccb %.3f", accb, ccb)
	}
	if ccbtKept(ccb) || !ccbtKept(accb) {
		t.Errorf("want ccb dropping (%.3f) and accb keeping (%.3f) the linked paragraph", ccb, accb)
	}
}

// Inactive blocks count for nothing: a short line between two menus is
// dropped, and rises well above that once the menus have been removed
// (only the tags just before it still count).
func TestCCBActive(t *testing.T) {
	b := ccbtNew()
	ccbtMenu(b, 15)
	b.Open("div").Text(ccbtWords(6)).Close()
	ccbtMenu(b, 15)
	p := b.Page()
	mid := 15
	for _, name := range []string{"ccb", "accb", "tccb"} {
		all := ccbtRun(t, name, p, nil)[mid]
		if ccbtKept(all) {
			t.Errorf("%s: line between menus kept (%.3f)", name, all)
		}
		active := make([]bool, len(p.Blocks))
		active[mid] = true
		alone := ccbtRun(t, name, p, active)[mid]
		if alone < all+0.1 {
			t.Errorf("%s: line alone %.3f, between menus %.3f: the menus still count", name, alone, all)
		}
	}
}

// ccbtEdgePages are pages that must not make any filter panic or return NaN.
func ccbtEdgePages() map[string]*page.Page {
	one := ccbtNew().Para("Just one paragraph of text.").Page()
	zero := ccbtNew().Para("x").Page()
	zero.Blocks[0].Chars, zero.Blocks[0].Words, zero.Blocks[0].Units, zero.Blocks[0].LinkChars = 0, 0, 0, 0
	noNodes := &page.Page{Blocks: []page.Block{{Text: "text", Words: 1, Units: 1, Chars: 4, Node: -1}}}
	bad := ccbtNew().Para("some words here").Page()
	bad.Body = 99
	bad.Blocks[0].Node = 42
	bad.Nodes[1].End = 50
	bad.Nodes[1].Elements = 0
	return map[string]*page.Page{
		"empty":    {},
		"body":     ccbtNew().Page(),
		"one":      one,
		"zero":     zero,
		"no nodes": noNodes,
		"bad":      bad,
	}
}

func TestCCBFamilyEdgeCases(t *testing.T) {
	for pname, p := range ccbtEdgePages() {
		for _, name := range []string{"ccb", "accb", "accb-r40", "tccb", "lqf", "targetnode", "targetnode-sparse"} {
			t.Run(pname+"/"+name, func(t *testing.T) {
				ccbtRun(t, name, p, nil)
				none := make([]bool, len(p.Blocks))
				ccbtRun(t, name, p, none)
				all := make([]bool, len(p.Blocks))
				for i := range all {
					all[i] = true
				}
				ccbtRun(t, name, p, all)
			})
		}
	}
}

func TestCCBOneBlockKept(t *testing.T) {
	p := ccbtNew().Para(ccbtWords(30)).Page()
	for _, name := range []string{"ccb", "accb", "tccb", "lqf", "targetnode"} {
		if s := ccbtRun(t, name, p, nil)[0]; !ccbtKept(s) {
			t.Errorf("%s: the only paragraph dropped (%.3f)", name, s)
		}
	}
}

func TestCCBRatioScore(t *testing.T) {
	for _, c := range []struct{ x, t, want float64 }{
		{0, 0.5, 0}, {1, 0.5, 1}, {0.5, 0.5, 0.5}, {0.25, 0.5, 0.25},
		{0.7, 0.7, 0.5}, {0.35, 0.7, 0.25}, {math.NaN(), 0.5, 0}, {2, 0.5, 1}, {-1, 0.5, 0},
		{0.5, 0, 0.5}, // a degenerate threshold falls back to Keep
	} {
		if got := ccbRatioScore(c.x, c.t); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ccbRatioScore(%v, %v) = %v, want %v", c.x, c.t, got, c.want)
		}
	}
}

func TestCCBLayoutEach(t *testing.T) {
	for _, l := range []ccbLayout{
		{content: 10, tags: 3, tagLen: 2},
		{content: 2, tags: 5, tagLen: 1},
		{content: 0, tags: 2, tagLen: 4},
		{content: 7},
	} {
		var n, last int
		l.each(100, func(lo, hi int) {
			if lo < last || hi <= lo {
				t.Errorf("%+v: bad range [%d,%d) after %d", l, lo, hi, last)
			}
			n += hi - lo
			last = hi
		})
		if n != l.content {
			t.Errorf("%+v: %d content elements, want %d", l, n, l.content)
		}
		if last > 100+l.content+l.tags*l.tagLen {
			t.Errorf("%+v: content runs past the layout", l)
		}
	}
}

// ccbtSynthetic is a 500-block page: navigation, an article with linked
// paragraphs, a sidebar table and a footer, repeated.
func ccbtSynthetic() *page.Page {
	b := ccbtNew()
	for len(b.p.Blocks) < 500 {
		b.Open("div")
		ccbtMenu(b, 10)
		b.Close()
		b.Open("div").Open("h2").Text("Section heading here").Close()
		for j := range 6 {
			b.Open("p").Rich(ccbtWords(40+j*7), j%3, int32(j%3)*12).Close()
		}
		b.Close()
		b.Open("table").Open("tr")
		for range 8 {
			b.Open("td").Text("cell value").Close()
		}
		b.Close().Close()
	}
	p := b.Page()
	p.Blocks = p.Blocks[:500]
	return p
}

func ccbtBench(b *testing.B, name string) {
	p := ccbtSynthetic()
	f, err := Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	out := make([]float64, len(p.Blocks))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f.Score(p, nil, out)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
}

func BenchmarkCCB(b *testing.B)  { ccbtBench(b, "ccb") }
func BenchmarkACCB(b *testing.B) { ccbtBench(b, "accb") }
func BenchmarkTCCB(b *testing.B) { ccbtBench(b, "tccb") }

// ccbBox against the obvious quadratic average, at every length around
// the window size.
func TestCCBBox(t *testing.T) {
	for n := 1; n < 30; n++ {
		for h := 1; h < 8; h++ {
			src := make([]float32, n)
			for i := range src {
				src[i] = float32((i*7)%5) / 4
			}
			dst := make([]float32, n)
			ccbBox(src, dst, h)
			for i := range n {
				var s float64
				lo, hi := max(i-h, 0), min(i+h, n-1)
				for j := lo; j <= hi; j++ {
					s += float64(src[j])
				}
				want := s / float64(hi-lo+1)
				if math.Abs(float64(dst[i])-want) > 1e-6 {
					t.Fatalf("n=%d h=%d i=%d: %v, want %v", n, h, i, dst[i], want)
				}
			}
		}
	}
}

// Blurring keeps a constant vector constant and a step monotone, and stays
// in [0, 1].
func TestCCBBlur(t *testing.T) {
	c := NewACCB()
	v := make([]float32, 500)
	tmp := make([]float32, 500)
	for i := range v {
		v[i] = 1
	}
	c.blur(v, tmp)
	for i, x := range v {
		if math.Abs(float64(x)-1) > 1e-5 {
			t.Fatalf("constant vector: v[%d] = %v", i, x)
		}
	}
	for i := range v {
		v[i] = 0
		if i >= 250 {
			v[i] = 1
		}
	}
	c.blur(v, tmp)
	for i := 1; i < len(v); i++ {
		if v[i] < v[i-1]-1e-6 || v[i] < 0 || v[i] > 1 {
			t.Fatalf("step: v[%d] = %v after v[%d] = %v", i, v[i], i-1, v[i-1])
		}
	}
	if v[0] != 0 || v[499] != 1 || math.Abs(float64(v[249]+v[250])-1) > 1e-3 {
		t.Errorf("step ends %v %v, middle %v %v", v[0], v[499], v[249], v[250])
	}
}
