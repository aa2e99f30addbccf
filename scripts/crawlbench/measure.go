package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/crawlsort"
)

// problemLine is a record that sluice corpus -v reports on standard error:
// "INPUT: offset N (URI): skipped: REASON[: DETAIL]" (no "(URI)" for a
// record without one).
var problemLine = regexp.MustCompile(`^(.+?): offset (-?\d+)(?: \((.*?)\))?: (skipped|failed): ([^:]+)`)

// fates reads what corpus said of each record it did not write: the
// reason by target URI, and the near-duplicates without a URI.
func fates(stderrPath string) (byURI map[string]string, nearNoURI int, err error) {
	f, err := os.Open(stderrPath)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	byURI = map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := problemLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		switch uri, reason := m[3], m[5]; {
		case reason == corpus.ReasonNotResponse:
			// a request record has the URI of its response
		case uri != "":
			byURI[uri] = reason
		case reason == corpus.ReasonNearDuplicate:
			nearNoURI++
		}
	}
	return byURI, nearNoURI, sc.Err()
}

// sortCheck is what the sort's summary says against the crawl.
type sortCheck struct {
	RecordsIn    int64            `json:"records_in"`
	RecordsOut   int64            `json:"records_out"`
	Hosts        int64            `json:"hosts"`
	NoHost       int64            `json:"records_without_host"`
	DuplicateIDs int64            `json:"duplicate_ids"`
	Damaged      int64            `json:"damaged"`
	ByType       map[string]int64 `json:"records_by_type"`
	Problems     []string         `json:"problems,omitempty"`
}

func checkSort(dir string, m *manifest) (*sortCheck, error) {
	var s crawlsort.Summary
	if err := readJSON(filepath.Join(dir, "summary.json"), &s); err != nil {
		return nil, err
	}
	c := &sortCheck{RecordsIn: s.RecordsIn, RecordsOut: s.RecordsOut, Hosts: s.Hosts, NoHost: s.NoHost,
		DuplicateIDs: s.DuplicateIDs, Damaged: s.Damaged, ByType: s.ByType}
	want := func(what string, got, expected int64) {
		if got != expected {
			c.Problems = append(c.Problems, fmt.Sprintf("%s: %d, the crawl has %d", what, got, expected))
		}
	}
	want("records in", s.RecordsIn, m.Records)
	want("records out", s.RecordsOut, m.Records)
	noHost := int64(len(m.Files) + m.NoURI)
	want("records without host", s.NoHost, noHost)
	if noHost > 0 {
		want("hosts (with \"-\", the records without host)", s.Hosts, int64(m.Hosts)+1)
	} else {
		want("hosts", s.Hosts, int64(m.Hosts))
	}
	want("duplicate record IDs", s.DuplicateIDs, int64(m.DupIDs))
	for t, n := range m.ByType {
		want("records of type "+t, s.ByType[t], n)
	}
	return c, nil
}

// corpusCheck is one corpus run's accounting and near-duplicate figures.
type corpusCheck struct {
	Window       int              `json:"near_dup_window"` // the pages corpus compared a page with
	Records      int64            `json:"records"`
	Cleaned      int64            `json:"cleaned"`
	Lines        int64            `json:"lines_written"`
	Skipped      map[string]int64 `json:"skipped"`
	Failed       map[string]int64 `json:"failed"`
	Paragraphs   int64            `json:"paragraphs_dropped"`
	SitePages    int64            `json:"site_pages"`
	NearDups     int64            `json:"near_duplicates"`
	Caught       int              `json:"pairs_caught"`
	BothDropped  int              `json:"pairs_both_dropped"`
	Missed       []missed         `json:"pairs_missed"`
	MissedBy     map[string]int   `json:"pairs_missed_by_cause"`
	WithinHalf   int              `json:"pairs_within_half_window"`
	pairs        []pair
	Recall       float64  `json:"recall"`
	RecallSame   float64  `json:"recall_same_host"`
	RecallCross  float64  `json:"recall_cross_host"`
	FalseRemoved int      `json:"false_removals"`
	Unplanted    int      `json:"unplanted_responses"`
	FalseRate    float64  `json:"false_removal_rate"`
	Unmatched    int      `json:"near_duplicates_of_unknown_uri"`
	Problems     []string `json:"problems,omitempty"`
}

// missed is a planted pair that was not caught, with what became of each
// page ("written" or the reason it was not).
type missed struct {
	pair
	CopyFate     string `json:"copy_fate"`
	OriginalFate string `json:"original_fate"`
	// Distance is how many responses apart the two are in the sorted
	// crawl; KeptJaccard the similarity of the texts corpus wrote for
	// them (when it wrote both); Cause one of the miss... constants.
	Distance    int     `json:"distance"`
	KeptJaccard float64 `json:"kept_jaccard,omitempty"`
	Cause       string  `json:"cause"`
}

func checkCorpus(dir, stderrPath, sortedDir string, threshold float64, window int, m *manifest) (*corpusCheck, error) {
	var s corpus.Summary
	if err := readJSON(filepath.Join(dir, "summary.json"), &s); err != nil {
		return nil, err
	}
	byURI, nearNoURI, err := fates(stderrPath)
	if err != nil {
		return nil, err
	}
	lines, err := countLines(dir)
	if err != nil {
		return nil, err
	}
	c := &corpusCheck{Window: window, Records: s.Records, Cleaned: s.Cleaned, Lines: lines, Skipped: s.Skipped, Failed: s.Failed,
		Paragraphs: s.ParagraphsDropped, NearDups: s.Skipped[corpus.ReasonNearDuplicate]}
	if s.Site != nil {
		c.SitePages = s.Site.Pages
	}
	c.account(&s, m, lines)
	c.nearDuplicates(byURI, nearNoURI, m)
	return c, c.explainMisses(sortedDir, dir, threshold)
}

// account checks that every record of the crawl is counted once.
func (c *corpusCheck) account(s *corpus.Summary, m *manifest, lines int64) {
	if err := s.Check(); err != nil {
		c.Problems = append(c.Problems, err.Error())
	}
	nonResponses := m.Records - int64(m.Responses)
	responses := s.Cleaned + s.SkippedTotal() - s.Skipped[corpus.ReasonNotResponse] + s.FailedTotal()
	for _, w := range []struct {
		what          string
		got, expected int64
	}{
		{"records read", s.Records, m.Records},
		{"skipped as not a response", s.Skipped[corpus.ReasonNotResponse], nonResponses},
		{"responses cleaned, skipped or failed", responses, int64(m.Responses)},
		{"pages in the output parts", lines, s.Cleaned},
	} {
		if w.got != w.expected {
			c.Problems = append(c.Problems, fmt.Sprintf("%s: %d, expected %d", w.what, w.got, w.expected))
		}
	}
}

// nearDuplicates scores the planted pairs and counts the false removals.
func (c *corpusCheck) nearDuplicates(byURI map[string]string, nearNoURI int, m *manifest) {
	planted := map[string]bool{}
	var same, cross, sameCaught, crossCaught int
	fate := func(uri string) string {
		if r, ok := byURI[uri]; ok {
			return r
		}
		return "written"
	}
	c.pairs = m.Pairs
	for _, p := range m.Pairs {
		planted[p.Copy], planted[p.Original] = true, true
		dc, do := byURI[p.Copy] == corpus.ReasonNearDuplicate, byURI[p.Original] == corpus.ReasonNearDuplicate
		caught := dc != do
		switch {
		case caught:
			c.Caught++
		case dc && do:
			c.BothDropped++
		}
		if !caught {
			c.Missed = append(c.Missed, missed{pair: p, CopyFate: fate(p.Copy), OriginalFate: fate(p.Original)})
		}
		if p.SameHost {
			same++
			sameCaught += b2i(caught)
		} else {
			cross++
			crossCaught += b2i(caught)
		}
	}
	known := map[string]bool{}
	for _, u := range m.URIs {
		known[u] = true
	}
	c.FalseRemoved = nearNoURI
	for uri, reason := range byURI {
		if reason != corpus.ReasonNearDuplicate || planted[uri] {
			continue
		}
		c.FalseRemoved++
		if !known[uri] {
			c.Unmatched++
		}
	}
	c.Unplanted = m.Responses - len(planted)
	c.Recall = ratio(c.Caught, len(m.Pairs))
	c.RecallSame, c.RecallCross = ratio(sameCaught, same), ratio(crossCaught, cross)
	c.FalseRate = ratio(c.FalseRemoved, c.Unplanted)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// countLines counts the lines of the output's part-*.jsonl files.
func countLines(dir string) (int64, error) {
	parts, err := filepath.Glob(filepath.Join(dir, "part-*.jsonl"))
	if err != nil {
		return 0, err
	}
	var n int64
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			return 0, err
		}
		r := bufio.NewReaderSize(f, 1<<20)
		for {
			line, err := r.ReadSlice('\n')
			if len(line) > 0 && line[len(line)-1] == '\n' {
				n++
			}
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				f.Close()
				if err != io.EOF {
					return 0, fmt.Errorf("%s: %w", p, err)
				}
				break
			}
		}
	}
	return n, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
