package warc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// benchArchive is a synthetic crawl: ~50 MB of WARC, gzip per record,
// response records of 2-60 KB of HTML that compresses about as real pages
// do (made once, outside the timings).
var benchArchive = sync.OnceValues(func() ([]byte, benchInfo) {
	rnd := rand.New(rand.NewPCG(7, 11))
	words := []string{"the", "archive", "of", "web", "pages", "crawler", "record", "content", "main", "text",
		"navigation", "footer", "cookie", "policy", "article", "news", "about", "contact", "search", "login"}
	var buf bytes.Buffer
	w := NewWriter(&buf, true)
	n, raw := 0, 0
	var body bytes.Buffer
	for buf.Len() < 50<<20 {
		body.Reset()
		body.WriteString("<html><head><title>page</title></head><body>\n")
		size := 2000 + rnd.IntN(58000)
		for body.Len() < size {
			body.WriteString("<p>")
			for range 8 + rnd.IntN(30) {
				body.WriteString(words[rnd.IntN(len(words))])
				fmt.Fprintf(&body, " %d ", rnd.IntN(1000))
			}
			body.WriteString("</p>\n")
		}
		body.WriteString("</body></html>\n")
		block := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", body.Len())
		block = append(block, body.Bytes()...)
		rec := &Record{Type: TypeResponse, TargetURI: fmt.Sprintf("http://example.com/%d", n), Content: block}
		if err := w.WriteRecord(rec); err != nil {
			panic(err)
		}
		n++
		raw += len(block)
	}
	return buf.Bytes(), benchInfo{n, raw}
})

type benchInfo struct{ records, blockBytes int }

func benchRead(b *testing.B, opts Options) {
	data, info := benchArchive()
	n := info.records
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		got := 0
		for _, err := range NewReader(bytes.NewReader(data), opts).Records() {
			if err != nil {
				b.Fatal(err)
			}
			got++
		}
		if got != n {
			b.Fatalf("%d records, want %d", got, n)
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(n)*float64(b.N)/secs, "records/s")
	b.ReportMetric(float64(info.blockBytes)*float64(b.N)/secs/1e6, "block-MB/s")
}

// BenchmarkReadWARC reads a 50 MB gzip-per-record WARC keeping every block
// in Record.Content; MB/s counts compressed input bytes.
func BenchmarkReadWARC(b *testing.B) { benchRead(b, Options{}) }

// BenchmarkReadWARCHeadersOnly is BenchmarkReadWARC without keeping the
// blocks: the difference is the cost of Content (allocation and copy).
func BenchmarkReadWARCHeadersOnly(b *testing.B) { benchRead(b, Options{HeadersOnly: true}) }

// BenchmarkReadWARCPlain reads the same records uncompressed.
func BenchmarkReadWARCPlain(b *testing.B) {
	data, info := benchArchive()
	n := info.records
	var plain bytes.Buffer
	w := NewWriter(&plain, false)
	for rec, err := range NewReader(bytes.NewReader(data), Options{}).Records() {
		if err != nil {
			b.Fatal(err)
		}
		w.WriteRecord(rec)
	}
	b.SetBytes(int64(plain.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		got := 0
		for _, err := range NewReader(bytes.NewReader(plain.Bytes()), Options{}).Records() {
			if err != nil {
				b.Fatal(err)
			}
			got++
		}
		if got != n {
			b.Fatalf("%d records, want %d", got, n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

func BenchmarkParseHTTPResponse(b *testing.B) {
	block := resp("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n", chunk(gz(varied(50000)), 4096))
	b.SetBytes(50000)
	b.ReportAllocs()
	for range b.N {
		if _, err := ParseHTTPResponse(block); err != nil {
			b.Fatal(err)
		}
	}
}
