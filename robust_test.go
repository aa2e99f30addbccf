package sluice

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
)

// TestHugePage cleans a 100 MB page: it is cut at the default cap with a
// warning, and what is kept is cleaned.
func TestHugePage(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	para := "<div class=c><p>Some paragraph text that repeats to make the page very large indeed. <a href=/x>link</a></p></div>\n"
	src := []byte("<html><body>" + strings.Repeat(para, 100<<20/len(para)) + "</body></html>")
	eachParser(t, func(t *testing.T, parser string) { hugePage(t, parser, src) })
}

// eachParser runs test once per HTML parser (Options.Parser).
func eachParser(t *testing.T, test func(t *testing.T, parser string)) {
	for _, parser := range []string{ingest.ParserHTML, ingest.ParserArena} {
		t.Run(parser, func(t *testing.T) { test(t, parser) })
	}
}

func hugePage(t *testing.T, parser string, src []byte) {
	c, err := New(Options{Parser: parser})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), Input{Data: src})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[0], "cut") {
		t.Errorf("warnings = %v, want one about the cut", res.Warnings)
	}
	if keptBlocks(res.Page) == 0 {
		t.Errorf("nothing kept of a huge page")
	}
}

// TestBadInputs feeds the cleaner what crawls contain: every case gives a
// clear error or a best-effort result.
func TestBadInputs(t *testing.T) { eachParser(t, badInputs) }

func badInputs(t *testing.T, parser string) {
	c, err := New(Options{Parser: parser})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		src     string
		err     error
		wantSub string // text that must be kept, when no error
	}{
		{"empty", "", ingest.ErrEmpty, ""},
		{"binary", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ingest.ErrBinary, ""},
		{"truncated", "<html><body><h1>Title</h1><p>A paragraph that was cut off in the mid", nil, "cut off in the mid"},
		{"deep", "<body>" + strings.Repeat("<div>", 10000) + "<p>Deep inside ten thousand divs there is a sentence.</p>", nil, "ten thousand divs"},
		{"invalid bytes", "<p>Valid text \xff\xfe\xfd with bad bytes in the middle of a long sentence.</p>", nil, "with bad bytes"},
		{"declared wrongly", "<meta charset=utf-8><p>Un caf\xe9 cr\xe8me, s'il vous pla\xeet, et l'addition.</p>", nil, "Un café crème"},
		{"only markup", "<html><head></head><body><div><span></span></div></body></html>", nil, ""},
		{"text only", "Just a line of plain text with no markup at all, long enough to keep.", nil, "plain text"},
		{"unclosed title", "<title>Cut<body><p>The body text survives the unclosed title element.</p>", nil, "survives"},
	} {
		res, err := c.Clean(context.Background(), Input{Data: []byte(tc.src)})
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%s: err = %v, want %v", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := res.Text(); !strings.Contains(got, tc.wantSub) {
			t.Errorf("%s: text %q does not contain %q", tc.name, got, tc.wantSub)
		}
	}
}

// TestCleanHonoursContext stops before work when the context is done.
func TestCleanHonoursContext(t *testing.T) {
	c, _ := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Clean(ctx, Input{Data: []byte("<p>x</p>")}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
