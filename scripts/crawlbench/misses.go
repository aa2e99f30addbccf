package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Why a planted pair was missed. corpus compares a page with the last
// window pages written (--near-dup-window), but finds them through
// LSH band maps kept in two generations of half a window each, so a page
// is sure to be found only by the next half window of pages; sorted by
// host, a copy on another host can be farther than either from its
// original. (Distances are counted in responses of the sorted crawl, a
// little more than the pages written between the two.)
const (
	missBeyondWindow = "farther apart than the window"
	missBeyondHalf   = "farther apart than half the window"
	missBelow        = "kept texts below the threshold"
	missEstimate     = "kept texts at or above the threshold"
	missOther        = "a page not written, or both dropped"
)

// explainMisses sets each missed pair's distance in the sorted crawl and
// the similarity of the two pages' kept texts, and sorts it into a cause.
func (c *corpusCheck) explainMisses(sortedDir, outDir string, threshold float64) error {
	if len(c.Missed) == 0 || sortedDir == "" { // "": the crawl as written, whose order has no index
		return nil
	}
	order, err := sortedOrder(sortedDir)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, m := range c.Missed {
		want[m.Copy], want[m.Original] = true, true
	}
	texts, err := keptTexts(outDir, want)
	if err != nil {
		return err
	}
	c.MissedBy = map[string]int{}
	for _, p := range c.pairs {
		oc, okc := order[p.CopyID]
		oo, oko := order[p.OriginalID]
		if okc && oko && max(oc-oo, oo-oc) <= c.Window/2 {
			c.WithinHalf++
		}
	}
	for i := range c.Missed {
		m := &c.Missed[i]
		oc, okc := order[m.CopyID]
		oo, oko := order[m.OriginalID]
		if okc && oko {
			m.Distance = max(oc-oo, oo-oc)
		}
		tc, okc := texts[m.Copy]
		to, oko := texts[m.Original]
		switch {
		case m.Distance > c.Window:
			m.Cause = missBeyondWindow
		case m.Distance > c.Window/2:
			m.Cause = missBeyondHalf
		case !okc || !oko:
			m.Cause = missOther
		default:
			m.KeptJaccard = jaccard(shingles(tc), shingles(to))
			m.Cause = missEstimate
			if m.KeptJaccard < threshold {
				m.Cause = missBelow
			}
		}
		c.MissedBy[m.Cause]++
	}
	return nil
}

// sortedOrder returns the ordinal of each response record in the sorted
// crawl (index.tsv, by part and offset), by record ID (the first of a
// duplicated ID).
func sortedOrder(dir string) (map[string]int, error) {
	f, err := os.Open(filepath.Join(dir, "index.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type row struct {
		file   string
		offset int64
		id     string
	}
	var rows []row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		if len(col) < 10 || col[8] != "response" {
			continue
		}
		off, err := strconv.ParseInt(col[2], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("index.tsv: %q: %w", sc.Text(), err)
		}
		rows = append(rows, row{col[1], off, col[9]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(rows, func(a, b row) int {
		if a.file != b.file {
			return strings.Compare(a.file, b.file)
		}
		return int(a.offset - b.offset)
	})
	order := make(map[string]int, len(rows))
	for i, r := range rows {
		if _, ok := order[r.id]; !ok {
			order[r.id] = i
		}
	}
	return order, nil
}

// keptTexts returns the text written for each URI of want, from the
// output's part-*.jsonl.
func keptTexts(dir string, want map[string]bool) (map[string]string, error) {
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.jsonl"))
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
		for {
			var doc struct {
				URL  string `json:"url"`
				Text string `json:"text"`
			}
			if err := dec.Decode(&doc); err == io.EOF {
				break
			} else if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			if want[doc.URL] {
				out[doc.URL] = doc.Text
			}
		}
		f.Close()
	}
	return out, nil
}
