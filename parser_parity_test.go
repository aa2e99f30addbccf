package sluice

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
)

// parserParityFloor is the share of the pages of each shared set whose
// page.Page (blocks, nodes, tables, links, images, metadata) must be the
// same from both parsers (issue 24, item 2).
const parserParityFloor = 0.99

// pageDiff is the first difference between the pages of two parsers: its
// kind (the field that differs) and the two values.
type pageDiff struct {
	kind       string
	want, got  string
	blockIndex int
}

// firstPageDiff compares the page from html.Parse (want) with the one
// from htmltree (got), field by field; ok when they are the same.
func firstPageDiff(want, got *page.Page) (d pageDiff, ok bool) {
	if len(want.Blocks) != len(got.Blocks) {
		d = pageDiff{kind: "block count", want: fmt.Sprint(len(want.Blocks)), got: fmt.Sprint(len(got.Blocks)), blockIndex: -1}
	}
	for i := range min(len(want.Blocks), len(got.Blocks)) {
		w, g := want.Blocks[i], got.Blocks[i]
		if w == g {
			continue
		}
		kind := "block fields"
		switch {
		case w.Text != g.Text:
			kind = "block text"
		case w.Source != g.Source:
			kind = "block span"
		case w.Node != g.Node:
			kind = "block container"
		}
		return pageDiff{kind: kind, want: fmt.Sprintf("%+v", w), got: fmt.Sprintf("%+v", g), blockIndex: i}, false
	}
	if d.kind != "" {
		return d, false
	}
	for _, f := range []struct {
		kind      string
		want, got any
	}{
		{"nodes", want.Nodes, got.Nodes}, {"tables", want.Tables, got.Tables},
		{"links", want.Links, got.Links}, {"images", want.Images, got.Images}, {"meta", want.Meta, got.Meta},
	} {
		if !reflect.DeepEqual(f.want, f.got) {
			return pageDiff{kind: f.kind, want: firstElemDiff(f.want, f.got), got: firstElemDiff(f.got, f.want), blockIndex: -1}, false
		}
	}
	return pageDiff{}, true
}

// firstElemDiff formats the first element of slice a that differs from
// b's (or a itself when it is not a slice).
func firstElemDiff(a, b any) string {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() != reflect.Slice {
		return fmt.Sprintf("%+v", a)
	}
	for i := range va.Len() {
		if i >= vb.Len() || !reflect.DeepEqual(va.Index(i).Interface(), vb.Index(i).Interface()) {
			return fmt.Sprintf("[%d of %d] %+v", i, va.Len(), va.Index(i).Interface())
		}
	}
	return fmt.Sprintf("%d elements", va.Len())
}

// parserPair is a cleaner per parser, with the same options.
func parserPair(t *testing.T, opts Options) (ref, arena *Cleaner) {
	t.Helper()
	opts.Parser = "html"
	ref, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Parser = "arena"
	if arena, err = New(opts); err != nil {
		t.Fatal(err)
	}
	return ref, arena
}

// TestParserParity compares, on every page of every shared set, the page
// segmented from html.Parse's tree with the one from htmltree's (links and
// images recorded), and the cleaned output of the embedded model in the
// cleaneval format. $SLUICE_PARITY_DIFFS names a folder to write the first
// difference of each differing page to.
func TestParserParity(t *testing.T) {
	if testing.Short() {
		t.Skip("every page of every shared set, twice")
	}
	sets, err := dataset.Sets()
	if err != nil {
		t.Skipf("no shared data: %v", err)
	}
	segRef, segArena := parserPair(t, Options{Links: true, Images: true})
	cleanRef, cleanArena := parserPair(t, Options{})
	r, err := render.Lookup("cleaneval", render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	diffs := os.Getenv("SLUICE_PARITY_DIFFS")
	kinds := map[string]int{}
	for _, name := range sets {
		s, err := dataset.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		pages, samePage, sameOut := 0, 0, 0
		for p, err := range s.Pages() {
			if err != nil {
				t.Fatal(err)
			}
			pages++
			in := Input{Data: p.HTML, ContentType: contentType(p.Charset), URL: p.URL}
			want, got := segmentBoth(t, segRef, segArena, in)
			if d, ok := firstPageDiff(want, got); ok {
				samePage++
			} else {
				kinds[d.kind]++
				if diffs != "" {
					writeParityDiff(t, filepath.Join(diffs, name+"_"+p.ID+".txt"), d)
				}
			}
			if bytes.Equal(cleanOutput(t, cleanRef, r, in), cleanOutput(t, cleanArena, r, in)) {
				sameOut++
			}
		}
		t.Logf("%s: %d pages, page identical %.2f%%, cleaned output identical %.2f%%", name, pages,
			100*float64(samePage)/float64(max(pages, 1)), 100*float64(sameOut)/float64(max(pages, 1)))
		if float64(samePage) < parserParityFloor*float64(pages) {
			t.Errorf("%s: %d of %d pages the same from both parsers, under %.0f%%", name, samePage, pages, 100*parserParityFloor)
		}
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range kinds {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range keys {
		t.Logf("difference %q: %d pages", k, kinds[k])
	}
}

func contentType(charset string) string {
	if charset == "" {
		return ""
	}
	return "text/html; charset=" + charset
}

// segmentBoth segments in with both cleaners.
func segmentBoth(t *testing.T, ref, arena *Cleaner, in Input) (want, got *page.Page) {
	t.Helper()
	ctx := context.Background()
	a, err := ref.Segment(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := arena.Segment(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	return a.Page, b.Page
}

// cleanOutput cleans in with c and renders it with r.
func cleanOutput(t *testing.T, c *Cleaner, r render.Renderer, in Input) []byte {
	t.Helper()
	res, err := c.Clean(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.Render(&buf, res.Page); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeParityDiff(t *testing.T, path string, d pageDiff) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	s := fmt.Sprintf("%s (block %d)\nhtml:  %s\narena: %s\n", d.kind, d.blockIndex, d.want, d.got)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
