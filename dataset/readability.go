package dataset

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
