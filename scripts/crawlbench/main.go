// Command crawlbench measures sluice sort and sluice corpus on a synthetic
// crawl (issue 25): it generates response records over many hosts,
// interleaved over several .warc.gz files, from the shared pages wrapped
// in a template per host, plants near-duplicate copies, runs the sluice
// binary (built from this module) on it, and checks the peak memory of
// each step, that every record is accounted for, the recall of the
// planted near-duplicates and the false removals.
//
//	go run ./scripts/crawlbench -work /tmp/crawlbench        # 50,000 records, 2,000 hosts, 20 files
//	go run ./scripts/crawlbench -work /tmp/cb -records 2000 -hosts 100 -files 4 -planted 40
//
// It reads the data from $SLUICE_DATA (else ../shared/data). What it
// writes in the work folder: crawl/ (the archives and manifest.json, the
// ground truth), sorted/, the corpus outputs, each step's standard output
// and error, results.md and results.json. See docs/sort.md, "A crawl
// at scale".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// options are the command's flags beyond the crawl's Config.
type options struct {
	work, sets, sluice string
	memory             string // corpus --memory, when set
	nearDup            float64
	para, jobs, limit  int
	window             int // corpus --near-dup-window, when set
	reuse, generate    bool
}

func main() {
	cfg := Config{}
	var o options
	flag.StringVar(&o.work, "work", filepath.Join(os.TempDir(), "crawlbench"), "work folder: the crawl, the sorted crawl and the outputs go there")
	flag.StringVar(&o.sets, "sets", "", "shared sets to draw pages from, comma-separated (default: every set)")
	flag.IntVar(&o.limit, "pages", 0, "at most N pages of each set (0: all)")
	flag.StringVar(&o.sluice, "sluice", "", "the sluice binary to measure (default: built from this module into the work folder)")
	flag.IntVar(&cfg.Records, "records", 50000, "response records")
	flag.IntVar(&cfg.Hosts, "hosts", 2000, "hosts")
	flag.IntVar(&cfg.Files, "files", 20, ".warc.gz files")
	flag.IntVar(&cfg.Planted, "planted", 1000, "planted near-duplicate copies")
	flag.Float64Var(&cfg.SameHost, "same-host", 0.5, "share of the copies on their original's host")
	flag.IntVar(&cfg.NoURI, "no-uri", 20, "response records without WARC-Target-URI")
	flag.IntVar(&cfg.DupIDs, "dup-ids", 10, "response records reusing another's WARC-Record-ID")
	flag.Float64Var(&cfg.Replace, "replace", 0.15, "share of each record's words replaced, so that reused pages are not near-duplicates")
	flag.Float64Var(&cfg.MinWords, "min-words", 100, "least words of text of a planted original")
	flag.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	flag.Float64Var(&o.nearDup, "near-dup", 0.8, "corpus --near-dup similarity")
	flag.IntVar(&o.para, "dedup-paragraphs", 3, "corpus --dedup-paragraphs N")
	flag.IntVar(&o.jobs, "j", 2, "corpus -j")
	flag.StringVar(&o.memory, "memory", "", "corpus --memory SIZE (default: corpus's own)")
	flag.IntVar(&o.window, "near-dup-window", 0, "corpus --near-dup-window N (default: corpus's own)")
	flag.BoolVar(&o.reuse, "reuse", false, "reuse the crawl in the work folder when its manifest has the same configuration")
	flag.BoolVar(&o.generate, "generate-only", false, "only generate the crawl (the benchmark runs itself so to keep its own memory small)")
	flag.Parse()
	var err error
	if o.generate {
		_, err = crawl(cfg, o)
	} else {
		err = run(cfg, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crawlbench:", err)
		os.Exit(1)
	}
}

// run generates the crawl in a child process (the shared pages it loads
// would otherwise count in the steps' peak memory: see peakRSS), then
// measures.
func run(cfg Config, o options) error {
	m, err := reusable(cfg, o.work)
	if err != nil || !o.reuse {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		gen := exec.Command(self, append(os.Args[1:], "-generate-only")...)
		gen.Stdout, gen.Stderr = os.Stderr, os.Stderr
		if err := gen.Run(); err != nil {
			return fmt.Errorf("generating the crawl: %w", err)
		}
		if m, err = reusable(cfg, o.work); err != nil {
			return err
		}
	}
	bin := o.sluice
	if bin == "" {
		bin = filepath.Join(o.work, "sluice")
		fmt.Fprintln(os.Stderr, "crawlbench: go build -o", bin, "./cmd/sluice")
		build := exec.Command("go", "build", "-o", bin, "./cmd/sluice")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building sluice (run from the module root): %w", err)
		}
	}
	res, err := measure(bin, o, m)
	if err != nil {
		return err
	}
	return res.write(o.work)
}

// crawl generates the crawl into WORK/crawl, or reads its manifest when
// -reuse finds one of the same configuration.
func crawl(cfg Config, o options) (*manifest, error) {
	dir := filepath.Join(o.work, "crawl")
	if m, err := reusable(cfg, o.work); err == nil && o.reuse {
		fmt.Fprintln(os.Stderr, "crawlbench: reusing", dir)
		return m, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	var names []string
	if o.sets != "" {
		names = strings.Split(o.sets, ",")
	}
	srcs, err := loadSources(names, o.limit)
	if err != nil {
		return nil, err
	}
	p, err := newPlan(cfg, srcs)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "crawlbench: writing %d records of %d hosts from %d shared pages into %s\n", cfg.Records, cfg.Hosts, len(srcs), dir)
	m, err := p.write(dir)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return m, os.WriteFile(filepath.Join(dir, "manifest.json"), append(b, '\n'), 0o644)
}

// reusable reads WORK/crawl/manifest.json, and fails unless it was written
// for cfg.
func reusable(cfg Config, work string) (*manifest, error) {
	var m manifest
	if err := readJSON(filepath.Join(work, "crawl", "manifest.json"), &m); err != nil {
		return nil, err
	}
	if m.Config != cfg {
		return nil, fmt.Errorf("the crawl in %s was generated with %+v, not %+v", work, m.Config, cfg)
	}
	return &m, nil
}
