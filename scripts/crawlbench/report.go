package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/corpus"
)

// results are the figures of a run of the benchmark: results.json.
type results struct {
	Crawl   crawlFigures            `json:"crawl"`
	Steps   []*step                 `json:"steps"`
	Refused string                  `json:"refused,omitempty"` // what corpus said of --site with --dedup-paragraphs
	Sort    *sortCheck              `json:"sort"`
	Corpus  map[string]*corpusCheck `json:"corpus"`
}

// crawlFigures is the manifest without its lists.
type crawlFigures struct {
	Config        Config           `json:"config"`
	Records       int64            `json:"records"`
	ByType        map[string]int64 `json:"records_by_type"`
	Responses     int              `json:"responses"`
	Hosts         int              `json:"hosts"`
	Files         int              `json:"files"`
	Bytes         int64            `json:"bytes"`
	SourcesUsed   int              `json:"shared_pages_used"`
	SourcesReused int              `json:"records_reusing_a_page"`
	Planted       int              `json:"planted"`
	MinJaccard    float64          `json:"planted_min_jaccard"`
}

// measure runs sort, then corpus with the near-duplicate filter on the
// sorted crawl with --site and --dedup-paragraphs together (what issue 25
// asks; a corpus that refuses the two is recorded as such), with each
// alone, and on the crawl as written with --site=whole (two passes, no
// sort).
func measure(bin string, o options, m *manifest) (*results, error) {
	res := &results{Crawl: figures(m), Corpus: map[string]*corpusCheck{}}
	sorted := filepath.Join(o.work, "sorted")
	near := strconv.FormatFloat(o.nearDup, 'g', -1, 64)
	para := strconv.Itoa(o.para)
	jobs := strconv.Itoa(o.jobs)
	st, err := runStep(o.work, "sort", bin, "sort", "--force", "-q", "-o", sorted, filepath.Join(o.work, "crawl"))
	if err != nil {
		return nil, err
	}
	res.Steps = append(res.Steps, st)
	if st.Exit != 0 {
		return res, fmt.Errorf("sluice sort exited with %d: see %s/sort.stderr", st.Exit, o.work)
	}
	if res.Sort, err = checkSort(sorted, m); err != nil {
		return nil, err
	}
	crawl := filepath.Join(o.work, "crawl")
	for _, run := range []struct {
		name, out string
		flags     []string
		in        string // the sorted crawl, or the crawl as written
		index     string // the folder of sort's index, which explains the misses; "" for none
	}{
		{"corpus-both", "out-both", []string{"--site", "--dedup-paragraphs", para}, sorted, sorted}, // what issue 25 asks
		{"corpus-site", "out-site", []string{"--site"}, sorted, sorted},
		{"corpus-paragraphs", "out-paragraphs", []string{"--dedup-paragraphs", para}, sorted, sorted},
		{"corpus-whole", "out-whole", []string{"--site=whole"}, crawl, ""}, // two passes, no sort needed
	} {
		out := filepath.Join(o.work, run.out)
		args := append([]string{"corpus", "--force", "-v", "-j", jobs, "--near-dup", near}, run.flags...)
		if o.window > 0 {
			args = append(args, "--near-dup-window", fmt.Sprint(o.window))
		}
		if o.memory != "" {
			args = append(args, "--memory", o.memory)
		}
		args = append(args, "-o", out, run.in)
		st, err := runStep(o.work, run.name, bin, args...)
		if err != nil {
			return nil, err
		}
		if run.name == "corpus-both" && st.Exit == 2 { // a usage error: the flags are refused together
			msg, _ := os.ReadFile(filepath.Join(o.work, run.name+".stderr"))
			res.Refused = fmt.Sprintf("exit %d: %s", st.Exit, strings.TrimSpace(firstLine(string(msg))))
			continue
		}
		res.Steps = append(res.Steps, st)
		if st.Exit != 0 {
			return res, fmt.Errorf("sluice %s exited with %d: see %s/%s.stderr", strings.Join(args, " "), st.Exit, o.work, run.name)
		}
		c, err := checkCorpus(out, filepath.Join(o.work, run.name+".stderr"), run.index, o.nearDup, cmp.Or(o.window, corpus.DefaultNearDuplicateWindow), m)
		if err != nil {
			return nil, err
		}
		res.Corpus[run.name] = c
	}
	return res, nil
}

// corpusRuns are the corpus runs measure makes, in the order they are reported.
var corpusRuns = []string{"corpus-both", "corpus-site", "corpus-paragraphs", "corpus-whole"}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func figures(m *manifest) crawlFigures {
	f := crawlFigures{Config: m.Config, Records: m.Records, ByType: m.ByType, Responses: m.Responses, Hosts: m.Hosts,
		Files: len(m.Files), Bytes: m.Bytes, SourcesUsed: m.SourcesUsed, SourcesReused: m.SourcesReused, Planted: len(m.Pairs), MinJaccard: 1}
	for _, p := range m.Pairs {
		f.MinJaccard = min(f.MinJaccard, p.Jaccard)
	}
	return f
}

// write prints the results as markdown and writes results.md and
// results.json into dir.
func (r *results) write(dir string) error {
	md := r.markdown()
	fmt.Print(md)
	if err := os.WriteFile(filepath.Join(dir, "results.md"), []byte(md), 0o644); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "results.json"), append(b, '\n'), 0o644)
}

func (r *results) markdown() string {
	var b strings.Builder
	c := r.Crawl
	fmt.Fprintf(&b, "Crawl: %d records (%s) in %d .warc.gz files, %.1f MB; %d responses over %d hosts, from %d shared pages (%d records reuse one); %d planted copies (text similarity %.2f or more)\n\n",
		c.Records, byType(c.ByType), c.Files, float64(c.Bytes)/1e6, c.Responses, c.Hosts, c.SourcesUsed, c.SourcesReused, c.Planted, c.MinJaccard)
	b.WriteString("| step | wall | CPU | peak RSS | under 10^9 B / 1 GiB | floor of the measure |\n|---|---:|---:|---:|---|---:|\n")
	for _, s := range r.Steps {
		fmt.Fprintf(&b, "| `sluice %s` | %.0f s | %.0f s | %s | %s / %s | %s |\n", strings.Join(s.Args, " "), s.Seconds, s.CPU, mib(s.PeakRSS),
			yes(s.PeakRSS >= 0 && s.PeakRSS < 1e9), yes(s.PeakRSS >= 0 && s.PeakRSS < 1<<30), mib(s.Floor))
	}
	if r.Refused != "" {
		fmt.Fprintf(&b, "\n`corpus --site --dedup-paragraphs` refused: %s\n", r.Refused)
	}
	if s := r.Sort; s != nil {
		fmt.Fprintf(&b, "\nsort: %d records in, %d out, %d hosts, %d without host, %d duplicate IDs, %d damaged; %s\n",
			s.RecordsIn, s.RecordsOut, s.Hosts, s.NoHost, s.DuplicateIDs, s.Damaged, verdict(s.Problems))
	}
	if len(r.Corpus) > 0 {
		b.WriteString("\n| corpus run | records | written | near-dups dropped | other skips | failed | paragraphs dropped | recall (same host / other host) | false removals | accounting |\n|---|---:|---:|---:|---:|---:|---:|---|---|---|\n")
	}
	for _, name := range corpusRuns {
		k := r.Corpus[name]
		if k == nil {
			continue
		}
		other := sumMap(k.Skipped) - k.NearDups - k.Skipped["not a response"]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d/%d = %.1f%% (%.1f%% / %.1f%%) | %d/%d = %.2f%% | %s |\n",
			name, k.Records, k.Cleaned, k.NearDups, other, sumMap(k.Failed), k.Paragraphs, k.Caught, c.Planted, 100*k.Recall,
			100*k.RecallSame, 100*k.RecallCross, k.FalseRemoved, k.Unplanted, 100*k.FalseRate, verdict(k.Problems))
	}
	for _, name := range corpusRuns {
		if k := r.Corpus[name]; k != nil && len(k.Missed) > 0 && len(k.MissedBy) == 0 {
			fmt.Fprintf(&b, "\n%s missed %d pairs (not explained: the crawl as written has no index of its order)\n", name, len(k.Missed))
		} else if k != nil && len(k.Missed) > 0 {
			beyond, half := k.MissedBy[missBeyondWindow], k.MissedBy[missBeyondHalf]
			caughtNear := k.WithinHalf - (len(k.Missed) - beyond - half)
			fmt.Fprintf(&b, "\n%s missed %d pairs: %d %s (%d responses), %d %s, %d %s, %d %s (MinHash's estimate fell short), %d %s; recall on the %d pairs within half the window %d/%d = %.1f%%\n",
				name, len(k.Missed), beyond, missBeyondWindow, k.Window, half, missBeyondHalf,
				k.MissedBy[missBelow], missBelow, k.MissedBy[missEstimate], missEstimate, k.MissedBy[missOther], missOther,
				k.WithinHalf, caughtNear, k.WithinHalf, 100*ratio(caughtNear, k.WithinHalf))
		}
	}
	return b.String()
}

func byType(m map[string]int64) string {
	var parts []string
	for _, t := range []string{"warcinfo", "request", "response"} {
		parts = append(parts, fmt.Sprintf("%d %s", m[t], t))
	}
	return strings.Join(parts, ", ")
}

func sumMap(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

func mib(n int64) string {
	if n < 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

func verdict(problems []string) string {
	if len(problems) == 0 {
		return "every record accounted for"
	}
	return "**" + strings.Join(problems, "; ") + "**"
}
