package site_test

import (
	"slices"
	"testing"

	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/site"
)

func TestMultiFileSameLayout(t *testing.T) {
	p := portal(t, "Storm hits the coast", []string{"The storm reached the coast on Monday night.", "Trees fell."}, "")
	ref := portal(t, "Elections next week", []string{"Voters go to the polls next Tuesday.", "Polls open at seven."}, "")
	got := marked(p, site.MultiFile(p, ref))
	if !slices.Equal(got, template) {
		t.Errorf("common %q, want %q", got, template)
	}
}

func TestMultiFileLowestLevel(t *testing.T) {
	// The article levels differ (three paragraphs against two, and a
	// different extra box), so the walk stops there and maps the page's
	// items onto the reference's: the shared "Related" box is common, the
	// paragraphs are not.
	box := `<div class="related"><p>Related stories</p><p>Sign up for our newsletter</p></div>`
	p := portal(t, "Storm", []string{"One.", "Two.", "Three."}, box)
	ref := portal(t, "Vote", []string{"Uno.", "Dos."}, `<div class="poll"><p>Vote in our poll</p></div>`+box)
	got := marked(p, site.MultiFile(p, ref))
	want := append(append([]string{}, template[:3]...), "Related stories", "Sign up for our newsletter")
	want = append(want, template[3:]...)
	if !slices.Equal(got, want) {
		t.Errorf("common %q, want %q", got, want)
	}
}

func TestMultiFileDifferentSites(t *testing.T) {
	p := portal(t, "Storm", []string{"One."}, "")
	ref := pagetest.Parse(t, `<body><table><tr><td>Something else entirely</td></tr></table></body>`)
	if got := marked(p, site.MultiFile(p, ref)); len(got) != 0 {
		t.Errorf("common %q, want none", got)
	}
	empty := pagetest.Parse(t, `<html></html>`)
	if got := site.MultiFile(p, empty); len(got) != len(p.Blocks) || slices.Contains(got, true) {
		t.Errorf("empty reference: %v", got)
	}
}

func TestReference(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		want  int
	}{
		{nil, -1},
		{[]int{7}, 0},
		{[]int{10, 50, 30}, 2},
		{[]int{5, 1}, 1},
		{[]int{4, 4, 4, 4}, 1},
	} {
		if got := site.Reference(c.sizes); got != c.want {
			t.Errorf("Reference(%v) = %d, want %d", c.sizes, got, c.want)
		}
	}
}
