package parsertext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
)

// FuzzSentences checks that whatever the page and whatever labels the
// decide stage gave its blocks, Sentences returns valid UTF-8 sentences
// without line breaks, and reports every removal with its reason.
func FuzzSentences(f *testing.F) {
	for _, s := range []string{
		weddingDress, figure9, `<p>Go to:</p><ul><li><a href=/>Home</a><li><a href=/c>Cite</a></ul>`,
		`<ol><li>* a<ol><li>1) b</ol></ol><dl><dt>t<dd>d:</dl>`, "<pre>a\n\n b</pre><p>x<br>y</p>",
		`<p>Vous pouvez:</p><ul><li>x<li></ul><select><option>o</select>`,
	} {
		f.Add([]byte(s), []byte{1, 2, 3, 4})
	}
	f.Fuzz(func(t *testing.T, src, labels []byte) {
		doc, err := ingest.Parse(src, ingest.DefaultOptions())
		if err != nil {
			return
		}
		p := segment.Segment(doc, segment.Options{ImageAlt: true, AbbrTitles: true})
		for i := range p.Blocks {
			if len(labels) > 0 {
				p.Blocks[i].Label = page.Label(labels[i%len(labels)] % 5)
			}
		}
		opts := Options{Removed: func(item, reason string) {
			if item == "" || reason == "" || !utf8.ValidString(item) {
				t.Fatalf("removed %q for %q", item, reason)
			}
		}}
		for _, s := range Sentences(p, opts) {
			if !utf8.ValidString(s) || strings.Contains(s, "\n") {
				t.Fatalf("sentence %q", s)
			}
		}
	})
}
