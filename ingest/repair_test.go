package ingest

import (
	"strings"
	"testing"
)

// An element that reads raw text and is never closed swallows the rest of
// the page: a <style> or <script> must not turn into text, and the markup
// after it is recovered where it clearly resumes.
func TestUnclosedRawText(t *testing.T) {
	css := strings.Repeat("p { margin: 0 }\n.nav > li { color: red }\n", 200)
	js := "var a = 1; if (a < b && c > d) { x('<div>' + y + '</div>'); }\n<div>in a template</div>\n"
	for _, tc := range []struct {
		name, src, want string
		warn            string // a word of the expected warning, "" for none
	}{
		{"style to the end", "<html><head><title>T</title><style>" + css, "", "<style>"},
		{"style, then markup", "<html><head><style>" + css + "</head><body><p>The article text.</p></body></html>", "The article text.", "<style>"},
		{"style, then body in one line", "<style>p{x:y}<body><p>The article text.</p>", "The article text.", "<style>"},
		{"style opening with a comment", "<style><!-- p{x:y} --><p>The article text.</p>", "The article text.", "<style>"},
		{"script to the end", "<html><body><p>The article text.</p><script>" + js, "The article text.", "<script>"},
		{"script, then the head's end", "<html><head><script>" + js + "</head><body><p>The article text.</p></body></html>", "The article text.", "<script>"},
		{"script, then body", "<script>" + js + "<body><p>The article text.</p>", "The article text.", "<script>"},
		{"script with src, then markup", "<script src=\"a.js\">\n<p>The article text.</p>", "The article text.", "<script>"},
		{"script template to the end", "<p>The article text.</p><script type=\"text/template\">\n<div>{{name}}</div>", "The article text.", "<script>"},
		{"self-closing script", "<script src=\"a.js\"/><p>The article text.</p><p>More.</p>", "The article text. More.", "<script>"},
		{"textarea", "<p>The article text.</p><textarea>your comment<p>More.</p>", "The article text. More.", "<textarea>"},
		{"iframe", "<iframe src=x>fallback <p>The article text.</p>", "The article text.", "<iframe>"},
		{"two unclosed", "<style>p{x:y}<p>The article text.</p><script>" + js, "The article text.", "<script>"},
		{"title", "<title>Cut title\n<body><p>The article text.</p>", "Cut title The article text.", "<title>"},
		{"closed", "<head><script>x = '<style>' + '<title>'; if (a<b) {}</script></head><p>The article text.</p>", "The article text.", ""},
		{"closed, in a comment", "<!-- <style> --><p>The article text.</p>", "The article text.", ""},
	} {
		d := mustParse(t, tc.src)
		if got := bodyText(d); got != tc.want {
			t.Errorf("%s: body text = %.100q, want %q", tc.name, got, tc.want)
		}
		warnings := strings.Join(d.Warnings, "\n")
		if tc.warn == "" && warnings != "" || !strings.Contains(warnings, tc.warn) {
			t.Errorf("%s: warnings %q, want one about %s", tc.name, d.Warnings, tc.warn)
		}
		for _, sp := range d.TextSpans {
			if sp.Start < 0 || sp.End < sp.Start || sp.End > len(d.Text) {
				t.Errorf("%s: span %v outside the text", tc.name, sp)
			}
		}
	}
}

// The page of issue 19: megabytes of CSS after an unclosed <style>.
func TestUnclosedStyleLarge(t *testing.T) {
	css := strings.Repeat("p { margin: 0 }\n", 200_000)
	for _, src := range []string{
		"<html><head><style>" + css,
		"<html><head><style>" + css + "<body><p>The article text.</p>",
		"<html><head><script>" + strings.Repeat("if (a < b) { c(); }\n", 150_000) + "</head><body><p>The article text.</p>",
	} {
		d := mustParse(t, src)
		if got := bodyText(d); got != "" && got != "The article text." || len(d.Warnings) != 1 {
			t.Errorf("body text %.100q, warnings %q", got, d.Warnings)
		}
	}
}

// The HTML parser reads a <noframes> or <noembed> as raw text: its markup
// is parsed, not kept as words.
func TestNoframesParsed(t *testing.T) {
	d := mustParse(t, "<body><noframes><p>The site &amp; <b>its</b> pages.</p><script>x()</script></noframes>")
	if got := bodyText(d); got != "The site & its pages." {
		t.Errorf("body text = %q", got)
	}
	d = mustParse(t, "<body><p>Intro.</p><noembed><p>No <i>plugin</i>.</p></noembed></body>")
	if got := bodyText(d); got != "Intro. No plugin ." {
		t.Errorf("body text = %q", got)
	}
	for _, sp := range d.TextSpans {
		if s := string(d.Text[sp.Start:sp.End]); s != "" && !strings.Contains("Intro.No plugin.", s) {
			t.Errorf("span %v is %q", sp, s)
		}
	}
	// Nested ones are parsed once, not at every level.
	d = mustParse(t, "<body><p>Intro.</p>"+strings.Repeat("<noframes><p>x</p>", 20_000))
	if got := bodyText(d); !strings.HasPrefix(got, "Intro. x") || strings.Count(got, "x") > maxRawFixes+1 {
		t.Errorf("body text = %.100q", got)
	}
}

// Each repair reads the rest of the page: their number is bounded, so that
// a page of unclosed tags costs linear time.
func TestUnclosedRawTextBounded(t *testing.T) {
	d := mustParse(t, "<p>The article text.</p>"+strings.Repeat("<style>p{x:y}", 100_000))
	if got := bodyText(d); got != "The article text." || len(d.Warnings) != maxRawFixes {
		t.Errorf("body text %.100q, %d warnings", got, len(d.Warnings))
	}
}
