package train

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
)

// annPage builds a page with the given block texts.
func annPage(texts ...string) *page.Page {
	p := &page.Page{}
	for _, t := range texts {
		p.Blocks = append(p.Blocks, page.Block{Text: t})
	}
	return p
}

func ExampleWriteAnnotation() {
	p := &page.Page{Blocks: []page.Block{
		{Text: "Home"},
		{Text: "Rivers of the North"},
		{Text: "The rivers run cold"},
		{Text: "and fast."},
		{Text: "Salmon"},
	}}
	labels := []page.Label{page.Other, page.Heading, page.Paragraph, page.Continuation, page.ListItem}
	WriteAnnotation(os.Stdout, p, labels)
	// Output:
	// [o] Home
	// [h] Rivers of the North
	// [p] The rivers run cold
	// [c] and fast.
	// [l] Salmon
}

func ExampleApplyAnnotation() {
	// An annotation corrected by hand: "Home" was marked [o].
	ann, err := ReadAnnotation(strings.NewReader("[o] Home\n[h] Rivers of the  North\n[p] The rivers run cold\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// The page segmented again; white space may differ.
	p := &page.Page{Blocks: []page.Block{{Text: "Home"}, {Text: "Rivers of the North"}, {Text: "The rivers run cold"}}}
	labels, err := ApplyAnnotation(p, ann)
	fmt.Println(labels, err)
	// Output:
	// [other heading paragraph] <nil>
}

// TestAnnotationRoundTrip writes the labels Align derives for a segmented
// page, reads them back and applies them to the page segmented again.
func TestAnnotationRoundTrip(t *testing.T) {
	p := segmentHTML(t, riversHTML)
	labels, _ := Align(p, goldOf(riversSegments), dataset.AlignSegments)
	var buf bytes.Buffer
	if err := WriteAnnotation(&buf, p, labels); err != nil {
		t.Fatal(err)
	}
	want := `[o] Home
[o] News
[o] Weather
[h] Rivers of the North
[p] The rivers of the north run cold and fast. They carry melted snow down to the sea.
[p] First line of the old song
[c] and the second line of it
[l] Salmon
[l] Trout
[o] Copyright 2024 River News. All rights reserved.
`
	if buf.String() != want {
		t.Fatalf("WriteAnnotation wrote\n%s\nwant\n%s", buf.String(), want)
	}
	ann, err := ReadAnnotation(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range ann {
		if a.Label != labels[i] || a.Text != p.Blocks[i].Text || a.Line != i+1 {
			t.Errorf("block %d read as %+v, want label %v text %q line %d", i, a, labels[i], p.Blocks[i].Text, i+1)
		}
	}
	again := segmentHTML(t, riversHTML)
	got, err := ApplyAnnotation(again, ann)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(labels) {
		t.Errorf("ApplyAnnotation = %v, want %v", got, labels)
	}
}

func TestWriteAnnotation(t *testing.T) {
	p := annPage("one\ntwo\r\nthree", "four\u2028five")
	var buf bytes.Buffer
	if err := WriteAnnotation(&buf, p, []page.Label{page.Paragraph, page.Continuation}); err != nil {
		t.Fatal(err)
	}
	if want := "[p] one two  three\n[c] four five\n"; buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	if err := WriteAnnotation(&buf, p, []page.Label{page.Other}); err == nil {
		t.Error("no error for too few labels")
	}
	if err := WriteAnnotation(&buf, p, []page.Label{page.Other, 9}); err == nil {
		t.Error("no error for an invalid label")
	}
}

func TestReadAnnotation(t *testing.T) {
	in := "\uFEFF[p] A paragraph.\r\n" +
		"\n" + // blank lines are skipped
		"[H] Upper case\n" +
		"  [l]\tTab after the label\n" +
		"[continuation] the long name\n" +
		"[o]\n" + // an empty text
		"[c]  two spaces keep one" // no final newline
	got, err := ReadAnnotation(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []AnnotatedBlock{
		{Label: page.Paragraph, Text: "A paragraph.", Line: 1},
		{Label: page.Heading, Text: "Upper case", Line: 3},
		{Label: page.ListItem, Text: "Tab after the label", Line: 4},
		{Label: page.Continuation, Text: "the long name", Line: 5},
		{Label: page.Other, Text: "", Line: 6},
		{Label: page.Continuation, Text: " two spaces keep one", Line: 7},
	}
	if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestReadAnnotationErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"[p] fine\nno label here\n", 2, "does not start with a label"},
		{"[p fine\n", 1, "no closing bracket"},
		{"[p] fine\n[p] fine\n[x] unknown\n", 3, "unknown label [x]"},
		{"[p]glued\n", 1, "no space after [p]"},
	} {
		_, err := ReadAnnotation(strings.NewReader(tc.in))
		var ae *AnnotationError
		if !errors.As(err, &ae) {
			t.Errorf("%q: error %v, want an *AnnotationError", tc.in, err)
			continue
		}
		if ae.Line != tc.line || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: error %q at line %d, want line %d and %q", tc.in, err, ae.Line, tc.line, tc.msg)
		}
		// Every message says what a valid line looks like.
		if !strings.Contains(err.Error(), `"[p] Some text."`) {
			t.Errorf("%q: error %q does not show a valid line", tc.in, err)
		}
		if !strings.HasPrefix(err.Error(), fmt.Sprintf("annotation line %d: ", tc.line)) {
			t.Errorf("%q: error %q does not start with its line", tc.in, err)
		}
	}
}

func TestApplyAnnotation(t *testing.T) {
	p := annPage("Home", "Rivers of the North", "The rivers run cold and fast.")
	read := func(s string) []AnnotatedBlock {
		t.Helper()
		ann, err := ReadAnnotation(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return ann
	}

	// White space may differ.
	labels, err := ApplyAnnotation(p, read("[o] Home \n[h]  Rivers of\tthe North\n[p] The rivers run   cold and fast.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(labels) != "[other heading paragraph]" {
		t.Errorf("labels %v", labels)
	}

	for _, tc := range []struct {
		name, ann string
		line      int
		msg       []string
	}{
		{"changed word", "[o] Home\n\n[h] Rivers of the South\n[p] The rivers run cold and fast.\n", 3,
			[]string{"does not match block 2", `has "…South" where the page has "…North"`}},
		{"merged lines", "[o] Home\n[h] Rivers of the North The rivers run cold and fast.\n", 2,
			[]string{"does not match block 2", `goes on with "…The rivers run cold and fast." where the page's block ends`}},
		{"missing block", "[o] Home\n[h] Rivers of the North\n", 2,
			[]string{"ends after 2 blocks but the page has 3", "The rivers run cold"}},
		{"extra block", "[o] Home\n[h] Rivers of the North\n[p] The rivers run cold and fast.\n[o] Footer\n", 4,
			[]string{"block 4 but the page has only 3 blocks"}},
	} {
		_, err := ApplyAnnotation(p, read(tc.ann))
		var ae *AnnotationError
		if !errors.As(err, &ae) {
			t.Errorf("%s: error %v, want an *AnnotationError", tc.name, err)
			continue
		}
		if ae.Line != tc.line {
			t.Errorf("%s: error %q at line %d, want %d", tc.name, err, ae.Line, tc.line)
		}
		for _, m := range tc.msg {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not say %s", tc.name, err, m)
			}
		}
	}

	// Blocks built in code have no line: the error names the block.
	_, err = ApplyAnnotation(p, []AnnotatedBlock{{Text: "Home"}, {Text: "Lakes"}, {Text: "x"}})
	if err == nil || !strings.Contains(err.Error(), "annotated block 2 does not match") {
		t.Errorf("error %v, want one naming annotated block 2", err)
	}
}

// FuzzReadAnnotation checks that any input either fails with an
// *AnnotationError or reads blocks that WriteAnnotation writes back to an
// annotation that reads the same.
func FuzzReadAnnotation(f *testing.F) {
	for _, s := range []string{
		"[p] A paragraph.\n[c] goes on\n",
		"\uFEFF[h] Title\r\n\r\n[l]\tItem\n[o]\n",
		"[paragraph] long name\n[X] bad\n",
		"[p]glued", "[p fine", "no label", "[p] a\rb\u2028c\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ann, err := ReadAnnotation(strings.NewReader(in))
		if err != nil {
			var ae *AnnotationError
			if !errors.As(err, &ae) || ae.Line < 1 {
				t.Fatalf("error %v is not an *AnnotationError with a line", err)
			}
			return
		}
		p := &page.Page{}
		labels := make([]page.Label, len(ann))
		for i, a := range ann {
			p.Blocks = append(p.Blocks, page.Block{Text: a.Text})
			labels[i] = a.Label
		}
		var buf bytes.Buffer
		if err := WriteAnnotation(&buf, p, labels); err != nil {
			t.Fatal(err)
		}
		again, err := ReadAnnotation(&buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if len(again) != len(ann) {
			t.Fatalf("read back %d blocks, want %d", len(again), len(ann))
		}
		spaced := strings.NewReplacer("\r", " ", "\u2028", " ", "\u2029", " ", "\u0085", " ")
		for i := range ann {
			if again[i].Label != ann[i].Label || again[i].Text != spaced.Replace(ann[i].Text) {
				t.Fatalf("block %d read back as %+v, want %+v", i, again[i], ann[i])
			}
		}
		if _, err := ApplyAnnotation(p, ann); err != nil {
			t.Fatalf("ApplyAnnotation on its own page: %v", err)
		}
	})
}
