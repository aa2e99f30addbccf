package pipeline

import (
	"testing"
	"time"

	"github.com/sluice-project/sluice/warc"
)

func TestIsHTML(t *testing.T) {
	for _, tc := range []struct {
		ct   string
		body string
		want bool
	}{
		{"text/html", "", true},
		{"Text/HTML; charset=UTF-8", "", true},
		{"application/xhtml+xml", "", true},
		{"text/html; charset", "", true}, // malformed parameters
		{"text/plain", "<html><body>x</body></html>", false},
		{"application/json", "", false},
		{"", "<!DOCTYPE html><html><body>x</body></html>", true},
		{"", "\x89PNG\r\n\x1a\n", false},
		{"", "just some text", false},
	} {
		if got := isHTML(tc.ct, []byte(tc.body)); got != tc.want {
			t.Errorf("isHTML(%q, %q) = %v, want %v", tc.ct, tc.body, got, tc.want)
		}
	}
}

func TestSelectPageNotes(t *testing.T) {
	date := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	html := "<html><body><p>x</p></body></html>"
	for _, tc := range []struct {
		name  string
		rec   warc.Record
		why   string
		notes int
	}{
		{"truncated by the crawler",
			warc.Record{Type: "response", Date: date, Header: warc.Header{{Name: "WARC-Truncated", Value: "length"}},
				Content: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + html)},
			"", noteTruncated},
		{"gzip body cut short",
			warc.Record{Type: "response", Date: date,
				Content: append([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n"), gzipped([]byte(html + html + html))[:30]...)},
			"", notePartialBody},
		{"no status line", // a payload without HTTP headers: sniffed
			warc.Record{Type: "response", Date: date, Content: []byte(html)},
			"", 0},
		{"conversion record", warc.Record{Type: "conversion", Content: []byte("text")}, SkipNotResponse, 0},
		{"continuation record", warc.Record{Type: "continuation", Content: []byte("...")}, SkipNotResponse, 0},
	} {
		page, why, notes := selectPage(&tc.rec)
		if why != tc.why || notes != tc.notes {
			t.Errorf("%s: reason %q, notes %b; want %q, %b", tc.name, why, notes, tc.why, tc.notes)
		}
		if why == "" && (page.Date != "2024-01-02T03:04:05Z" || len(page.Body) == 0) {
			t.Errorf("%s: page %+v", tc.name, page)
		}
	}
}
