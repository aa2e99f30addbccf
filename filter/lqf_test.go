package filter

import (
	"testing"
)

// ccbtCheck asserts which blocks of out are kept.
func ccbtCheck(t *testing.T, name string, out []float64, want map[int]bool) {
	t.Helper()
	for i, keep := range want {
		if ccbtKept(out[i]) != keep {
			t.Errorf("%s: block %d score %.3f, want kept=%v", name, i, out[i], keep)
		}
	}
}

func TestLQFArticle(t *testing.T) {
	p, nav, main, foot := ccbtArticle()
	out := ccbtRun(t, "lqf", p, nil)
	want := map[int]bool{}
	for i := nav[0]; i < nav[1]; i++ {
		want[i] = false
	}
	for i := main[0]; i < main[1]; i++ {
		want[i] = true
	}
	for i := foot[0]; i < foot[1]; i++ {
		want[i] = false
	}
	ccbtCheck(t, "lqf", out, want)
}

// Link lists in and around an article: a menu, a list of related stories
// with long link texts, a paragraph with one inline link (kept) and a lone
// "read more" link between paragraphs (dropped: shorter than LoneWords).
func TestLQFLinkLists(t *testing.T) {
	b := ccbtNew()
	b.Open("nav")
	ccbtMenu(b, 5) // 0-4
	b.Close()
	b.Open("div")
	b.Para(ccbtWords(30))                            // 5
	b.Open("p").Rich(ccbtWords(30), 1, 12).Close()   // 6: one inline link
	b.Open("p").Link("Read more about this").Close() // 7: a lone link
	b.Para(ccbtWords(25))                            // 8
	b.Open("h2").Text("Related stories").Close()     // 9
	b.Open("ul")
	b.Item("The first related story has a long title here")   // 10
	b.Item("Another related story with an even longer title") // 11
	b.Item("And a third one to close the list of stories")    // 12
	b.Close()
	b.Close()
	p := b.Page()
	out := ccbtRun(t, "lqf", p, nil)
	ccbtCheck(t, "lqf", out, map[int]bool{
		0: false, 4: false, 5: true, 6: true, 7: false, 8: true,
		10: false, 11: false, 12: false,
	})
}

// A page whose body is mostly links must not lose its text: containers
// holding more than half of the page are not judged, and text directly in
// body has no container.
func TestLQFLargeContainers(t *testing.T) {
	b := ccbtNew()
	b.Open("div") // the wrapper: all of the page
	ccbtMenu(b, 40)
	b.Text(ccbtWords(12)) // 40: text directly in the wrapper
	b.Close()
	b.Text(ccbtWords(12)) // 41: text directly in body
	p := b.Page()
	out := ccbtRun(t, "lqf", p, nil)
	ccbtCheck(t, "lqf", out, map[int]bool{0: false, 39: false, 40: true, 41: true})
}

// Runs of links with no small container (separated by <br> in a big
// wrapper) are caught by the block rule.
func TestLQFLinkRun(t *testing.T) {
	b := ccbtNew()
	b.Open("div")
	for i := range 6 {
		b.Link("Link number " + string(rune('A'+i))) // 0-5
		b.push("br", true)
		b.Close()
	}
	for range 4 {
		b.Para(ccbtWords(40)) // 6-9
	}
	b.Close()
	p := b.Page()
	out := ccbtRun(t, "lqf", p, nil)
	ccbtCheck(t, "lqf", out, map[int]bool{0: false, 3: false, 5: false, 6: true, 9: true})
}

// With an active mask, removed blocks add nothing to a container's quota:
// a cell whose text sits among links is dropped until an earlier filter
// has removed the links.
func TestLQFActive(t *testing.T) {
	b := ccbtNew()
	b.Open("div")
	for range 4 {
		b.Para(ccbtWords(40)) // 0-3: the article
	}
	b.Close()
	b.Open("table").Open("tr").Open("td")
	b.Text(ccbtWords(10)) // 4
	for range 6 {
		b.Link("A link with four words") // 5-10
	}
	b.Close().Close().Close()
	p := b.Page()
	out := ccbtRun(t, "lqf", p, nil)
	ccbtCheck(t, "lqf", out, map[int]bool{0: true, 4: false, 5: false})

	active := make([]bool, len(p.Blocks))
	for i := range 5 {
		active[i] = true
	}
	out = ccbtRun(t, "lqf", p, active)
	ccbtCheck(t, "lqf", out, map[int]bool{0: true, 4: true})
}

func TestLQFQuotaScore(t *testing.T) {
	for _, c := range []struct{ q, t, want float64 }{
		{0, 0.5, 1}, {1, 0.5, 0}, {0.5, 0.5, 0.5}, {0.25, 0.5, 0.75}, {0.75, 0.5, 0.25},
		{0.5, 0.8, 1 - 0.5*0.5/0.8}, {0.9, 0.8, 0.25}, {-1, 0.5, 1}, {3, 0.5, 0},
	} {
		got := lqfQuotaScore(c.q, c.t)
		if d := got - c.want; d > 1e-12 || d < -1e-12 {
			t.Errorf("lqfQuotaScore(%v, %v) = %v, want %v", c.q, c.t, got, c.want)
		}
	}
}

func BenchmarkLQF(b *testing.B) { ccbtBench(b, "lqf") }
