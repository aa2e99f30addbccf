package render

import (
	"bufio"
	"io"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/langid"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/tables"
)

// JSON writes one JSON object per document, followed by a newline, so that
// a Stream is JSON Lines. The object is a JSONDocument, the one JSON schema
// of a cleaned page: sluice clean --format json writes it, and so does
// sluice corpus, one per line of its jsonl parts. HTML characters are not
// escaped as \u003c. See JSONDocument.AppendJSON for writing one without
// reflection.
type JSON struct {
	IncludeDropped bool // list dropped blocks too, with label "other"
	// Tables says how data tables are written: TablesGrid (the default)
	// lists them in "tables", the text and segments as the blocks give
	// them; TablesLinear lists them too, with one clause per data row in
	// the text and segments instead of their cells; TablesBlocks leaves
	// "tables" out.
	Tables Tables
	// BlockLanguages gives each kept block in another language than the
	// document's its "lang" (langid.Block). It costs some 0.1 ms a block
	// of 40 letters or more, several times what cleaning the page took
	// on a long page (docs/langid.md), so it is off unless asked for.
	BlockLanguages bool
}

// JSONDocument is a cleaned page as JSON; decode the output into it to
// read it back. Its field names are stable:
//
//	{
//	  "url": "http://example.com/a",  Meta.URL: the record's WARC-Target-URI, --url, or the CleanEval wrapper's id
//	  "host": "example.com",          the URL's host in lower case; "" without one
//	  "date": "2024-05-06T07:08:02Z", the capture date (WARC-Date), RFC 3339; only for archive records
//	  "title": "Example",             Meta.Title
//	  "encoding": "windows-1252",     Meta.Encoding: the charset the page was decoded from
//	  "language": "fr",               the language of the kept text (langid.Page); left out when unknown
//	  "declared_language": "en",      the language the page declares, when another (left out otherwise)
//	  "metadata": {                   what the markup says of the page (package metadata); each field left out when unknown
//	    "title": "...", "author": "...", "published": "2024-05-06", "modified": "2024-05-07",
//	    "site_name": "...", "description": "...", "language": "en", "canonical": "https://...",
//	    "image": "https://...", "license": "...", "categories": ["..."], "tags": ["..."]
//	  },
//	  "text": "...",                  the kept text as the text format writes it, without the last newline
//	  "blocks": [                     the kept blocks, or all with IncludeDropped
//	    {"index": 3, "label": "paragraph", "text": "...",
//	     "score": 0.92, "start": 812, "end": 1030,
//	     "lang": "de",                                      with BlockLanguages, when the block is in another language than the document's
//	     "links": [{"text": "...", "href": "/a"}],          only when the page records links (sluice clean --links)
//	     "images": [{"src": "/a.png", "alt": "..."}]}      only when the page records images (--images)
//	  ],
//	  "segments": [                   as Segments gives them
//	    {"label": "paragraph", "text": "...", "blocks": [3, 4]}
//	  ],
//	  "tables": [                     the data tables written as tables (see Tables)
//	    {"index": 0, "kind": "data", "rows": 6, "cols": 4, "caption": "...",
//	     "cells": [{"row": 0, "col": 0, "rowspan": 1, "colspan": 4,
//	                "role": "thema", "text": "...", "blocks": [5]}]}
//	  ],
//	  "source": {"file": "crawl.warc.gz", "offset": 1024, "length": 5120,
//	             "member_offset": 0, "record_id": "<urn:uuid:...>"},
//	                                  where the page is in its input; only from sluice corpus
//	  "site": {"pages": 5, "dropped": 1, "rescued": 0}
//	                                  what the site model of the host did; only from sluice corpus --site
//	}
//
// Labels are page.Label names: "heading", "paragraph", "list",
// "continuation" and, for dropped blocks, "other". Segment labels are never
// "continuation" or "other". A block's index is its index in Page.Blocks,
// its score the content score rounded to three decimals (0 when not a
// number), start and end its byte span in the original input (0 and 0 when
// unknown). A block's "links" are the links inside it (page.Link: the
// anchor text as the block's text has it, the href as written, whatever
// its scheme) and its "images" the images (page.Image: src as written,
// alt), each left out when there is none. "file" is the input file's name (page.Meta.File: sluice clean
// sets it for file inputs). "blocks" and "segments" are [] and never null;
// "date", "file", "source" and "site" are left out when there is nothing
// to say, and so
// are "member_offset" and "record_id" in "source".
//
// "tables" lists the data tables of the page that are written as tables
// (tables.Views: a data table whose non-empty cells the cleaner mostly
// kept); it is left out when there is none, and with TablesBlocks. A
// table's index is its index in Page.Tables, its kind "data" (the field
// leaves room for layout tables), rows and cols the grid's size and
// caption the kept text of its <caption> (left out when empty). Its cells are all of its cells in
// document order: the grid row and column of the top-left slot, the spans
// (clipped to the grid), the role (tables.Role names: "header", "data",
// "neutral", "thema", "finalImportant", "finalNonImportant"), the text of
// its kept blocks ("" for a cell the cleaner dropped) and those blocks'
// indices.
type JSONDocument struct {
	URL      string `json:"url"`
	Host     string `json:"host"`
	Date     string `json:"date,omitempty"`
	File     string `json:"file,omitempty"`
	Title    string `json:"title"`
	Encoding string `json:"encoding"`
	// Language is the language of the kept text (langid.Page:
	// page.Meta.Language, told from the text when not yet set);
	// DeclaredLanguage the one the page declares (langid.Declared of
	// page.Meta.Lang) when that is another.
	Language         string        `json:"language,omitempty"`
	DeclaredLanguage string        `json:"declared_language,omitempty"`
	Metadata         *JSONMetadata `json:"metadata,omitempty"`
	Text             string        `json:"text"`
	Blocks           []JSONBlock   `json:"blocks"`
	Segments         []JSONSegment `json:"segments"`
	Tables           []JSONTable   `json:"tables,omitempty"`
	Source           *JSONSource   `json:"source,omitempty"`
	Site             *JSONSite     `json:"site,omitempty"`
}

// JSONMetadata is what the page's markup says of it (page.Meta, package
// metadata): each field is left out when unknown.
type JSONMetadata struct {
	Title       string   `json:"title,omitempty"` // the headline, without the site's name
	Author      string   `json:"author,omitempty"`
	Published   string   `json:"published,omitempty"` // YYYY-MM-DD
	Modified    string   `json:"modified,omitempty"`  // YYYY-MM-DD
	SiteName    string   `json:"site_name,omitempty"`
	Description string   `json:"description,omitempty"`
	Language    string   `json:"language,omitempty"`
	Canonical   string   `json:"canonical,omitempty"`
	Image       string   `json:"image,omitempty"`
	License     string   `json:"license,omitempty"`
	Categories  []string `json:"categories,omitempty"`
	Tags        []string `json:"tags,omitempty"`
}

// metadataOf returns m's metadata, or nil when there is none.
func metadataOf(m *page.Meta) *JSONMetadata {
	md := JSONMetadata{
		Title: m.Headline, Author: m.Author, Published: m.Published, Modified: m.Modified,
		SiteName: m.SiteName, Description: m.Description, Language: m.Lang, Canonical: m.Canonical,
		Image: m.Image, License: m.License, Categories: m.Categories, Tags: m.Tags,
	}
	if reflect.ValueOf(md).IsZero() {
		return nil
	}
	return &md
}

// JSONBlock is one block in a JSONDocument.
type JSONBlock struct {
	Index int     `json:"index"` // the block's index in Page.Blocks
	Label string  `json:"label"`
	Text  string  `json:"text"`
	Score float64 `json:"score"` // the content score, rounded to 3 decimals; 0 when not a number
	Start int     `json:"start"` // byte span in the original input
	End   int     `json:"end"`
	// Lang is the block's language when it is not the document's
	// (langid.Block: a kept block of at least langid.MinBlockLetters
	// letters, told reliably); left out otherwise.
	Lang string `json:"lang,omitempty"`
	// Links and Images are the block's links and images, when the page
	// records them (page.Page.Links, Images); left out when none.
	Links  []JSONLink  `json:"links,omitempty"`
	Images []JSONImage `json:"images,omitempty"`
}

// JSONLink is a link inside a block (page.Link).
type JSONLink struct {
	Text string `json:"text"` // the anchor text, as in the block's text
	Href string `json:"href"` // as written in the page
}

// JSONImage is an image inside a block (page.Image).
type JSONImage struct {
	Src string `json:"src"` // as written in the page
	Alt string `json:"alt"`
}

// JSONSegment is one segment in a JSONDocument.
type JSONSegment struct {
	Label  string `json:"label"`
	Text   string `json:"text"`
	Blocks []int  `json:"blocks"` // indices in Page.Blocks (JSONBlock.Index)
}

// JSONTable is one data table in a JSONDocument.
type JSONTable struct {
	Index   int        `json:"index"` // the table's index in Page.Tables
	Kind    string     `json:"kind"`  // "data"
	Rows    int        `json:"rows"`
	Cols    int        `json:"cols"`
	Caption string     `json:"caption,omitempty"`
	Cells   []JSONCell `json:"cells"`
}

// JSONCell is one cell of a JSONTable.
type JSONCell struct {
	Row     int    `json:"row"` // the grid coordinates of the top-left slot
	Col     int    `json:"col"`
	RowSpan int    `json:"rowspan"`
	ColSpan int    `json:"colspan"`
	Role    string `json:"role"`   // a tables.Role name
	Text    string `json:"text"`   // of the kept blocks; "" when dropped
	Blocks  []int  `json:"blocks"` // the kept blocks, indices in Page.Blocks
}

// JSONSource says where a page comes from: the input file and, in an
// archive, the record's offset and length in it (see warc.Record: of its
// gzip member in a file compressed record by record) and its
// WARC-Record-ID. For a file compressed as one gzip stream, MemberOffset is
// the file offset of the member and Offset and Length count decompressed
// bytes in it. For an HTML file, Offset is 0 and Length its size.
type JSONSource struct {
	File         string `json:"file"`
	Offset       int64  `json:"offset"`
	Length       int64  `json:"length"`
	MemberOffset *int64 `json:"member_offset,omitempty"`
	RecordID     string `json:"record_id,omitempty"`
}

// JSONSite says what the site model of a page's host did to it: the number
// of the host's pages the model was built from (the page included), the
// kept blocks it dropped as template and the dropped blocks it kept as the
// page's own prose (see site.Model.Apply).
type JSONSite struct {
	Pages   int `json:"pages"`
	Dropped int `json:"dropped"`
	Rescued int `json:"rescued"`
}

// Render writes p as one JSON object and a newline.
func (j *JSON) Render(w io.Writer, p *page.Page) error { return renderDoc(w, p, j) }

// Document returns the JSONDocument that Render writes for p. Date, Source
// and Site are for the caller to fill in: a page does not know them.
func (j *JSON) Document(p *page.Page) *JSONDocument {
	d := &JSONDocument{}
	j.Fill(d, p)
	return d
}

// Fill sets the fields of d that p gives, as Document does, reusing the
// memory of d.Blocks and d.Segments; Date, Source and Site are left as
// they are.
func (j *JSON) Fill(d *JSONDocument, p *page.Page) {
	d.URL, d.Host, d.Title, d.Encoding = p.Meta.URL, p.Meta.Host(), p.Meta.Title, p.Meta.Encoding
	d.File = p.Meta.File
	d.Language, d.DeclaredLanguage = langid.Page(p), ""
	if decl := langid.Declared(p.Meta.Lang); decl != d.Language {
		d.DeclaredLanguage = decl
	}
	d.Metadata = metadataOf(&p.Meta)
	n := 0
	for i := range p.Blocks {
		if j.IncludeDropped || p.Blocks[i].Label.Kept() {
			n++
		}
	}
	d.Blocks = slices.Grow(d.Blocks[:0], n)
	if d.Blocks == nil {
		d.Blocks = []JSONBlock{} // [], not null
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if !j.IncludeDropped && !b.Label.Kept() {
			continue
		}
		score := b.Score
		if math.IsNaN(score) || math.IsInf(score, 0) {
			score = 0
		}
		jb := JSONBlock{
			Index: i, Label: b.Label.String(), Text: b.Text, Score: math.Round(score*1000) / 1000,
			Start: b.Source.Start, End: b.Source.End,
		}
		if j.BlockLanguages && b.Label.Kept() {
			jb.Lang = langid.Block(b.Text, d.Language)
		}
		d.Blocks = append(d.Blocks, jb)
	}
	if len(p.Links) > 0 || len(p.Images) > 0 {
		fillRefs(d.Blocks, p)
	}
	mode := j.Tables.or(TablesGrid)
	f := flow{segs: Segments(p)}
	if mode == TablesLinear {
		f = pageFlow(p, mode)
	} else if mode == TablesGrid && len(p.Tables) > 0 {
		f.views, _ = tables.Views(p)
	}
	segs := f.segs
	d.Tables = fillTables(d.Tables[:0], p, f.views)
	d.Text = plainText(segs)
	d.Segments = slices.Grow(d.Segments[:0], len(segs))
	if d.Segments == nil {
		d.Segments = []JSONSegment{}
	}
	for k := range segs {
		d.Segments = append(d.Segments, JSONSegment{Label: segs[k].Label.String(), Text: segs[k].Text, Blocks: segs[k].Blocks})
	}
}

// fillRefs sets the links and images of blocks, the JSON of p's blocks,
// each set's elements in one array.
func fillRefs(blocks []JSONBlock, p *page.Page) {
	links := make([]JSONLink, 0, len(p.Links))
	images := make([]JSONImage, 0, len(p.Images))
	for k := range blocks {
		jb := &blocks[k]
		start := len(links)
		for _, l := range p.BlockLinks(jb.Index) {
			links = append(links, JSONLink{Text: l.Text, Href: l.Href})
		}
		if len(links) > start {
			jb.Links = links[start:len(links):len(links)]
		}
		start = len(images)
		for _, im := range p.BlockImages(jb.Index) {
			images = append(images, JSONImage{Src: im.Src, Alt: im.Alt})
		}
		if len(images) > start {
			jb.Images = images[start:len(images):len(images)]
		}
	}
}

// fillTables appends the JSON of the data tables views to ts; nil when
// there is none.
func fillTables(ts []JSONTable, p *page.Page, views []tables.View) []JSONTable {
	if len(views) == 0 {
		return nil
	}
	for k := range views {
		v := &views[k]
		t := v.Table
		jt := JSONTable{Index: v.Index, Kind: "data", Rows: int(t.Rows), Cols: int(t.Cols), Caption: v.Caption,
			Cells: make([]JSONCell, len(t.Cells))}
		// One backing array for the cells' blocks.
		n := 0
		for i := range t.Cells {
			n += int(max(t.Cells[i].End-max(t.Cells[i].First, 0), 0))
		}
		all := make([]int, 0, min(n, len(p.Blocks)))
		for i := range t.Cells {
			c := &t.Cells[i]
			start := len(all)
			for b := max(c.First, 0); b < c.End && int(b) < len(p.Blocks); b++ {
				if p.Blocks[b].Label.Kept() {
					all = append(all, int(b))
				}
			}
			blocks := all[start:len(all):len(all)]
			jt.Cells[i] = JSONCell{Row: int(c.Row), Col: int(c.Col), RowSpan: int(c.RowSpan), ColSpan: int(c.ColSpan),
				Role: v.Roles[i].String(), Text: v.Texts[i], Blocks: blocks}
		}
		ts = append(ts, jt)
	}
	return ts
}

// plainText is the text of the segments as the text format writes it,
// without the last newline.
func plainText(segs []Segment) string {
	n := 0
	for k := range segs {
		n += len(segs[k].Text) + 2
	}
	var b strings.Builder
	b.Grow(n)
	for k := range segs {
		s := &segs[k]
		if k > 0 {
			b.WriteByte('\n')
			if !(s.Pre && segs[k-1].Pre) {
				b.WriteByte('\n')
			}
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

func (j *JSON) writeDoc(b *bufio.Writer, p *page.Page, _ int) error {
	b.Write(j.Document(p).AppendJSON(nil))
	return bufErr(b)
}

func (*JSON) endStream(*bufio.Writer, int) error { return nil }
