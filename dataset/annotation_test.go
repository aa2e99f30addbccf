package dataset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
)

func TestAnnotated(t *testing.T) {
	s, pages, errs := readAll(t, filepath.Join("testdata", "annotated"))
	if s.Kind != Annotated || s.Name != "annotated" {
		t.Errorf("Kind, Name = %q, %q", s.Kind, s.Name)
	}
	if want := []string{"1", "3", "4", "5", "example.com_2"}; !slices.Equal(s.IDs(), want) {
		t.Errorf("IDs = %q, want %q", s.IDs(), want)
	}
	// 3.ann has two bad lines, reported with their numbers; 4 has no
	// annotation.
	if len(errs) != 2 {
		t.Fatalf("errors = %v, want two", errs)
	}
	var pe *PageError
	var ae *AnnotationError
	if !errors.As(errs[0], &pe) || pe.ID != "3" || pe.Path != filepath.Join(s.Dir, "ann", "3.ann") || !errors.As(errs[0], &ae) || ae.Line != 2 {
		t.Errorf("3: error %v, want one naming ann/3.ann at line 2", errs[0])
	}
	if msg := errs[0].Error(); !strings.Contains(msg, "unknown label [x]") || !strings.Contains(msg, "annotation line 3: no space after [p]") {
		t.Errorf("3: error %q does not name both bad lines", msg)
	}
	if !errors.As(errs[1], &pe) || pe.ID != "4" || !errors.Is(errs[1], fs.ErrNotExist) {
		t.Errorf("4: error %v, want the missing ann/4.ann", errs[1])
	}

	// [c] goes on with the last segment opened, past an [o] line; white
	// space is collapsed; blank lines are skipped.
	p := pages["1"]
	want := segs(page.Heading, "Rivers of the north",
		page.Paragraph, "The rivers of the north and fast.",
		page.ListItem, "Salmon")
	if !reflect.DeepEqual(p.Gold.Segments, want) {
		t.Errorf("1: Segments = %q, want %q", p.Gold.Segments, want)
	}
	if p.Gold.Text != segmentsText(want) {
		t.Errorf("1: Text = %q", p.Gold.Text)
	}
	labels := make([]page.Label, len(p.Gold.Annotation))
	for i, a := range p.Gold.Annotation {
		labels[i] = a.Label
	}
	if want := []page.Label{page.Other, page.Heading, page.Paragraph, page.Other, page.Continuation, page.ListItem}; !slices.Equal(labels, want) {
		t.Errorf("1: annotation labels = %v, want %v", labels, want)
	}
	if a := p.Gold.Annotation[5]; a.Line != 7 || a.Text != "Salmon" {
		t.Errorf("1: last block = %+v, want line 7", a)
	}
	if p.URL != "http://example.org/rivers.html" || p.Site != "example.org" {
		t.Errorf("1: URL, Site = %q, %q", p.URL, p.Site)
	}
	if !strings.HasPrefix(p.Gold.Raw, "[o] Home\n") {
		t.Errorf("1: Raw is not the annotation: %q", p.Gold.Raw)
	}

	// A byte order mark, CRLF and upper case; a [c] before any segment
	// opens a paragraph; the site from the file name.
	p = pages["example.com_2"]
	if want := segs(page.Paragraph, "Crème brûlée", page.Paragraph, "Peña"); !reflect.DeepEqual(p.Gold.Segments, want) {
		t.Errorf("example.com_2: Segments = %q, want %q", p.Gold.Segments, want)
	}
	if p.Site != "example.com" {
		t.Errorf("example.com_2: Site = %q", p.Site)
	}

	// Only [o]: no content, but the page is there with its annotation.
	p = pages["5"]
	if p.Gold.Text != "" || p.Gold.Segments != nil || len(p.Gold.Annotation) != 1 {
		t.Errorf("5: Text, Segments, Annotation = %q, %q, %v", p.Gold.Text, p.Gold.Segments, p.Gold.Annotation)
	}
}

func TestAnnotatedKindWinsOverGold(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"html", "gold", "ann"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "html", "a.html"), []byte("<p>Text</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "gold", "a.txt"), []byte("URL: http://x.org/\n<p> Text\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ann", "a.ann"), []byte("[o] Text\n"), 0o644)
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != Annotated {
		t.Errorf("Kind = %q, want annotated: corrections by hand are the better gold", s.Kind)
	}
	// An empty annotation file is an error, not a page without content.
	os.WriteFile(filepath.Join(dir, "ann", "a.ann"), []byte("\n\n"), 0o644)
	if _, err := s.Page("a"); err == nil || !strings.Contains(err.Error(), "no blocks") {
		t.Errorf("empty annotation: error %v", err)
	}
}

func TestAnnotationSegments(t *testing.T) {
	ann := func(pairs ...any) []AnnotatedBlock {
		var out []AnnotatedBlock
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, AnnotatedBlock{Label: pairs[i].(page.Label), Text: pairs[i+1].(string)})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		in   []AnnotatedBlock
		want []Segment
	}{
		{"empty", nil, nil},
		{"only other", ann(page.Other, "Home", page.Other, "Menu"), nil},
		{"victor's example", ann(page.Paragraph, "See", page.Continuation, "our website", page.Continuation, "for more details."),
			segs(page.Paragraph, "See our website for more details.")},
		{"continuation past other", ann(page.Heading, "Title", page.Other, "Ad", page.Continuation, "goes on", page.ListItem, "item"),
			segs(page.Heading, "Title goes on", page.ListItem, "item")},
		{"continuation first", ann(page.Other, "Home", page.Continuation, "orphan", page.Continuation, "text"),
			segs(page.Paragraph, "orphan text")},
		{"empty texts", ann(page.Paragraph, "", page.Continuation, " x ", page.Heading, "  "),
			segs(page.Paragraph, "x")},
	} {
		if got := AnnotationSegments(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestReadAnnotationReportsEveryBadLine(t *testing.T) {
	in := "[p] fine\n[x] one\n[p] fine\nno label\n[c] fine\n"
	blocks, err := ReadAnnotation(strings.NewReader(in))
	var lines []int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ae *AnnotationError
		if !errors.As(e, &ae) {
			t.Fatalf("error %v is not an *AnnotationError", e)
		}
		lines = append(lines, ae.Line)
	}
	if !slices.Equal(lines, []int{2, 4}) {
		t.Errorf("bad lines %v, want [2 4]", lines)
	}
	// Only the first error explains the format at length.
	if n := strings.Count(err.Error(), `"[p] Some text."`); n != 1 {
		t.Errorf("the format is explained %d times in %q", n, err)
	}
	if len(blocks) != 3 {
		t.Errorf("%d good blocks, want 3", len(blocks))
	}
	// A file of garbage stops after maxAnnotationErrors errors.
	_, err = ReadAnnotation(strings.NewReader(strings.Repeat("garbage\n", 1000)))
	if n := len(err.(interface{ Unwrap() []error }).Unwrap()); n != maxAnnotationErrors {
		t.Errorf("%d errors for 1000 bad lines, want %d", n, maxAnnotationErrors)
	}
}

func TestReadCleanEvalGold(t *testing.T) {
	g, url := ReadCleanEvalGold([]byte("\ufeffURL: http://example.org/\n<h> Title\n<p> Some\n text.\n"))
	if url != "http://example.org/" || !reflect.DeepEqual(g.Segments, segs(page.Heading, "Title", page.Paragraph, "Some text.")) ||
		g.Text != "Title\n\nSome text." || strings.HasPrefix(g.Raw, "\ufeff") {
		t.Errorf("ReadCleanEvalGold = %+v, %q", g, url)
	}
}
