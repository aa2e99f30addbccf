package site_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/site"
)

func article(t *testing.T, n int) *page.Page {
	return portal(t, fmt.Sprintf("Story %c", 'A'+n), []string{fmt.Sprintf("Text of story %c.", 'A'+n)}, "")
}

func hostsOf(bs []site.Batch[int]) []string {
	var out []string
	for _, b := range bs {
		out = append(out, fmt.Sprintf("%s %v", b.Host, b.Items))
	}
	return out
}

func TestGrouperBySize(t *testing.T) {
	g := site.NewGrouper[int](site.GroupOptions{BatchSize: 3})
	adds := []struct {
		host string
		want []string
	}{
		{"a.example", nil},
		{"b.example", nil},
		{"a.example", nil},
		{"a.example", []string{"a.example [0 2 3]"}},
		{"b.example", nil},
	}
	for i, a := range adds {
		got := g.Add(a.host, i, article(t, i))
		if !slices.Equal(hostsOf(got), a.want) {
			t.Errorf("add %d: batches %q, want %q", i, hostsOf(got), a.want)
		}
		for _, b := range got {
			if b.Model.Pages() != 3 || len(b.Pages) != 3 {
				t.Errorf("batch of %d pages, model of %d", len(b.Pages), b.Model.Pages())
			}
			for k := range b.Pages {
				keepAll(b.Pages[k])
				if d, _ := b.Apply(k); d != len(template) {
					t.Errorf("page %d of the batch: %d blocks dropped, want %d", k, d, len(template))
				}
			}
		}
	}
	if g.Pending() != 2 {
		t.Errorf("Pending = %d, want 2", g.Pending())
	}
	got := g.Flush()
	if want := []string{"b.example [1 4]"}; !slices.Equal(hostsOf(got), want) {
		t.Errorf("Flush: %q, want %q", hostsOf(got), want)
	}
	if g.Pending() != 0 || len(g.Flush()) != 0 {
		t.Error("Flush left pages behind")
	}
}

func TestGrouperOverflow(t *testing.T) {
	g := site.NewGrouper[int](site.GroupOptions{BatchSize: 10, MaxPending: 3})
	var got []string
	for i, h := range []string{"a", "b", "a", "c", "d", "b"} {
		got = append(got, hostsOf(g.Add(h, i, article(t, i)))...)
	}
	// a waited longest when c overflowed the buffers, then b when its
	// second page did.
	if want := []string{"a [0 2]", "b [1 5]"}; !slices.Equal(got, want) {
		t.Errorf("overflow batches %q, want %q", got, want)
	}
	if got, want := hostsOf(g.Flush()), []string{"c [3]", "d [4]"}; !slices.Equal(got, want) {
		t.Errorf("Flush: %q, want %q", got, want)
	}
}

func TestGrouperRemembersHost(t *testing.T) {
	g := site.NewGrouper[int](site.GroupOptions{BatchSize: 2, MaxHosts: 1})
	var batches []site.Batch[int]
	for i := range 4 {
		batches = append(batches, g.Add("a", i, article(t, i))...)
	}
	if len(batches) != 2 {
		t.Fatalf("%d batches", len(batches))
	}
	// The second batch's model counts the first batch's pages: its pages
	// are judged by three others, enough for template evidence.
	if n := batches[1].Model.Pages(); n != 4 {
		t.Errorf("second batch: model of %d pages, want 4", n)
	}
	p := batches[1].Pages[0]
	if got := marked(p, batches[1].Model.Template(p, true)); !slices.Equal(got, template) {
		t.Errorf("second batch: template %q", got)
	}
	// A first batch of two pages has no evidence.
	p = batches[0].Pages[0]
	if got := marked(p, batches[0].Model.Template(p, true)); len(got) != 0 {
		t.Errorf("first batch: template %q", got)
	}
	// Another host pushes a out (MaxHosts 1): a starts afresh.
	g.Add("b", 9, article(t, 9))
	g.Add("b", 10, article(t, 10))
	g.Add("a", 11, article(t, 11))
	bs := g.Add("a", 12, article(t, 12))
	if len(bs) != 1 || bs[0].Model.Pages() != 2 {
		t.Errorf("forgotten host: batches %q", hostsOf(bs))
	}
}

func TestGrouperRelease(t *testing.T) {
	g := site.NewGrouper[int](site.GroupOptions{BatchSize: 10})
	if _, ok := g.Release(); ok {
		t.Error("Release on an empty Grouper handed back a batch")
	}
	for i, h := range []string{"a", "b", "a", "c"} {
		g.Add(h, i, article(t, i))
	}
	var got []string
	for {
		b, ok := g.Release()
		if !ok {
			break
		}
		got = append(got, hostsOf([]site.Batch[int]{b})...)
	}
	if want := []string{"a [0 2]", "b [1]", "c [3]"}; !slices.Equal(got, want) {
		t.Errorf("Release: %q, want %q", got, want)
	}
	if g.Pending() != 0 {
		t.Errorf("Pending = %d after releasing everything", g.Pending())
	}
	// The host is remembered: its next batch counts the pages released.
	g.Add("a", 4, article(t, 4))
	if bs := g.Flush(); len(bs) != 1 || bs[0].Model.Pages() != 3 {
		t.Errorf("after Release: %q", hostsOf(bs))
	}
}
