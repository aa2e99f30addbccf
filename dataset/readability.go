package dataset

// Readability is the kind of Mozilla Readability's test pages: html/N.html
// and expected/N.txt, the HTML fragment that Readability.js extracts.
const Readability Kind = "readability"

// readabilityKind is the Readability kind. Its gold's segments come from
// the expected HTML's block elements, whose labels are not what a person
// would give, so the blocks are aligned with its text.
type readabilityKind struct{}

func (readabilityKind) Kind() Kind                      { return Readability }
func (readabilityKind) Layout() Layout                  { return Layout{"html", ".html", "expected", ".txt"} }
func (readabilityKind) Detect(string) bool              { return true }
func (readabilityKind) Open(string) (GoldReader, error) { return readReadability, nil }
func (readabilityKind) MainMetric() string              { return "bow" }
func (readabilityKind) DefaultStyle(string) string      { return "main" }
func (readabilityKind) Alignment() Alignment            { return AlignText }
func (readabilityKind) Annotated() bool                 { return false }

// readReadability fills p's gold from a Readability expected/N.txt, the
// HTML fragment Readability.js extracts: Segments are its blocks, Text
// their texts separated by blank lines.
func readReadability(p *Page, gold []byte) error {
	p.Gold.Raw = decodeText(gold)
	doc, err := parseHTML(p.Gold.Raw)
	if err != nil {
		return err
	}
	p.Gold.Segments = htmlSegments(doc)
	p.Gold.Text = segmentsText(p.Gold.Segments)
	return nil
}
