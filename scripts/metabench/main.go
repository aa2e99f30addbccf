// Command metabench measures sluice's metadata (package metadata) against
// the gold titles, authors and publication dates of WCXB-dev, beside
// go-trafilatura's on the same pages. It is a module of its own so that
// sluice does not depend on go-trafilatura.
//
//	cd scripts/metabench && go run . -data ../../../shared/data/wcxb-dev [-tsv rows.tsv]
//
// A field is matched exactly after normalising case, white space and
// quotation marks; a date as YYYY-MM-DD. Pages whose gold lacks a field
// are counted apart: "extra" is how often a tool gives a value there.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	trafilatura "github.com/markusmobius/go-trafilatura"

	"github.com/sluice-project/sluice"
)

type gold struct {
	URL         string `json:"url"`
	GroundTruth struct {
		Title       string `json:"title"`
		Author      string `json:"author"`
		PublishDate string `json:"publish_date"`
	} `json:"ground_truth"`
}

type fields struct{ title, author, date string }

type tally struct{ right, asked, extra, none int }

func main() {
	data := flag.String("data", "../../../shared/data/wcxb-dev", "the WCXB set: gold/NNNN.json and html/NNNN.html.gz")
	tsv := flag.String("tsv", "", "write every page's gold and answers to this file")
	limit := flag.Int("limit", 0, "at most N pages")
	flag.Parse()
	if err := run(*data, *tsv, *limit); err != nil {
		fmt.Fprintln(os.Stderr, "metabench:", err)
		os.Exit(1)
	}
}

func run(data, tsvPath string, limit int) error {
	golds, err := filepath.Glob(filepath.Join(data, "gold", "*.json"))
	if err != nil || len(golds) == 0 {
		return fmt.Errorf("no gold files under %s/gold", data)
	}
	sort.Strings(golds)
	if limit > 0 && len(golds) > limit {
		golds = golds[:limit]
	}
	var rows bytes.Buffer
	tools := []string{"sluice", "go-trafilatura"}
	tallies := map[string]*[3]tally{}
	spent := map[string]time.Duration{}
	for _, t := range tools {
		tallies[t] = &[3]tally{}
	}
	for _, gp := range golds {
		var g gold
		raw, err := os.ReadFile(gp)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &g); err != nil {
			return fmt.Errorf("%s: %w", gp, err)
		}
		id := strings.TrimSuffix(filepath.Base(gp), ".json")
		page, err := readGz(filepath.Join(data, "html", id+".html.gz"))
		if err != nil {
			return err
		}
		want := fields{g.GroundTruth.Title, g.GroundTruth.Author, g.GroundTruth.PublishDate}
		got := map[string]fields{}
		start := time.Now()
		got["sluice"] = sluiceFields(page)
		spent["sluice"] += time.Since(start)
		start = time.Now()
		got["go-trafilatura"] = trafilaturaFields(page, g.URL)
		spent["go-trafilatura"] += time.Since(start)
		fmt.Fprintf(&rows, "%s\tgold\t%s\t%s\t%s\n", id, want.title, want.author, want.date)
		for _, t := range tools {
			f := got[t]
			fmt.Fprintf(&rows, "%s\t%s\t%s\t%s\t%s\n", id, t, f.title, f.author, f.date)
			for k, pair := range [3][2]string{{want.title, f.title}, {want.author, f.author}, {want.date, f.date}} {
				tl := &tallies[t][k]
				switch {
				case pair[0] == "" && pair[1] != "":
					tl.extra++
				case pair[0] == "":
					tl.none++
				default:
					tl.asked++
					if norm(pair[0]) == norm(pair[1]) {
						tl.right++
					}
				}
			}
		}
	}
	fmt.Printf("%d pages of %s; exact match after normalising case, spaces and quotes\n\n", len(golds), data)
	fmt.Println("| tool | title | author | date | a value where the gold has no author / date | time per page (metadata and content) |")
	fmt.Println("|---|---:|---:|---:|---:|---:|")
	for _, t := range tools {
		tl := tallies[t]
		fmt.Printf("| %s | %s | %s | %s | %d of %d / %d of %d | %.1f ms |\n", t, pct(tl[0]), pct(tl[1]), pct(tl[2]),
			tl[1].extra, tl[1].extra+tl[1].none, tl[2].extra, tl[2].extra+tl[2].none, float64(spent[t].Microseconds())/1000/float64(len(golds)))
	}
	if tsvPath != "" {
		return os.WriteFile(tsvPath, rows.Bytes(), 0o644)
	}
	return nil
}

func pct(t tally) string {
	if t.asked == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%% (%d of %d)", 100*float64(t.right)/float64(t.asked), t.right, t.asked)
}

// sluiceFields cleans the page with sluice.Extract, as a user would, so
// that the time per page is cleaning and metadata, as go-trafilatura's is.
func sluiceFields(page []byte) fields {
	d, err := sluice.Extract(bytes.NewReader(page), sluice.Options{})
	if err != nil {
		return fields{}
	}
	return fields{d.Title, d.Author, d.Published}
}

func trafilaturaFields(page []byte, u string) fields {
	opts := trafilatura.Options{}
	if pu, err := url.Parse(u); err == nil {
		opts.OriginalURL = pu
	}
	res, err := trafilatura.Extract(bytes.NewReader(page), opts)
	if err != nil || res == nil {
		return fields{}
	}
	m := res.Metadata
	d := ""
	if !m.Date.IsZero() {
		d = m.Date.Format("2006-01-02")
	}
	return fields{m.Title, m.Author, d}
}

// norm folds case, white space and typographic quotes and dashes.
func norm(s string) string {
	s = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u201c", `"`, "\u201d", `"`, "\u2013", "-", "\u2014", "-", "\u00a0", " ").Replace(s)
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func readGz(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(zr)
}
