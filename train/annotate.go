package train

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
)

// This file writes Victor's annotation format (seed, chapter 2.3), in which
// people label a page's text blocks by hand, and maps an annotation read
// back onto a page. The format (one block per line, "[p] text", "[h]",
// "[l]", "[c]", "[o]") and its reader are in package dataset, which reads
// annotated data sets without depending on the labeller:
//
//	[o] Home
//	[h] Rivers of the north
//	[p] The rivers of the north run cold
//	[c] and fast.
//	[l] Salmon
//
// The texts are the blocks' texts with line breaks turned into spaces;
// they are there for the reader and for ApplyAnnotation, which checks them
// against a freshly segmented page.

// AnnotatedBlock is one line of an annotation.
type AnnotatedBlock = dataset.AnnotatedBlock

// AnnotationError is an error at one line of an annotation, or, with Line
// 0, in the annotation as a whole.
type AnnotationError = dataset.AnnotationError

// ReadAnnotation reads an annotation in Victor's format; it is
// dataset.ReadAnnotation. Blank lines are skipped; every other line must be
// a block, "[x] text" with x one of h, p, l, c, o (upper case and the long
// names of page.ParseLabel, such as "[paragraph]", are accepted too). A
// byte order mark and CRLF line ends are allowed. A bad line is an
// *AnnotationError with its line number; several are joined with
// errors.Join (errors.As finds the first).
func ReadAnnotation(r io.Reader) ([]AnnotatedBlock, error) {
	return dataset.ReadAnnotation(r)
}

// annotationLetter is the letter of each label in the format.
var annotationLetter = [...]byte{page.Other: 'o', page.Heading: 'h', page.Paragraph: 'p', page.ListItem: 'l', page.Continuation: 'c'}

// WriteAnnotation writes the blocks of p with their labels in Victor's
// annotation format: one line per block, "[p] text" (or [h], [l], [c],
// [o]), line breaks in the text written as spaces. labels must have one
// label per block.
func WriteAnnotation(w io.Writer, p *page.Page, labels []page.Label) error {
	if len(labels) != len(p.Blocks) {
		return fmt.Errorf("label: %d labels for %d blocks", len(labels), len(p.Blocks))
	}
	bw := bufio.NewWriter(w)
	for i := range p.Blocks {
		l := labels[i]
		if int(l) >= len(annotationLetter) {
			return fmt.Errorf("label: block %d has the invalid label %d", i, l)
		}
		bw.WriteByte('[')
		bw.WriteByte(annotationLetter[l])
		bw.WriteString("] ")
		writeLine(bw, p.Blocks[i].Text)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// writeLine writes s with its line breaks (CR, LF, and the Unicode line and
// paragraph separators) as spaces.
func writeLine(bw *bufio.Writer, s string) {
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n\u2028\u2029\u0085")
		if i < 0 {
			bw.WriteString(s)
			return
		}
		bw.WriteString(s[:i])
		bw.WriteByte(' ')
		_, size := utf8.DecodeRuneInString(s[i:])
		s = s[i+size:]
	}
}

// ApplyAnnotation maps an annotation (as read by ReadAnnotation, possibly
// edited by hand) back onto a freshly segmented page: the annotation's
// blocks must be the page's blocks, in order, with the same texts up to
// white space. It returns the annotation's labels, one per block of p. The
// first block that does not match is reported as an *AnnotationError at
// its line, with both texts from where they differ; so is a difference in
// the number of blocks.
func ApplyAnnotation(p *page.Page, ann []AnnotatedBlock) ([]page.Label, error) {
	labels := make([]page.Label, len(p.Blocks))
	for i, a := range ann {
		if i >= len(p.Blocks) {
			return nil, &AnnotationError{Line: a.Line, Msg: fmt.Sprintf(
				"%s is block %d but the page has only %d blocks: was the annotation made for this page, "+
					"with the same version of the segmenter?", annWhere(a, i), i+1, len(p.Blocks))}
		}
		if int(a.Label) >= len(annotationLetter) {
			return nil, &AnnotationError{Line: a.Line, Msg: fmt.Sprintf("%s has the invalid label %d", annWhere(a, i), a.Label)}
		}
		if ka, kb, same := compareWords(a.Text, p.Blocks[i].Text); !same {
			return nil, &AnnotationError{Line: a.Line, Msg: fmt.Sprintf(
				"%s does not match block %d of the page: %s (only white space may differ; edit the labels, not the texts)",
				annWhere(a, i), i+1, difference(a.Text, p.Blocks[i].Text, ka, kb))}
		}
		labels[i] = a.Label
	}
	if len(ann) < len(p.Blocks) {
		line := 0
		if len(ann) > 0 {
			line = ann[len(ann)-1].Line
		}
		return nil, &AnnotationError{Line: line, Msg: fmt.Sprintf(
			"the annotation ends after %d blocks but the page has %d; the next is %q",
			len(ann), len(p.Blocks), dataset.ClipText(p.Blocks[len(ann)].Text, 60))}
	}
	return labels, nil
}

// annWhere names an annotated block in messages: its line when known.
func annWhere(a AnnotatedBlock, i int) string {
	if a.Line > 0 {
		return "this line"
	}
	return fmt.Sprintf("annotated block %d", i+1)
}

// compareWords compares a and b word by word, white space being only a
// separator. When they differ, ka and kb are the byte offsets in a and b of
// the first words that differ (the length of the text that ran out first).
func compareWords(a, b string) (ka, kb int, same bool) {
	i, j := annSkipSpace(a, 0), annSkipSpace(b, 0)
	for i < len(a) && j < len(b) {
		ei, ej := annWordEnd(a, i), annWordEnd(b, j)
		if a[i:ei] != b[j:ej] {
			return i, j, false
		}
		i, j = annSkipSpace(a, ei), annSkipSpace(b, ej)
	}
	if i < len(a) || j < len(b) {
		return i, j, false
	}
	return 0, 0, true
}

// annWordEnd returns the end of the word that starts at byte i of s.
func annWordEnd(s string, i int) int {
	for i < len(s) && !annSpaceAt(s, i) {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// annSpaceAt reports whether s has white space at byte i.
func annSpaceAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return isTokenSpace(r)
}

// annSkipSpace returns the first byte offset from i where s has no white
// space.
func annSkipSpace(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isTokenSpace(r) {
			break
		}
		i += size
	}
	return i
}

// difference describes where the annotated text a and the page's text b
// part, at byte offsets ka and kb.
func difference(a, b string, ka, kb int) string {
	switch {
	case kb >= len(b):
		return fmt.Sprintf("the annotation goes on with %q where the page's block ends", excerptAt(a, ka))
	case ka >= len(a):
		return fmt.Sprintf("the annotation ends where the page's block goes on with %q", excerptAt(b, kb))
	}
	return fmt.Sprintf("the annotation has %q where the page has %q", excerptAt(a, ka), excerptAt(b, kb))
}

// excerptAt returns up to 40 bytes of s from offset k (on a rune boundary),
// with "…" where it is cut; "" at the end of s.
func excerptAt(s string, k int) string {
	if k > len(s) {
		k = len(s)
	}
	for k > 0 && k < len(s) && !utf8.RuneStart(s[k]) {
		k--
	}
	out := dataset.ClipText(s[k:], 40)
	if k > 0 {
		out = "…" + out
	}
	return out
}
