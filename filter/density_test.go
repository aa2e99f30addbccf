package filter

import (
	"strings"
	"testing"
)

func TestTextDensity(t *testing.T) {
	long := strings.Repeat("abcdefghi ", 20) // 20 words of 9 letters: 8 per 80-char line
	for _, c := range []struct {
		s    string
		want float64
	}{
		{"", 0},
		{"| · |", 0},
		{"Home", 1},
		{"one two three", 3},
		{"one two — three", 3},
		{long, 8},                      // lines of 8, 8, 4: full lines 16 words / 2
		{strings.Repeat("x ", 40), 40}, // 80 chars with spaces: one line
		{strings.Repeat("x ", 41), 40}, // 41st word wraps: 40 words / 1 full line
		{"héllo wörld ünïcode", 3},
	} {
		if got := textDensity(c.s, 80); got != c.want {
			t.Errorf("textDensity(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

func TestDensityRule(t *testing.T) {
	d := func(text, link float64) densities { return densities{text: text, link: link} }
	for _, c := range []struct {
		p, c, n densities
		want    float64
	}{
		{d(20, 0), d(20, 0.34), d(20, 0), 0}, // link-dense
		{d(20, 0), d(20, 0.33), d(20, 0), 1},
		{d(3, 0), d(5, 0), d(5, 0), 0},   // short among short
		{d(3, 0), d(5, 0), d(11, 0), 1},  // short before long
		{d(5, 0), d(5, 0), d(2, 0), 1},   // short after long enough
		{d(20, 0), d(12, 0), d(0, 0), 0}, // long, last on the page
		{d(20, 0), d(12, 0), d(1, 0), 1},
		{d(2, 0.6), d(12, 0), d(11, 0), 0}, // after links, needs a long next
		{d(2, 0.6), d(2, 0), d(12, 0), 1},
	} {
		if got := densityRule(c.p, c.c, c.n, densityMaxLink); got != c.want {
			t.Errorf("densityRule(%v, %v, %v) = %v, want %v", c.p, c.c, c.n, got, c.want)
		}
	}
}

func TestDensityNeighbours(t *testing.T) {
	// A short line between two long paragraphs is kept; with the
	// paragraph after it inactive, its next neighbour is the footer link.
	p := fxPage(fxPara(60), fxBlock{text: "He agreed.", tags: 2}, fxPara(60), fxLink("Home"))
	if got := fxMask(Run(NewDensity(), p)); got != "KKK." {
		t.Errorf("density = %s, want KKK.", got)
	}
	out := make([]float64, 4)
	NewDensity().Score(p, []bool{false, true, false, true}, out)
	if got := fxMask(out); got != "...." {
		t.Errorf("density with paragraphs inactive = %s, want ....", got)
	}
}

// TestTextDensityShortcut: a text short enough to fit on one line is
// counted, not wrapped, with the same result, up to the width's bound.
func TestTextDensityShortcut(t *testing.T) {
	texts := []string{
		"", "a", "Home", "a b c d e f g h i j k l m n o p q r s t", "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r,s,t",
		"Über uns · Kontakt", "Главная страница", "x1 2y 3.5 4,000", "---", "l'été dernier", "e-mail: a@b.c",
		"Αρχική σελίδα", "مرحبا بالعالم", "首页 新闻", "ข่าว", "ニュース一覧",
		// Long ASCII texts, which wrap over many lines (WrapASCII's case).
		strings.Repeat("The committee didn't meet on 3.14 or 1,000; see e.g. __init__ and a_b at x.org. ", 6),
		strings.Repeat("supercalifragilisticexpialidocious ", 9) + "_ __ ... a",
	}
	for _, s := range texts {
		for width := 1; width <= 100; width++ {
			if got, want := textDensity(s, width), wrapDensity(s, width); got != want {
				t.Errorf("textDensity(%q, %d) = %v, wrapped %v", s, width, got, want)
			}
		}
	}
}
