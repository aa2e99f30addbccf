package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
)

// This file reads Victor's annotation format (seed, chapter 2.3), in which
// people label a page's text blocks by hand, and the annotated data sets
// made of pages and their annotations. An annotation has one block per
// line, in page order, its label in brackets, a space and its text:
//
//	[o] Home
//	[h] Rivers of the north
//	[p] The rivers of the north run cold
//	[c] and fast.
//	[l] Salmon
//
// The labels are [h] heading, [p] paragraph, [l] list item, [c]
// continuation (the block goes on with the last segment opened by [h], [p]
// or [l]) and [o] other (boilerplate). The texts are the blocks' texts with
// line breaks turned into spaces. Package label writes annotations
// (label.WriteAnnotation) and maps them back onto a segmented page
// (label.ApplyAnnotation), which checks the texts.

// Annotated is the kind of the sets labelled by hand: html/NAME.html and
// ann/NAME.ann, an annotation in Victor's format ("sluice annotate" writes
// and checks them; a NAME such as example.com_3 gives the site).
const Annotated Kind = "annotated"

// annotatedKind is the kind of annotated sets. Their annotation labels the
// blocks itself; as a gold standard it is CleanEval's (see
// AnnotationSegments), so they are measured with the CleanEval metric.
// Open tries it first: html/ with ann/ is an annotated set even when the
// folder has another gold too, since labels corrected by hand are the
// better gold.
type annotatedKind struct{}

func (annotatedKind) Kind() Kind                      { return Annotated }
func (annotatedKind) Layout() Layout                  { return Layout{"html", ".html", "ann", ".ann"} }
func (annotatedKind) Detect(string) bool              { return true }
func (annotatedKind) Open(string) (GoldReader, error) { return readAnnotated, nil }
func (annotatedKind) MainMetric() string              { return "cleaneval" }
func (annotatedKind) DefaultStyle(string) string      { return "main" }
func (annotatedKind) Alignment() Alignment            { return AlignSegments }
func (annotatedKind) Annotated() bool                 { return true }

// AnnotatedBlock is one line of an annotation.
type AnnotatedBlock struct {
	Label page.Label
	// Text is the block's text as the line gives it.
	Text string
	// Line is the line's number (from 1) in the annotation read, 0 for a
	// block that was not read from a file.
	Line int
}

// AnnotationError is an error at one line of an annotation, or, with Line
// 0, in the annotation as a whole.
type AnnotationError struct {
	Line int
	Msg  string
}

func (e *AnnotationError) Error() string {
	if e.Line <= 0 {
		return "annotation: " + e.Msg
	}
	return fmt.Sprintf("annotation line %d: %s", e.Line, e.Msg)
}

// validLine says what a line must look like, for error messages.
const validLine = `want a label in brackets, a space and the block's text, such as "[p] Some text." ` +
	`(labels: [h] heading, [p] paragraph, [l] list item, [c] continuation, [o] other)`

// maxAnnotationErrors is the number of bad lines after which
// ReadAnnotation stops reading.
const maxAnnotationErrors = 20

// ReadAnnotation reads an annotation in Victor's format. Blank lines are
// skipped; every other line must be a block, "[x] text" with x one of h, p,
// l, c, o (upper case and the long names of page.ParseLabel, such as
// "[paragraph]", are accepted too). A byte order mark and CRLF line ends
// are allowed.
//
// A bad line is an *AnnotationError with its line number, the first one
// saying what a valid line looks like. Reading goes on after it so that
// one pass finds every mistake (up to 20): the error is then the
// *AnnotationError of each bad line joined with errors.Join, in order
// (errors.As finds the first). The blocks returned with an error are
// those of the good lines.
func ReadAnnotation(r io.Reader) ([]AnnotatedBlock, error) {
	br := bufio.NewReader(r)
	var out []AnnotatedBlock
	var errs []error
	for n := 1; ; n++ {
		line, err := br.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			errs = append(errs, fmt.Errorf("annotation line %d: %w", n, err))
			return out, errors.Join(errs...)
		}
		if line == "" && err != nil {
			break
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if strings.TrimSpace(line) != "" {
			b, perr := parseAnnotationLine(line)
			if perr != nil {
				msg := perr.Error()
				if len(errs) == 0 {
					msg += "; " + validLine
				}
				errs = append(errs, &AnnotationError{Line: n, Msg: msg})
				if len(errs) == maxAnnotationErrors {
					break
				}
				continue
			}
			b.Line = n
			out = append(out, b)
		}
		if err != nil {
			break
		}
	}
	return out, errors.Join(errs...)
}

// parseAnnotationLine parses one non-blank line.
func parseAnnotationLine(line string) (AnnotatedBlock, error) {
	s := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(s, "[") {
		return AnnotatedBlock{}, fmt.Errorf("%q does not start with a label", ClipText(line, 40))
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return AnnotatedBlock{}, fmt.Errorf("%q has no closing bracket", ClipText(line, 40))
	}
	name := strings.ToLower(strings.TrimSpace(s[1:end]))
	l, ok := page.ParseLabel(name)
	if !ok {
		return AnnotatedBlock{}, fmt.Errorf("unknown label [%s]", ClipText(s[1:end], 20))
	}
	text := s[end+1:]
	if text != "" && text[0] != ' ' && text[0] != '\t' {
		return AnnotatedBlock{}, fmt.Errorf("no space after [%s]", s[1:end])
	}
	if text != "" {
		text = text[1:]
	}
	return AnnotatedBlock{Label: l, Text: text}, nil
}

// AnnotationSegments turns an annotation into the segments of a CleanEval
// gold standard, as Victor's victor2cleaneval does: [h], [p] and [l] open a
// segment, [c] adds its text to the last segment opened (past any [o]
// lines; a [c] before any segment opens a paragraph), and [o] is left out.
// White space in the texts is collapsed; empty segments are dropped.
func AnnotationSegments(ann []AnnotatedBlock) []Segment {
	var segs []Segment
	open := false
	for _, a := range ann {
		t := collapse(a.Text)
		switch a.Label {
		case page.Heading, page.Paragraph, page.ListItem:
			segs = append(segs, Segment{Label: a.Label, Text: t})
			open = true
		case page.Continuation:
			if !open {
				segs = append(segs, Segment{Label: page.Paragraph, Text: t})
				open = true
				continue
			}
			s := &segs[len(segs)-1]
			if s.Text != "" && t != "" {
				s.Text += " "
			}
			s.Text += t
		}
	}
	out := segs[:0]
	for _, s := range segs {
		if s.Text != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// ParseAnnotation reads the bytes of an annotation file as the annotated
// sets do: decoded as gold files are (a byte order mark for UTF-8 or
// UTF-16, else UTF-8 where it is valid and windows-1252 where it is not, so
// that a file an editor saved in a legacy charset still reads), then
// parsed by ReadAnnotation. It also returns the decoded text.
func ParseAnnotation(b []byte) ([]AnnotatedBlock, string, error) {
	text := decodeText(b)
	blocks, err := ReadAnnotation(strings.NewReader(text))
	return blocks, text, err
}

// readAnnotated fills p from a page of an annotated set: the annotation,
// the segments and text it gives, the URL from a CleanEval wrapper in the
// page, the site from a file name that starts with a host name, as in
// cleanportaleval ("example.com_3": pages of one site stay in one
// cross-validation fold).
func readAnnotated(p *Page, ann []byte) error {
	blocks, raw, err := ParseAnnotation(ann)
	p.Gold.Raw = raw
	if err != nil {
		return err
	}
	if len(blocks) == 0 {
		return &AnnotationError{Msg: "the file holds no blocks; write one with \"sluice annotate\""}
	}
	p.Gold.Annotation = blocks
	p.Gold.Segments = AnnotationSegments(blocks)
	p.Gold.Text = segmentsText(p.Gold.Segments)
	p.URL = wrapperURL(p.HTML)
	p.Site = siteFromName(p.ID)
	return nil
}

// ClipText returns s cut to at most n bytes on a rune boundary, with "…"
// where it is cut: the excerpts of messages about annotations.
func ClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
