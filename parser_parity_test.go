package sluice

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/ingest"
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
func firstPageDiff(want, got *page.Page, spans bool) (d pageDiff, ok bool) {
	if len(want.Blocks) != len(got.Blocks) {
		d = pageDiff{kind: "block count", want: fmt.Sprint(len(want.Blocks)), got: fmt.Sprint(len(got.Blocks)), blockIndex: -1}
	}
	for i := range min(len(want.Blocks), len(got.Blocks)) {
		w, g := want.Blocks[i], got.Blocks[i]
		if !spans {
			g.Source = w.Source
		}
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
// cleaneval format. Block spans are compared apart: htmltree records where
// each text node is, where the old path guesses by matching texts against
// tokens, so they are checked against the text they should hold instead.
// $SLUICE_PARITY_DIFFS names a folder to write the first difference of
// each differing page to.
//
//	go test -run TestParserParity -v .
func TestParserParity(t *testing.T) {
	if testing.Short() {
		t.Skip("every page of every shared set, twice")
	}
	sets, err := dataset.Sets()
	if err != nil {
		t.Skipf("no shared data: %v", err)
	}
	var pc parityCheck
	pc.segRef, pc.segArena = parserPair(t, Options{Links: true, Images: true})
	pc.cleanRef, pc.cleanArena = parserPair(t, Options{})
	if pc.render, err = render.Lookup("cleaneval", render.Options{}); err != nil {
		t.Fatal(err)
	}
	pc.diffs = os.Getenv("SLUICE_PARITY_DIFFS")
	pc.kinds = map[string]int{}
	for _, name := range sets {
		s, err := dataset.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var sp setParity
		for p, err := range s.Pages() {
			if err != nil {
				t.Fatal(err)
			}
			pc.page(t, &sp, p)
		}
		n := float64(max(sp.pages, 1))
		t.Logf("%s: %d pages; identical: pages but for spans %.2f%%, pages %.2f%%, cleaned output %.2f%%; text spans holding their text: html %.2f%%, arena %.2f%% of %d",
			name, sp.pages, 100*float64(sp.sameBlocks)/n, 100*float64(sp.samePage)/n, 100*float64(sp.sameOut)/n,
			100*float64(sp.spanOK[0])/float64(max(sp.spans, 1)), 100*float64(sp.spanOK[1])/float64(max(sp.spans, 1)), sp.spans)
		if float64(sp.sameBlocks) < parserParityFloor*float64(sp.pages) {
			t.Errorf("%s: %d of %d pages the same from both parsers, under %.0f%%", name, sp.sameBlocks, sp.pages, 100*parserParityFloor)
		}
		if sp.spanOK[1] < sp.spanOK[0] {
			t.Errorf("%s: %d text spans right on the arena path, fewer than the %d of the html path", name, sp.spanOK[1], sp.spanOK[0])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(pc.kinds)) {
		t.Logf("difference %q: %d pages", k, pc.kinds[k])
	}
}

// parityCheck is what TestParserParity compares pages with.
type parityCheck struct {
	segRef, segArena     *Cleaner // links and images recorded
	cleanRef, cleanArena *Cleaner // defaults
	render               render.Renderer
	diffs                string
	kinds                map[string]int // pages per kind of difference
	last                 Input          // the page before
}

// setParity counts the pages of one set that are the same.
type setParity struct {
	pages, samePage, sameBlocks, sameOut int
	spans                                int    // non-blank text nodes
	spanOK                               [2]int // of them, those whose span holds their text: html, arena
}

// page compares one page.
func (pc *parityCheck) page(t *testing.T, sp *setParity, p *dataset.Page) {
	sp.pages++
	in := Input{Data: p.HTML, ContentType: contentType(p.Charset), URL: p.URL}
	want, got := segmentBoth(t, pc.segRef, pc.segArena, in)
	if pc.last.Data != nil {
		// Build another tree with the arena cleaner's Builder: got
		// must not share its memory.
		if _, err := pc.segArena.Segment(context.Background(), pc.last); err != nil {
			t.Fatal(err)
		}
	}
	pc.last = in
	if _, ok := firstPageDiff(want, got, true); ok {
		sp.samePage++
	}
	if d, ok := firstPageDiff(want, got, false); ok {
		sp.sameBlocks++
	} else {
		pc.kinds[d.kind]++
		if pc.diffs != "" {
			writeParityDiff(t, filepath.Join(pc.diffs, p.Set+"_"+p.ID+".txt"), d)
		}
	}
	if bytes.Equal(cleanOutput(t, pc.cleanRef, pc.render, in), cleanOutput(t, pc.cleanArena, pc.render, in)) {
		sp.sameOut++
	}
	for k, c := range []*Cleaner{pc.segRef, pc.segArena} {
		d, err := ingest.Parse(in.Data, c.ingestOptions(in))
		if err != nil {
			t.Fatal(err)
		}
		n, ok := spansHoldText(d)
		sp.spanOK[k] += ok
		if k == 0 {
			sp.spans += n
		}
	}
}

// spansHoldText counts the text nodes of d's content with text other than
// white space, and those whose span in d.Text holds it: its first and last
// bytes (64 at most) begin and end the span's bytes, decoded.
func spansHoldText(d *ingest.Document) (nodes, ok int) {
	i := 0
	var walk func(n dom.Node)
	walk = func(n dom.Node) {
		for c := n.FirstChild(); !c.Nil(); c = c.NextSibling() {
			switch c.Type() {
			case html.TextNode:
				sp := d.TextSpans[i]
				i++
				text := strings.TrimSpace(c.Data())
				if text == "" {
					continue
				}
				nodes++
				raw := html.UnescapeString(string(d.Text[sp.Start:sp.End]))
				raw = strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(raw, "\r\n", "\n"), "\r", "\n"))
				if k := min(len(text), 64); strings.HasPrefix(raw, text[:k]) && strings.HasSuffix(raw, text[len(text)-k:]) {
					ok++
				}
			case html.ElementNode:
				walk(c)
			}
		}
	}
	walk(dom.ContentRoot(d.Node()))
	return nodes, ok
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
