package site_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

// keptText returns the texts of the kept blocks of p.
func keptText(p *page.Page) []string {
	var out []string
	for _, b := range p.Blocks {
		if b.Label.Kept() {
			out = append(out, b.Text)
		}
	}
	return out
}

// article is a page of the thesis's first archetype (section 3.2): a
// template around an article, with a sidebar box.
func wccArticle(t *testing.T, headline, byline string, paras []string, box string) *page.Page {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`<html><body><div id="top"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></div>
<div id="page"><div id="article"><h1>` + headline + `</h1>` + byline)
	for _, p := range paras {
		sb.WriteString("<p>" + p + "</p>\n")
	}
	sb.WriteString(`</div><div id="side">` + box + `</div></div>
<div id="foot"><p>Copyright 2009 The Example Times</p></div></body></html>`)
	return pagetest.Parse(t, sb.String())
}

var (
	stormText = []string{"The stormText reached the coast on Monday night and flooded the lower town, where the river broke its banks.",
		"Emergency services worked through the night to move families from the houses nearest the water."}
	voteText = []string{"Voters go to the polls next Tuesday in an election that the polls call too close to predict.",
		"Both candidates spent the last weekend of the campaign in the towns of the north."}
	bridgeText = []string{"The new bridgeText over the estuary took five years to build and opened to traffic this morning.",
		"It cuts the drive between the two towns from an hour to twenty minutes, its builders say."}
)

func TestCleanMultiFileContentOnly(t *testing.T) {
	// Two (here three) pages of one site that differ only in their
	// content: the template is dropped, each article kept whole. The
	// median page, the reference, is cleaned against another page.
	pages := []*page.Page{
		wccArticle(t, "Storm hits the coast", "", stormText, ""),
		wccArticle(t, "Elections next week", "", voteText, ""),
		wccArticle(t, "New bridgeText opens", "", bridgeText, ""),
	}
	out, err := site.CleanMultiFile(pages, []int{100, 300, 200}, nil, site.MultiFileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	heads := []string{"Storm hits the coast", "Elections next week", "New bridgeText opens"}
	texts := [][]string{stormText, voteText, bridgeText}
	wantRef := []int{2, 2, 0} // the median is page 2; page 2 against the median of the others
	for i, p := range pages {
		want := append([]string{heads[i]}, texts[i]...)
		if got := keptText(p); !slices.Equal(got, want) {
			t.Errorf("page %d kept %q, want %q", i, got, want)
		}
		if out[i].Mode != site.Diffed || out[i].Reference != wantRef[i] || out[i].Common != 3 || out[i].Kept != 3 {
			t.Errorf("page %d: %+v", i, out[i])
		}
	}
}

func TestCleanMultiFilePostedBy(t *testing.T) {
	// The thesis's "posted by Jack F." against "posted by anonymous"
	// leaves "Jack F.". Here a block is common or not as a whole: where
	// the byline's label is a block of its own (a line break after it),
	// the label is dropped and the name kept; where it runs on with the
	// name, the whole line is kept.
	p := wccArticle(t, "Storm", `<div class="by">Posted by<br>Jack F.</div><div class="by2">Filed by Jack F. in News</div>`, stormText, "")
	ref := wccArticle(t, "Vote", `<div class="by">Posted by<br>anonymous</div><div class="by2">Filed by anonymous in News</div>`, voteText, "")
	if _, err := site.CleanMultiFile([]*page.Page{p}, nil, ref, site.MultiFileOptions{}); err != nil {
		t.Fatal(err)
	}
	got := keptText(p)
	if slices.Contains(got, "Posted by") || !slices.Contains(got, "Jack F.") || !slices.Contains(got, "Filed by Jack F. in News") {
		t.Errorf("kept %q: want the name without its label, and the run-on line whole", got)
	}
}

// index is a page of the same site with another structure: a listing of
// short links in a table, no article.
func wccIndex(t *testing.T) *page.Page {
	t.Helper()
	var sb strings.Builder
	sb.WriteString(`<html><body><div id="top"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></div><table>`)
	for _, s := range []string{"Storm", "Vote", "Bridge", "Markets", "Weather", "Sport"} {
		sb.WriteString(`<tr><td><a href="/` + s + `">` + s + `</a></td><td>2009</td></tr>`)
	}
	sb.WriteString(`</table><div id="foot"><p>Copyright 2009 The Example Times</p></div></body></html>`)
	return pagetest.Parse(t, sb.String())
}

func TestCleanMultiFilePrune(t *testing.T) {
	ref := wccArticle(t, "Vote", "", voteText, "")
	long := append(append([]string{}, stormText...), "A third paragraph makes the article longer than the reference's.")
	for _, c := range []struct {
		name string
		p    *page.Page
		want site.Mode
	}{
		{"same structure", wccArticle(t, "Storm", "", stormText, ""), site.Diffed},
		{"one more paragraph", wccArticle(t, "Storm", "", long, ""), site.Single},
		{"another structure", wccIndex(t), site.Single},
	} {
		out, err := site.CleanMultiFile([]*page.Page{c.p}, nil, ref, site.MultiFileOptions{Prune: true})
		if err != nil {
			t.Fatal(err)
		}
		if out[0].Mode != c.want || (c.want == site.Single) != (out[0].Reason != "") {
			t.Errorf("%s: %+v, want mode %v", c.name, out[0], c.want)
		}
	}
	// Without --prune the differing page is diffed: its navigation and
	// footer go, its listing stays.
	p := wccIndex(t)
	out, _ := site.CleanMultiFile([]*page.Page{p}, nil, ref, site.MultiFileOptions{})
	if got := keptText(p); out[0].Mode != site.Diffed || slices.Contains(got, "Home") || !slices.Contains(got, "Markets") {
		t.Errorf("without prune: %+v, kept %q", out[0], got)
	}
	if !site.SimilarByChildCount(ref, ref, 3) || site.SimilarByChildCount(wccIndex(t), ref, 3) || !site.SimilarByChildCount(wccIndex(t), ref, 2) {
		t.Error("SimilarByChildCount")
	}
}

func TestCleanMultiFileSparse(t *testing.T) {
	// A table-only page is sparse: with --sparse it is omitted, nothing
	// kept; the articles are not.
	pages := []*page.Page{wccArticle(t, "Storm", "", stormText, ""), wccIndex(t), wccArticle(t, "Vote", "", voteText, "")}
	out, err := site.CleanMultiFile(pages, nil, nil, site.MultiFileOptions{Sparse: true})
	if err != nil {
		t.Fatal(err)
	}
	if out[1].Mode != site.Omitted || out[1].Kept != 0 || len(keptText(pages[1])) != 0 || out[1].Density >= site.SparseDensity || !strings.Contains(out[1].Reason, "sparse") {
		t.Errorf("table page: %+v, kept %q", out[1], keptText(pages[1]))
	}
	for _, i := range []int{0, 2} {
		if out[i].Mode != site.Diffed || out[i].Density < site.SparseDensity || out[i].Kept == 0 {
			t.Errorf("article %d: %+v", i, out[i])
		}
	}
}

func TestCleanMultiFileFromTarget(t *testing.T) {
	// The sidebars differ from page to page: the plain mode keeps what
	// differs in them, the from-target mode only what differs in the
	// article.
	p := func() *page.Page {
		return wccArticle(t, "Storm", "", stormText, `<p>Most read: Floods in the north</p>`)
	}
	ref := wccArticle(t, "Vote", "", voteText, `<p>Most read: The budget debate</p>`)
	plain, target := p(), p()
	site.CleanMultiFile([]*page.Page{plain}, nil, ref, site.MultiFileOptions{})
	out, _ := site.CleanMultiFile([]*page.Page{target}, nil, ref, site.MultiFileOptions{FromTarget: true})
	if !slices.Contains(keptText(plain), "Most read: Floods in the north") {
		t.Errorf("plain mode kept %q", keptText(plain))
	}
	want := append([]string{"Storm"}, stormText...)
	if got := keptText(target); !slices.Equal(got, want) || out[0].Mode != site.Diffed {
		t.Errorf("from target: %+v, kept %q, want %q", out[0], got, want)
	}
}

func TestCleanMultiFileReference(t *testing.T) {
	// A reference page given (-e) is the reference of every page; a page
	// that is the reference itself is compared with another page instead
	// of being emptied.
	ref := wccArticle(t, "Vote", "", voteText, "")
	pages := []*page.Page{wccArticle(t, "Storm", "", stormText, ""), wccArticle(t, "Vote", "", voteText, ""), wccArticle(t, "Bridge", "", bridgeText, "")}
	out, err := site.CleanMultiFile(pages, nil, ref, site.MultiFileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Reference != -1 || out[2].Reference != -1 || out[1].Reference < 0 {
		t.Errorf("references: %+v", out)
	}
	if got := keptText(pages[1]); !slices.Equal(got, append([]string{"Vote"}, voteText...)) {
		t.Errorf("the reference's own page kept %q", got)
	}
}

func TestCleanMultiFileBadSets(t *testing.T) {
	a := wccArticle(t, "Storm", "", stormText, "")
	if _, err := site.CleanMultiFile(nil, nil, nil, site.MultiFileOptions{}); !errors.Is(err, site.ErrNoPages) {
		t.Errorf("no pages: %v", err)
	}
	if _, err := site.CleanMultiFile([]*page.Page{a}, nil, nil, site.MultiFileOptions{}); !errors.Is(err, site.ErrOnePage) {
		t.Errorf("one page: %v", err)
	}
	if _, err := site.CleanMultiFile([]*page.Page{a}, nil, wccArticle(t, "Storm", "", stormText, ""), site.MultiFileOptions{}); !errors.Is(err, site.ErrOnePage) {
		t.Errorf("one page, the reference: %v", err)
	}
	// Copies of one page: none has another to compare with, so each is
	// cleaned in single-file mode rather than emptied.
	pages := []*page.Page{wccArticle(t, "Storm", "", stormText, ""), wccArticle(t, "Storm", "", stormText, "")}
	out, err := site.CleanMultiFile(pages, nil, nil, site.MultiFileOptions{})
	if err != nil || out[0].Mode != site.Single || len(keptText(pages[0])) == 0 {
		t.Errorf("copies: %v %+v", err, out)
	}
	// Pages without text: nothing to keep, nothing fails.
	empty := []*page.Page{pagetest.Parse(t, `<html></html>`), pagetest.Parse(t, `<p>x</p>`)}
	if _, err := site.CleanMultiFile(empty, nil, nil, site.MultiFileOptions{Prune: true, FromTarget: true, Sparse: true}); err != nil {
		t.Errorf("empty pages: %v", err)
	}
}
