package warc_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/sluice-project/sluice/warc"
)

// Write two records, one gzip member each, and read them back.
func Example() {
	var archive bytes.Buffer
	w := warc.NewWriter(&archive, true)

	page := &warc.Record{
		Type:      warc.TypeResponse,
		TargetURI: "http://example.com/",
		Date:      time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		Header:    warc.Header{{Name: "Content-Type", Value: "application/http; msgtype=response"}},
		Content:   []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Hello, world.</p>"),
	}
	if err := w.WriteRecord(page); err != nil {
		panic(err)
	}
	// The cleaned text of the page, pointing back to it.
	if _, err := w.WriteConversion(page, "text/plain; charset=utf-8", []byte("Hello, world.\n")); err != nil {
		panic(err)
	}

	for rec, err := range warc.NewReader(&archive, warc.Options{}).Records() {
		if err != nil {
			fmt.Println("damaged:", err)
			continue
		}
		fmt.Println(rec.Type, rec.TargetURI, rec.Date.Format(time.DateOnly))
		switch rec.Type {
		case warc.TypeResponse:
			resp, err := rec.HTTPResponse()
			if err != nil {
				panic(err)
			}
			fmt.Printf("  %d %s\n", resp.Status, resp.Body)
		case warc.TypeConversion:
			fmt.Printf("  refers to the page: %v; text %q\n", rec.Header.Get("WARC-Refers-To") == page.ID(), rec.Content)
			fmt.Println("  gzip member right after the page's:", rec.Offset == page.Offset+page.Length)
		}
	}
	// Output:
	// response http://example.com/ 2024-05-06
	//   200 <p>Hello, world.</p>
	// conversion http://example.com/ 2024-05-06
	//   refers to the page: true; text "Hello, world.\n"
	//   gzip member right after the page's: true
}
