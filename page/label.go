package page

// Label is what a block is, as decided by the labeller: the four CleanEval
// segment kinds of Victor plus "other" for boilerplate.
type Label uint8

// The labels, in Victor's order.
const (
	Other        Label = iota // boilerplate, not kept
	Heading                   // starts a CleanEval <h> segment
	Paragraph                 // starts a <p> segment
	ListItem                  // starts an <l> segment
	Continuation              // continues the previous kept segment
)

var labelNames = [...]string{"other", "heading", "paragraph", "list", "continuation"}

// String returns the label's name: other, heading, paragraph, list or
// continuation.
func (l Label) String() string {
	if int(l) < len(labelNames) {
		return labelNames[l]
	}
	return "invalid"
}

// Tag returns the CleanEval tag that opens a segment of this label ("<p>",
// "<h>", "<l>"), or "" for Other and Continuation.
func (l Label) Tag() string {
	switch l {
	case Heading:
		return "<h>"
	case Paragraph:
		return "<p>"
	case ListItem:
		return "<l>"
	}
	return ""
}

// Kept reports whether a block with this label is main content.
func (l Label) Kept() bool { return l != Other }

// ParseLabel returns the label named s (as printed by String, or the Victor
// annotation letters o, h, p, l, c).
func ParseLabel(s string) (Label, bool) {
	switch s {
	case "other", "o":
		return Other, true
	case "heading", "h":
		return Heading, true
	case "paragraph", "p":
		return Paragraph, true
	case "list", "l":
		return ListItem, true
	case "continuation", "c":
		return Continuation, true
	}
	return Other, false
}
