package cuetable

import (
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

// words is a Tokens of the lower-cased words of a block's text.
func words(p *page.Page, b int, dst []string) []string {
	for _, w := range strings.Fields(strings.ToLower(p.Blocks[b].Text)) {
		dst = append(dst, w)
	}
	return dst
}

// site is a page of a site with a menu block, a story block and, when
// extra is set, one more boilerplate block.
func site(n int, extra string) Sample {
	p := &page.Page{Blocks: []page.Block{
		{Text: "home about", Words: 2},
		{Text: fmt.Sprintf("story %d of the river", n), Words: 5},
	}}
	if extra != "" {
		p.Blocks = append(p.Blocks, page.Block{Text: extra, Words: int32(len(strings.Fields(extra)))})
	}
	return Sample{Page: p, Content: []bool{false, true, false}, Group: fmt.Sprintf("site%d", n)}
}

func TestLearn(t *testing.T) {
	var samples []Sample
	for n := range 4 {
		extra := ""
		if n < 2 {
			extra = "rare box"
		}
		samples = append(samples, site(n, extra))
	}
	table := Learn(samples, Options{}, words)
	if again := Learn(samples, Options{}, words); !maps.Equal(again, table) {
		t.Fatalf("a second run gives another table:\n%v\n%v", again, table)
	}
	if !(table["home"] < 0 && table["river"] > 0) {
		t.Errorf("home %v, river %v: want below and above 0", table["home"], table["river"])
	}
	if _, ok := table["rare"]; ok {
		t.Errorf("a token of two sites is in the table (MinSites 3)")
	}
	// Every site votes 1 for "river": (4 + 2·avg) / 6 against the average
	// content share avg (5 of 7 words on two sites, 5 of 9 on two).
	avg := (5.0/9 + 5.0/9 + 5.0/7 + 5.0/7) / 4
	want := logit((4+2*avg)/6) - logit(avg)
	if math.Abs(float64(table["river"])-want) > 1e-5 {
		t.Errorf("river = %v, want %v", table["river"], want)
	}
	if got := Learn(samples, Options{MaxTokens: 1}, words); len(got) != 1 {
		t.Errorf("MaxTokens 1: %d tokens", len(got))
	}
	if got := Learn(nil, Options{}, words); got != nil {
		t.Errorf("no samples: %v", got)
	}
}
