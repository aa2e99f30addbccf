package corpus_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/render"
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
		var d render.JSONDocument
		json.Unmarshal(sc.Bytes(), &d)
		fmt.Printf("%s %q, %d blocks, record at offset %d\n", d.URL, d.Title, len(d.Blocks), d.Source.Offset)
	}
	// Output:
	// records: 3 cleaned: 1 skipped: map[duplicate:1 status 404:1]
	// http://mill.example/ "The mill", 2 blocks, record at offset 0
}

// With Site, the pages of a host are judged by each other: a note that ends
// every article of the host, which page-by-page cleaning keeps as the
// article's prose, is dropped as template.
func ExampleRun_site() {
	dir, _ := os.MkdirTemp("", "corpus-example")
	defer os.RemoveAll(dir)

	note := "The Mill Society is a charity of volunteers who restore the old corn mill on the river and open it to visitors every Saturday from April to October."
	days := map[string]string{
		"monday":    "On Monday the millwright fitted new oak teeth to the great spur wheel, and the stones turned for an hour without a load.",
		"tuesday":   "On Tuesday the sluice gate was lifted for the first time since the floods, and the water ran down the leat so fast that it was closed again.",
		"wednesday": "On Wednesday a party of schoolchildren sieved the first flour and carried the sacks to the cart that took them to the village bakery.",
	}
	f, _ := os.Create(filepath.Join(dir, "crawl.warc.gz"))
	w := warc.NewWriter(f, true)
	for _, day := range []string{"monday", "tuesday", "wednesday"} {
		page := "<html><body><div class=\"main\"><h1>Mill diary: " + day + "</h1><p>" + days[day] + "</p><p>" + note + "</p></div></body></html>"
		block := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
		w.WriteRecord(&warc.Record{Type: warc.TypeResponse, TargetURI: "http://mill.example/diary/" + day, Content: []byte(block)})
	}
	f.Close()

	for _, site := range []bool{false, true} {
		out := filepath.Join(dir, fmt.Sprint("out-", site))
		if _, err := corpus.Run(context.Background(), out, []string{filepath.Join(dir, "crawl.warc.gz")}, corpus.Options{Site: site}); err != nil {
			panic(err)
		}
		part, _ := os.Open(filepath.Join(out, "part-00001.jsonl"))
		sc := bufio.NewScanner(part)
		for sc.Scan() {
			var d render.JSONDocument
			json.Unmarshal(sc.Bytes(), &d)
			fmt.Printf("site %-5v %s: %d blocks, note kept: %v", site, d.URL, len(d.Blocks), strings.Contains(d.Text, note))
			if d.Site != nil {
				fmt.Printf(", model of %d pages dropped %d", d.Site.Pages, d.Site.Dropped)
			}
			fmt.Println()
		}
		part.Close()
	}
	// Output:
	// site false http://mill.example/diary/monday: 3 blocks, note kept: true
	// site false http://mill.example/diary/tuesday: 3 blocks, note kept: true
	// site false http://mill.example/diary/wednesday: 3 blocks, note kept: true
	// site true  http://mill.example/diary/monday: 2 blocks, note kept: false, model of 3 pages dropped 1
	// site true  http://mill.example/diary/tuesday: 2 blocks, note kept: false, model of 3 pages dropped 1
	// site true  http://mill.example/diary/wednesday: 2 blocks, note kept: false, model of 3 pages dropped 1
}
