package render

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// encodeStd is what AppendJSON must equal: encoding/json without HTML
// escaping.
func encodeStd(t testing.TB, d *JSONDocument) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestAppendJSON(t *testing.T) {
	off := int64(77)
	strs := []string{"", "plain", `quote " and \ back`, "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f",
		"<a href=\"x\">&amp;</a>", "café ☕ 日本", "bad \xff\xfe utf8 \xc3", "line\u2028para\u2029end", "\U0001F600"}
	docs := []JSONDocument{
		{},
		{URL: "http://a.example/x?y=1&z=<2>", Host: "a.example", Date: "2026-11-22T00:00:00Z", Title: "T", Encoding: "utf-8", Text: "one\n\ntwo",
			Blocks:   []JSONBlock{{Index: 0, Label: "heading", Text: "T", Score: 0.987, Start: 3, End: 4}, {Index: 2, Label: "paragraph", Text: "one", Score: 1}, {Index: 5, Label: "list", Text: "two", Score: 0}},
			Segments: []JSONSegment{{Label: "heading", Text: "T", Blocks: []int{0}}, {Label: "paragraph", Text: "one two", Blocks: []int{2, 5}}, {Blocks: []int{}}, {}},
			Source:   &JSONSource{File: "/x/a.warc.gz", Offset: 12, Length: 3456, MemberOffset: &off, RecordID: "<urn:uuid:1>"},
			Site:     &JSONSite{Pages: 3, Dropped: 2, Rescued: 1}},
		{Blocks: []JSONBlock{}, Segments: []JSONSegment{}, Source: &JSONSource{File: "f.html"}},
		{Blocks: []JSONBlock{{Score: 0.0005}, {Score: 1e-7}, {Score: 0.5}, {Score: 123456}}},
		{Tables: []JSONTable{}},
		{Language: "fr", DeclaredLanguage: "en", Blocks: []JSONBlock{{Index: 1, Text: "Ein Satz", Lang: "de"}, {Lang: ""}}},
		{DeclaredLanguage: "zh"},
		{Metadata: &JSONMetadata{Title: "T \"q\"", Published: "2024-01-02", Tags: []string{"a", "<b>"}}},
		{Metadata: &JSONMetadata{Categories: []string{"x"}}},
		{Metadata: &JSONMetadata{Title: "t", Author: "a", Published: "p", Modified: "m", SiteName: "s", Description: "d",
			Language: "l", Canonical: "c", Image: "i", License: "li", Categories: []string{"c1", "c2"}, Tags: []string{"t"}}},
		{Blocks: []JSONBlock{{Index: 1, Text: "see here and here", Links: []JSONLink{{Text: "here", Href: "/a?b=1&c=<2>"}, {Text: "here", Href: "javascript:alert(\"x\")"}},
			Images: []JSONImage{{Src: "data:image/png;base64,AA==", Alt: ""}, {Src: "/i.png", Alt: "a \"kite\""}}},
			{Links: []JSONLink{}, Images: []JSONImage{}}, {Links: []JSONLink{{}}}, {Images: []JSONImage{{}}}}},
		{Tables: []JSONTable{{}, {Index: 3, Kind: "data", Rows: 2, Cols: 1, Caption: "<cap> & \"q\"",
			Cells: []JSONCell{{Row: 1, RowSpan: 1, ColSpan: 1, Role: "header", Text: "a|b\n", Blocks: []int{4, 5}}, {Blocks: []int{}}, {}}}},
			Source: &JSONSource{File: "t.html"}},
	}
	for _, s := range strs {
		docs = append(docs, JSONDocument{URL: s, Title: s, Encoding: s, Text: s, Blocks: []JSONBlock{{Label: s, Text: s, Score: 0.25,
			Links: []JSONLink{{Text: s, Href: s}}, Images: []JSONImage{{Src: s, Alt: s}}}},
			Metadata: &JSONMetadata{Author: s, Tags: []string{s}},
			Segments: []JSONSegment{{Label: s, Text: s}}, Source: &JSONSource{File: s, RecordID: s}})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 1000 {
		b := make([]byte, rng.IntN(40+k%2*200))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if k%3 == 0 {
				b[i] = byte(' ' + rng.IntN(95)) // printable ASCII, long runs of it
			}
			if rng.IntN(3+k%2*30) == 0 {
				b[i] = "a\"\\\n\x00<é\u2028"[rng.IntN(11)]
			}
		}
		blk := JSONBlock{Text: string(b), Score: float64(rng.IntN(1001)) / 1000}
		if k%4 == 1 {
			blk.Links = []JSONLink{{Text: string(b[:len(b)/2]), Href: string(b[len(b)/2:])}}
			blk.Images = []JSONImage{{Src: string(b[len(b)/3:]), Alt: string(b[:len(b)/3])}}
		}
		docs = append(docs, JSONDocument{Text: string(b), Blocks: []JSONBlock{blk}})
	}
	for i := range docs {
		want := encodeStd(t, &docs[i])
		if got := docs[i].AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("doc %d:\n got %q\nwant %q", i, got, want)
		}
	}
}

func FuzzAppendJSON(f *testing.F) {
	f.Add("café \xff <b>", 0.5)
	f.Fuzz(func(t *testing.T, s string, score float64) {
		if math.IsNaN(score) || math.IsInf(score, 0) {
			t.Skip("encoding/json refuses non-finite numbers; render never writes them")
		}
		d := JSONDocument{URL: s, Text: s, Blocks: []JSONBlock{{Label: s, Text: s, Score: score, Links: []JSONLink{{Text: s, Href: s}}, Images: []JSONImage{{Src: s, Alt: s}}}},
			Segments: []JSONSegment{{Text: s, Blocks: []int{1}}}}
		want := encodeStd(t, &d)
		if got := d.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	})
}

func TestPlainJSON8(t *testing.T) {
	for c := range 256 {
		want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
		for pos := range 8 {
			for _, fill := range []byte{'a', ' ', '~', '!', '#', '[', ']'} {
				b := bytes.Repeat([]byte{fill}, 8)
				b[pos] = byte(c)
				if got := plainJSON8(string(b)); got != want {
					t.Fatalf("plainJSON8(%q) = %v", b, got)
				}
			}
		}
	}
}
