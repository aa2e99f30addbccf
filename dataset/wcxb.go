package dataset

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WCXB is the kind of the WCXB benchmark: html/NNNN.html.gz and
// gold/NNNN.json (wcxb-dev).
const WCXB Kind = "wcxb"

// wcxbKind is the WCXB kind: text gold with snippets and page types,
// measured with bag-of-words F1, WCXB's own measure.
type wcxbKind struct{}

func (wcxbKind) Kind() Kind                      { return WCXB }
func (wcxbKind) Layout() Layout                  { return Layout{"html", ".html.gz", "gold", ".json"} }
func (wcxbKind) Open(string) (GoldReader, error) { return readWCXB, nil }
func (wcxbKind) MainMetric() string              { return "bow" }
func (wcxbKind) DefaultStyle(string) string      { return "main" }
func (wcxbKind) Alignment() Alignment            { return AlignText }
func (wcxbKind) Annotated() bool                 { return false }

// Detect reports whether gold/ holds .json files.
func (wcxbKind) Detect(dir string) bool {
	json, _ := stems(filepath.Join(dir, "gold"), ".json")
	return len(json) > 0
}

// wcxbGold is the part of a WCXB gold JSON file that the package reads.
// Besides these, the files carry annotation bookkeeping (schema_version,
// file_id, _internal.page_type.confidence and tags, reannotation notes...).
type wcxbGold struct {
	URL         string `json:"url"`
	GroundTruth struct {
		Title               string     `json:"title"`
		Author              string     `json:"author"`
		PublishDate         string     `json:"publish_date"`
		MainContent         *string    `json:"main_content"`
		MainContentMarkdown string     `json:"main_content_markdown"`
		With                stringList `json:"with"`
		Without             stringList `json:"without"`
		// Rare files put these under ground_truth.
		URL      string       `json:"url"`
		PageType wcxbPageType `json:"page_type"`
	} `json:"ground_truth"`
	Internal struct {
		PageType wcxbPageType `json:"page_type"`
	} `json:"_internal"`
}

// wcxbPageType is a page type given either as {"primary": "article", ...}
// (the usual form) or as a bare string.
type wcxbPageType string

func (t *wcxbPageType) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = wcxbPageType(s)
		return nil
	}
	var o struct {
		Primary string `json:"primary"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return fmt.Errorf("page_type: %w", err)
	}
	*t = wcxbPageType(o.Primary)
	return nil
}

// stringList is a JSON array of strings; a bare string or null is taken
// as a list of one or none, to be lenient with hand-edited files.
type stringList []string

func (l *stringList) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != "" {
			*l = []string{s}
		}
		return nil
	}
	var a []string
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*l = a
	return nil
}

// readWCXB fills p from a WCXB gold JSON file. The fields used:
// url (or ground_truth.url), ground_truth.main_content (Raw; its
// non-blank lines are the paragraphs of Text), main_content_markdown,
// with, without, title, author, publish_date (null is ""), and
// _internal.page_type.primary (or ground_truth.page_type). A file without
// main_content is valid and has empty gold text (wcxb-dev 4802 and 4893).
func readWCXB(p *Page, gold []byte) error {
	var g wcxbGold
	if err := json.Unmarshal(gold, &g); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	gt := &g.GroundTruth
	p.URL = strings.TrimSpace(g.URL)
	if p.URL == "" {
		p.URL = strings.TrimSpace(gt.URL)
	}
	if gt.MainContent != nil {
		p.Gold.Raw = *gt.MainContent
	}
	p.Gold.Text = joinParagraphs(lineParagraphs(strings.ReplaceAll(p.Gold.Raw, "\r", "\n")))
	p.Gold.Markdown = gt.MainContentMarkdown
	p.Gold.With = []string(gt.With)
	p.Gold.Without = []string(gt.Without)
	p.Gold.Title = strings.TrimSpace(gt.Title)
	p.Gold.Author = strings.TrimSpace(gt.Author)
	p.Gold.Date = strings.TrimSpace(gt.PublishDate)
	p.Gold.PageType = string(g.Internal.PageType)
	if p.Gold.PageType == "" {
		p.Gold.PageType = string(gt.PageType)
	}
	return nil
}

// readGzip returns the decompressed content of a gzip file.
func readGzip(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	// The gzip trailer ends with the uncompressed size modulo 2^32: trust
	// it for the buffer's size when it is plausible.
	size := 4 * len(b)
	if len(b) >= 4 {
		if n := int(binary.LittleEndian.Uint32(b[len(b)-4:])); n >= len(b)/2 && n <= 64*len(b)+1024 {
			size = n
		}
	}
	// bytes.MinRead spare: the buffer then never grows to see EOF.
	out := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return out.Bytes(), nil
}
