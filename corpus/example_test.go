package corpus_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/warc"
)

// Clean the pages of a small WARC into JSON Lines.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "corpus-example")
	defer os.RemoveAll(dir)

	// A crawl: a page, the same page again elsewhere, and a 404.
	page := "<html><head><title>The mill</title></head><body><h1>The mill wheel turns again</h1>" +
		"<p>After sixty years of silence the wheel of the old corn mill turned again this spring.</p></body></html>"
	f, _ := os.Create(filepath.Join(dir, "crawl.warc.gz"))
	w := warc.NewWriter(f, true)
	for _, r := range []struct{ uri, status string }{
		{"http://mill.example/", "200 OK"},
		{"http://mirror.example/mill", "200 OK"},
		{"http://mill.example/gone", "404 Not Found"},
	} {
		block := fmt.Sprintf("HTTP/1.1 %s\r\nContent-Type: text/html\r\n\r\n%s", r.status, page)
		w.WriteRecord(&warc.Record{Type: warc.TypeResponse, TargetURI: r.uri, Content: []byte(block)})
	}
	f.Close()

	out := filepath.Join(dir, "out")
	sum, err := corpus.Run(context.Background(), out, []string{filepath.Join(dir, "crawl.warc.gz")}, corpus.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("records:", sum.Records, "cleaned:", sum.Cleaned, "skipped:", sum.Skipped)

	part, _ := os.Open(filepath.Join(out, "part-00001.jsonl"))
	defer part.Close()
	sc := bufio.NewScanner(part)
	for sc.Scan() {
		var d corpus.Doc
		json.Unmarshal(sc.Bytes(), &d)
		fmt.Printf("%s %q, %d blocks, record at offset %d\n", d.URL, d.Title, len(d.Blocks), d.Source.Offset)
	}
	// Output:
	// records: 3 cleaned: 1 skipped: map[duplicate:1 status 404:1]
	// http://mill.example/ "The mill", 2 blocks, record at offset 0
}
