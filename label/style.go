package label

import (
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/crf"
)

// Annotation styles. Gold standards disagree on what content is: the
// article-extraction sets (WCXB, Dragnet, L3S-GN1, Readability's tests,
// CleanPortalEval) keep a page's main content only, while CleanEval's
// guidelines keep all of its running text: the teasers of a listing page,
// the entries of a classified-ads page, comments. A labeller trained on
// both learns each style as its own variant of one model (feature
// augmentation, Daumé III 2007): every block attribute is a feature shared
// by all styles, and, through the template line StyleLine, also a feature
// of its page's style, which adjusts the shared weights where the style
// disagrees. Pages of MainStyle carry no style attribute: the shared
// weights are the main style's, and labelling in it costs nothing extra.
const (
	// MainStyle keeps a page's main content only. It is the default.
	MainStyle = "main"
	// CleanEvalStyle keeps all running text of a page, as CleanEval's
	// annotators did.
	CleanEvalStyle = "cleaneval"
)

// StyleKey is the attribute key of a page's style: blocks of a page of
// style S other than MainStyle carry the attribute "style=S".
const StyleKey = "style"

// StyleLine is the CRF template line that conjoins every attribute of a
// block with its page's style.
const StyleLine = "U[0] & U[0]:" + StyleKey

// CheckStyle checks a style name: letters, digits and "-", so that it makes
// a valid attribute.
func CheckStyle(s string) error {
	if s == "" {
		return fmt.Errorf("label: empty style name")
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return fmt.Errorf("label: style %q: use lower-case letters, digits and -", s)
		}
	}
	return nil
}

// NormStyle maps "" to MainStyle.
func NormStyle(s string) string {
	if s == "" {
		return MainStyle
	}
	return s
}

// WithStyle returns attrs with the attribute of style added to every
// position; attrs is returned as is for MainStyle. The result shares no
// memory with attrs' lists.
func WithStyle(attrs [][]crf.Attr, style string) [][]crf.Attr {
	return withStyle(attrs, style, new(extended))
}

// withStyle is WithStyle in x's memory.
func withStyle(attrs [][]crf.Attr, style string, x *extended) [][]crf.Attr {
	style = NormStyle(style)
	if style == MainStyle || len(attrs) == 0 {
		return attrs
	}
	sa := crf.Attr{Name: StyleKey + "=" + style}
	return x.extend(attrs, 1, func(_ int, dst []crf.Attr) []crf.Attr { return append(dst, sa) })
}

// styleList is the list of styles a model knows, for messages.
func styleList(styles []string) string {
	return strings.Join(append([]string{MainStyle}, styles...), ", ")
}
