package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/sluice-project/sluice/inputs"
)

// readSummary reads summary.json.
func readSummary(t *testing.T, dir string) *Summary {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, summaryName))
	if err != nil {
		t.Fatal(err)
	}
	var s Summary
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v", summaryName, err)
	}
	return &s
}

// wantCounts are the counts of a finished, undamaged test archive.
func (a *archive) wantCounts() Counts {
	ids, skipped := a.want()
	c := Counts{Cleaned: int64(len(ids)), Skipped: Reasons(skipped), Failed: Reasons{}}
	c.Records = c.Cleaned + c.SkippedTotal()
	return c
}

// TestInterruptedSummary stops runs as SIGINT does (the context is
// cancelled) in the middle of an input, and checks summary.json: its
// top-level counts are those of the inputs the run finished, the records of
// the input it left unfinished are under "unfinished" (and their failures
// are not in failures.jsonl), and Total is the top-level counts, as nothing
// else was finished. Issue 19 saw "cleaned: 818" at the top level with a
// total of 0.
func TestInterruptedSummary(t *testing.T) {
	for _, stopIn := range []int{0, 1} {
		t.Run(fmt.Sprintf("input%d", stopIn), func(t *testing.T) {
			dir := t.TempDir()
			es := testEntries(t, false)
			var archives []*archive
			var paths []string
			for i := range 3 {
				var damage map[int]int
				if i == stopIn {
					// A page cut short before the revisit, where the
					// run stops: a failure of the unfinished input.
					damage = map[int]int{2: damageCut}
				}
				a := buildArchive(t, dir, fmt.Sprintf("crawl-%d.warc.gz", i), retarget(es, i), true, damage)
				archives = append(archives, a)
				paths = append(paths, a.path)
			}
			out := filepath.Join(dir, "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			failedSeen := false
			o := Options{Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord, Jobs: 2}
			o.Report = func(p Problem) {
				if p.Input == paths[stopIn] && p.Failed {
					failedSeen = true
				}
				if p.Input == paths[stopIn] && p.Reason == ReasonRevisit {
					cancel()
				}
			}
			sum, err := Run(ctx, out, paths, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v", err)
			}
			if !failedSeen {
				t.Fatal("the damaged page of the unfinished input was not reported before the stop")
			}
			var want Counts
			for _, a := range archives[:stopIn] {
				want.add(a.wantCounts())
			}
			want.normalize()
			onDisk := readSummary(t, out)
			for _, s := range []*Summary{sum, onDisk} {
				if !reflect.DeepEqual(s.Counts, want) {
					t.Errorf("top-level counts %+v, want those of the %d finished inputs, %+v", s.Counts, stopIn, want)
				}
				if !reflect.DeepEqual(s.Total, want) || s.TotalInputs != stopIn {
					t.Errorf("total %+v over %d inputs, want %+v over %d", s.Total, s.TotalInputs, want, stopIn)
				}
				if s.Finished != stopIn || s.Inputs != 3 {
					t.Errorf("finished %d of %d inputs, want %d of 3", s.Finished, s.Inputs, stopIn)
				}
				u := s.Unfinished
				if u == nil {
					t.Fatal("no unfinished counts")
				}
				if err := u.Check(); err != nil {
					t.Errorf("unfinished: %v", err)
				}
				all := archives[stopIn].entries
				if u.Records < 3 || u.Records >= int64(len(all)) || u.FailedTotal() != 1 || u.Skipped[ReasonRevisit] != 1 {
					t.Errorf("unfinished %+v: want the records up to the revisit, the cut page failed among them", *u)
				}
				if err := s.Check(); err != nil {
					t.Error(err)
				}
				if s.FailuresListed != 0 || s.FailuresLeftOut != 0 {
					t.Errorf("failures listed %d, left out %d: the unfinished input's failure counted", s.FailuresListed, s.FailuresLeftOut)
				}
			}
			if fails := readFailures(t, out); len(fails) != 0 {
				t.Errorf("%s lists %+v, a failure of the unfinished input", failuresName, fails)
			}

			// Resuming finishes the rest; Total then covers every input.
			sum, err = Run(context.Background(), out, paths, Options{Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Unfinished != nil || sum.TotalInputs != 3 || sum.Total.Records != sum.Records+want.Records {
				t.Errorf("resumed: unfinished %v, total %+v over %d inputs, this run %d records", sum.Unfinished, sum.Total, sum.TotalInputs, sum.Records)
			}
			if err := sum.Total.Check(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestFailureLinesCap: beyond the cap, failures are counted in
// failures_left_out, not listed; input errors come after the records'
// failures and are capped with them.
func TestFailureLinesCap(t *testing.T) {
	dir := t.TempDir()
	es := testEntries(t, false)
	damage := damageFor(es) // 4 failures (the garbage is one more), 5 in all
	a := buildArchive(t, dir, "a.warc.gz", es, true, damage)
	missing := filepath.Join(dir, "missing.warc.gz")
	out := filepath.Join(dir, "out")

	// Without a cap: every failure listed.
	full, _ := runCorpus(t, filepath.Join(dir, "full"), []string{a.path, missing}, Options{})
	all := readFailures(t, filepath.Join(dir, "full"))
	n := full.FailedTotal()
	if n < 4 || int64(len(all)) != n+1 || full.FailuresListed != n+1 || full.FailuresLeftOut != 0 {
		t.Fatalf("uncapped: %d failed, %d lines, listed %d, left out %d", n, len(all), full.FailuresListed, full.FailuresLeftOut)
	}

	const limit = 3
	sum, _ := runCorpus(t, out, []string{a.path, missing}, Options{maxFailureLines: limit})
	lines := readFailures(t, out)
	if len(lines) != limit || !reflect.DeepEqual(lines, all[:limit]) {
		t.Errorf("capped at %d: %d lines %+v, want the first %d of %+v", limit, len(lines), lines, limit, all)
	}
	wantOut := n + 1 - limit
	if sum.FailuresListed != limit || sum.FailuresLeftOut != wantOut || sum.FailedTotal() != n {
		t.Errorf("listed %d, left out %d, failed %d; want %d, %d, %d", sum.FailuresListed, sum.FailuresLeftOut, sum.FailedTotal(), limit, wantOut, n)
	}
	if s := readSummary(t, out); s.FailuresListed != limit || s.FailuresLeftOut != wantOut {
		t.Errorf("%s: failures_listed %d, failures_left_out %d", summaryName, s.FailuresListed, s.FailuresLeftOut)
	}
	if len(sum.InputErrors) != 1 {
		t.Errorf("input errors %+v, want the missing archive", sum.InputErrors)
	}
}

// TestSkippedFiles: the files a directory's walk leaves out (links out of
// it, to a directory, to nothing) are listed in summary.json with their
// reason, bounded, and are no error.
func TestSkippedFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pages")
	os.Mkdir(in, 0o755)
	os.WriteFile(filepath.Join(in, "a.html"), []byte(testPage(1)), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.html"), []byte(testPage(2)), 0o644)
	os.WriteFile(filepath.Join(dir, "other.warc"), nil, 0o644)
	links := map[string]string{
		"b-leak.html":     "../secret.html",
		"c-loop.html":     "../pages",
		"d-broken.html":   "missing.html",
		"e-leak.warc":     "../other.warc",
		"f-copy.html":     "a.html", // inside: read (a duplicate)
		"g-picture.png":   "../secret.html",
		"h-leak-more.htm": "../secret.html",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(in, name)); err != nil {
			t.Skip("no symbolic links:", err)
		}
	}
	want := []SkippedFile{
		{filepath.Join(in, "b-leak.html"), inputs.SkipLinkOutside},
		{filepath.Join(in, "c-loop.html"), inputs.SkipLinkDir},
		{filepath.Join(in, "d-broken.html"), inputs.SkipLinkBroken},
		{filepath.Join(in, "e-leak.warc"), inputs.SkipLinkOutside},
		{filepath.Join(in, "h-leak-more.htm"), inputs.SkipLinkOutside},
	}
	for _, limit := range []int{0, 3} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			var notices []string
			sum, _ := runCorpus(t, out, []string{in}, Options{maxSkippedFiles: limit, Notice: func(s string) { notices = append(notices, s) }})
			listed := want
			if limit > 0 {
				listed = want[:limit]
			}
			for _, s := range []*Summary{sum, readSummary(t, out)} {
				if !slices.Equal(s.SkippedFiles, listed) || s.SkippedFilesLeftOut != int64(len(want)-len(listed)) {
					t.Errorf("skipped files %+v, %d left out; want %+v, %d left out", s.SkippedFiles, s.SkippedFilesLeftOut, listed, len(want)-len(listed))
				}
				if len(s.InputErrors) != 0 || s.Records != 2 || s.Cleaned != 1 || s.Skipped[ReasonDuplicate] != 1 {
					t.Errorf("input errors %v, counts %+v: want a.html cleaned, its copy a duplicate", s.InputErrors, s.Counts)
				}
			}
			if len(notices) != len(want) {
				t.Errorf("notices %q, want one per file left out", notices)
			}
		})
	}

	// None: an empty list, not null.
	out := filepath.Join(dir, "none")
	os.Mkdir(filepath.Join(dir, "plain"), 0o755)
	os.WriteFile(filepath.Join(dir, "plain", "a.html"), []byte(testPage(1)), 0o644)
	runCorpus(t, out, []string{filepath.Join(dir, "plain")}, Options{})
	data, _ := os.ReadFile(filepath.Join(out, summaryName))
	var raw map[string]any
	json.Unmarshal(data, &raw)
	if l, ok := raw["skipped_files"].([]any); !ok || len(l) != 0 || raw["skipped_files_left_out"] != 0.0 {
		t.Errorf("skipped_files = %v, left out %v; want [] and 0", raw["skipped_files"], raw["skipped_files_left_out"])
	}
}
