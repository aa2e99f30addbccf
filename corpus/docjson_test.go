package corpus

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

// encodeStd is what render did before appendJSON: encoding/json.
func encodeStd(t testing.TB, d *Doc) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDocJSON(t *testing.T) {
	off := int64(77)
	strs := []string{"", "plain", `quote " and \ back`, "tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f",
		"<a href=\"x\">&amp;</a>", "café ☕ 日本", "bad \xff\xfe utf8 \xc3", "line\u2028para\u2029end", "\U0001F600"}
	docs := []Doc{
		{},
		{URL: "http://a.example/x?y=1&z=<2>", Host: "a.example", Date: "2026-11-22T00:00:00Z", Title: "T", Text: "one\n\ntwo",
			Blocks: []DocBlock{{Label: "heading", Text: "T", Score: 0.987}, {Label: "paragraph", Text: "one", Score: 1}, {Label: "list", Text: "two", Score: 0}},
			Source: Source{File: "/x/a.warc.gz", Offset: 12, Length: 3456, MemberOffset: &off, RecordID: "<urn:uuid:1>"},
			Site:   &DocSite{Pages: 3, Dropped: 2, Rescued: 1}},
		{Blocks: []DocBlock{}, Source: Source{File: "f.html"}},
		{Blocks: []DocBlock{{Score: 0.0005}, {Score: 1e-7}, {Score: 0.5}, {Score: 123456}}},
	}
	for _, s := range strs {
		docs = append(docs, Doc{URL: s, Title: s, Text: s, Blocks: []DocBlock{{Label: s, Text: s, Score: 0.25}}, Source: Source{File: s, RecordID: s}})
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
		docs = append(docs, Doc{Text: string(b), Blocks: []DocBlock{{Text: string(b), Score: float64(rng.IntN(1001)) / 1000}}})
	}
	for i := range docs {
		want := encodeStd(t, &docs[i])
		if got := docs[i].appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("doc %d:\n got %q\nwant %q", i, got, want)
		}
		if got := appendDocJSON(nil, &docs[i], []byte(docs[i].Text)); !bytes.Equal(got, want) {
			t.Errorf("doc %d, text as bytes:\n got %q\nwant %q", i, got, want)
		}
	}
}

func FuzzDocJSON(f *testing.F) {
	f.Add("café \xff <b>", 0.5)
	f.Fuzz(func(t *testing.T, s string, score float64) {
		if math.IsNaN(score) || math.IsInf(score, 0) {
			t.Skip("encoding/json refuses non-finite numbers; render never writes them")
		}
		d := Doc{URL: s, Text: s, Blocks: []DocBlock{{Label: s, Text: s, Score: score}}}
		want := encodeStd(t, &d)
		if got := d.appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
		if got := appendDocJSON(nil, &d, []byte(s)); !bytes.Equal(got, want) {
			t.Errorf("text as bytes: got %q\nwant %q", got, want)
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
