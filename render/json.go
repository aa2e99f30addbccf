package render

import (
	"bufio"
	"encoding/json"
	"io"
	"math"

	"github.com/sluice-project/sluice/page"
)

// JSON writes one JSON object per document, followed by a newline, so that
// a Stream is JSON Lines. The object is a JSONDocument; its field names are
// stable:
//
//	{
//	  "url": "http://example.com/",   Meta.URL
//	  "title": "Example",             Meta.Title
//	  "encoding": "windows-1252",     Meta.Encoding
//	  "blocks": [                     kept blocks, or all with IncludeDropped
//	    {"index": 3, "text": "...", "label": "paragraph",
//	     "score": 0.92, "start": 812, "end": 1030}
//	  ],
//	  "segments": [                   as given by Segments
//	    {"label": "paragraph", "text": "...", "blocks": [3, 4]}
//	  ]
//	}
//
// Labels are page.Label names: "heading", "paragraph", "list",
// "continuation" and, for dropped blocks, "other". Segment labels are never
// "continuation" or "other". start and end are the block's byte span in the
// original input (0 and 0 when unknown). "blocks" and "segments" are [] and
// never null. HTML characters are not escaped as \u003c.
type JSON struct {
	IncludeDropped bool // list dropped blocks too, with label "other"
}

// JSONDocument is the object the json format writes for one page; decode
// the output into it to read it back.
type JSONDocument struct {
	URL      string        `json:"url"`
	Title    string        `json:"title"`
	Encoding string        `json:"encoding"`
	Blocks   []JSONBlock   `json:"blocks"`
	Segments []JSONSegment `json:"segments"`
}

// JSONBlock is one block in a JSONDocument.
type JSONBlock struct {
	Index int     `json:"index"` // the block's index in Page.Blocks
	Text  string  `json:"text"`
	Label string  `json:"label"`
	Score float64 `json:"score"` // the content score; 0 when not a number
	Start int     `json:"start"` // byte span in the original input
	End   int     `json:"end"`
}

// JSONSegment is one segment in a JSONDocument.
type JSONSegment struct {
	Label  string `json:"label"`
	Text   string `json:"text"`
	Blocks []int  `json:"blocks"` // indices in Page.Blocks (JSONBlock.Index)
}

// Render writes p as one JSON object and a newline.
func (j *JSON) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, j) }

// Document returns the JSONDocument that Render writes for p.
func (j *JSON) Document(p *page.Page) *JSONDocument {
	d := &JSONDocument{
		URL:      p.Meta.URL,
		Title:    p.Meta.Title,
		Encoding: p.Meta.Encoding,
	}
	n := 0
	for i := range p.Blocks {
		if j.IncludeDropped || p.Blocks[i].Label.Kept() {
			n++
		}
	}
	d.Blocks = make([]JSONBlock, 0, n)
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !j.IncludeDropped && !b.Label.Kept() {
			continue
		}
		score := b.Score
		if math.IsNaN(score) || math.IsInf(score, 0) {
			score = 0
		}
		d.Blocks = append(d.Blocks, JSONBlock{
			Index: i, Text: b.Text, Label: b.Label.String(), Score: score,
			Start: b.Source.Start, End: b.Source.End,
		})
	}
	segs := Segments(p)
	d.Segments = make([]JSONSegment, len(segs))
	for k := range segs {
		d.Segments[k] = JSONSegment{Label: segs[k].Label.String(), Text: segs[k].Text, Blocks: segs[k].Blocks}
	}
	return d
}

func (j *JSON) writeDoc(b *bufio.Writer, p *page.Page, _ int) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j.Document(p)); err != nil {
		return err
	}
	return bufErr(b)
}

func (*JSON) endStream(*bufio.Writer, int) error { return nil }
