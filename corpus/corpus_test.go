package corpus

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/warc"
)

// TestArchives runs the engine over a WARC holding a record for every
// outcome, plain and gzip per record, and over a damaged copy of it, in
// every output format: every record is accounted for, and every page to
// clean is in the output exactly once.
func TestArchives(t *testing.T) {
	es := testEntries(t, true)
	dir := t.TempDir()
	for _, gz := range []bool{false, true} {
		name := "crawl.warc"
		if gz {
			name += ".gz"
		}
		good := buildArchive(t, dir, name, es, gz, nil)
		bad := buildArchive(t, dir, "damaged-"+name, es, gz, damageFor(es))
		for _, format := range Formats() {
			t.Run(fmt.Sprintf("%s/%s", name, format), func(t *testing.T) {
				// The intact archive: exact counts.
				ids, skipped := good.want()
				out := filepath.Join(t.TempDir(), "out")
				sum, probs := runCorpus(t, out, []string{good.path}, Options{Format: format})
				if sum.Records != int64(len(es)) || sum.Cleaned != int64(len(ids)) || sum.FailedTotal() != 0 {
					t.Errorf("records %d cleaned %d failed %v; want %d, %d, none", sum.Records, sum.Cleaned, sum.Failed, len(es), len(ids))
				}
				if !maps.Equal(sum.Skipped, skipped) {
					t.Errorf("skipped %v, want %v", sum.Skipped, skipped)
				}
				if len(probs) != int(sum.SkippedTotal()) {
					t.Errorf("%d problems reported for %d skipped records", len(probs), sum.SkippedTotal())
				}
				if sum.Inputs != 1 || sum.Finished != 1 || len(sum.InputErrors) != 0 {
					t.Errorf("inputs %d finished %d errors %v", sum.Inputs, sum.Finished, sum.InputErrors)
				}
				checkOutput(t, out, format, ids)

				// The damaged copy: the intact records come through,
				// the damage is counted as failures.
				ids, skipped = bad.want()
				out = filepath.Join(t.TempDir(), "out")
				sum, probs = runCorpus(t, out, []string{bad.path}, Options{Format: format})
				if sum.Cleaned != int64(len(ids)) {
					t.Errorf("damaged: cleaned %d, want %d", sum.Cleaned, len(ids))
				}
				if !maps.Equal(sum.Skipped, skipped) {
					t.Errorf("damaged: skipped %v, want %v", sum.Skipped, skipped)
				}
				if n := int64(len(bad.damaged) + bad.garbage - 1); sum.FailedTotal() < n {
					t.Errorf("damaged: %d failures (%v), want at least %d", sum.FailedTotal(), sum.Failed, n)
				}
				for reason := range sum.Failed {
					if !strings.HasPrefix(reason, "archive: ") {
						t.Errorf("damaged: failure %q is not archive damage", reason)
					}
				}
				for _, p := range probs {
					if p.Failed && (p.Offset < 0 || p.Input != bad.path || p.Detail == "") {
						t.Errorf("damaged: problem without a place or detail: %+v", p)
					}
				}
				checkOutput(t, out, format, ids)
				// The records read, counted independently.
				n := 0
				for range warc.ReadFile(bad.path, warc.Options{MaxRecordBytes: testMaxRecord}) {
					n++
				}
				if sum.Records != int64(n) {
					t.Errorf("damaged: %d records in the summary, the archive has %d (records and damage reports)", sum.Records, n)
				}
				t.Logf("damaged %s: %d records, %d cleaned, skipped %v, failed %v", name, sum.Records, sum.Cleaned, sum.Skipped, sum.Failed)
			})
		}
	}
}

// TestHTMLFiles runs the engine over a directory of HTML files and single
// files named as inputs.
func TestHTMLFiles(t *testing.T) {
	dir := t.TempDir()
	pages := filepath.Join(dir, "pages")
	write := func(name string, data []byte) string {
		p := filepath.Join(pages, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a.html", []byte(testPage(101)))
	write("sub/b.htm", []byte(testPage(102)))
	write("c.html.gz", gzipBytes([]byte(testPage(103))))
	write("copy-of-a.html", []byte(testPage(101)))
	write("empty.html", nil)
	write("image.html", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x02\x00\x00\x00"))
	write("huge.html", []byte(strings.Repeat(testPage(104), testMaxRecord/len(testPage(104))+2)))
	write("broken.html.gz", gzipBytes([]byte(testPage(105)))[:200])                          // cut short: what came before is cleaned
	write("garbage.html.gz", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff")) // nothing readable: failed
	write("notes.md", []byte("not a page"))
	// An archive in the directory is an input of its own.
	es := testEntries(t, false)
	arc := buildArchive(t, pages, "sub/crawl.warc.gz", es, true, nil)
	single := filepath.Join(dir, "single.html")
	if err := os.WriteFile(single, []byte(testPage(106)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(pages, "out") // inside an input: never read back
	sum, _ := runCorpus(t, out, []string{pages, single, filepath.Join(dir, "missing.html")}, Options{})
	if sum.Inputs != 3 {
		t.Errorf("%d inputs, want 3 (the archive, the directory, the single file)", sum.Inputs)
	}
	ids, skipped := arc.want()
	skipped[ReasonDuplicate]++
	skipped[ReasonEmpty]++
	skipped[ReasonNotHTML]++
	skipped[ReasonTooLarge]++
	if !maps.Equal(sum.Skipped, skipped) {
		t.Errorf("skipped %v, want %v", sum.Skipped, skipped)
	}
	if want := int64(len(ids) + 5); sum.Cleaned != want {
		t.Errorf("cleaned %d, want %d", sum.Cleaned, want)
	}
	if sum.Failed["read: damaged gzip"] != 1 || sum.FailedTotal() != 1 {
		t.Errorf("failed %v, want one damaged gzip", sum.Failed)
	}
	// The directory's damaged file and the missing one are input errors
	// (the run fails); the damaged file's text before the damage is out.
	if len(sum.InputErrors) != 2 || !strings.Contains(sum.InputErrors[0].Error, "no such file") ||
		!strings.Contains(sum.InputErrors[1].Error, "broken.html.gz: damaged gzip") {
		t.Errorf("input errors %v, want broken.html.gz's damage and missing.html", sum.InputErrors)
	}
	files := map[string]int{}
	for _, id := range outputIDs(t, out, FormatJSONL) {
		files[id]++
	}
	if files[""] != 5 {
		t.Errorf("%d pages without a record ID in the output, want 5 HTML files", files[""])
	}
}

// TestResume interrupts a run during its second input, resumes it, and
// checks that every page is in the output once; a third run has nothing
// left to do.
func TestResume(t *testing.T) {
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			es := testEntries(t, false)
			var archives []*archive
			var inputs []string
			want := map[string]string{}
			for i := range 3 {
				// Distinct pages in each archive, so that none is a
				// duplicate of another archive's.
				es := retarget(es, i)
				a := buildArchive(t, dir, fmt.Sprintf("crawl-%d.warc.gz", i), es, true, nil)
				archives = append(archives, a)
				inputs = append(inputs, a.path)
				ids, _ := a.want()
				maps.Copy(want, ids)
			}
			out := filepath.Join(dir, "out")
			ctx, cancel := context.WithCancel(context.Background())
			o := Options{Format: format, Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord, PartRecords: 7}
			o.Report = func(p Problem) {
				if p.Input == inputs[1] && p.Reason == ReasonRevisit {
					cancel() // halfway through the second archive
				}
			}
			sum, err := Run(ctx, out, inputs, o)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v", err)
			}
			if sum.Finished != 1 {
				t.Fatalf("interrupted run finished %d inputs, want 1", sum.Finished)
			}
			first, _ := archives[0].want()
			checkOutput(t, out, format, first)

			// Resume.
			var notices []string
			o = Options{Format: format, Cleaner: testCleaner(t), MaxRecordBytes: testMaxRecord, PartRecords: 7,
				Notice: func(s string) { notices = append(notices, s) }}
			sum, err = Run(context.Background(), out, inputs, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(sum.AlreadyDone) != 1 || sum.AlreadyDone[0] != inputs[0] || sum.Finished != 2 || sum.Run != 2 {
				t.Errorf("resumed run: already done %v, finished %d, run %d", sum.AlreadyDone, sum.Finished, sum.Run)
			}
			if !strings.Contains(strings.Join(notices, "\n"), "finished by run 1, skipped") {
				t.Errorf("notices %q do not say that the first archive is skipped", notices)
			}
			checkOutput(t, out, format, want)
			if err := sum.Total.Check(); err != nil || sum.TotalInputs != 3 || sum.Total.Cleaned != int64(len(want)) {
				t.Errorf("total over both runs: %d inputs, %+v (%v)", sum.TotalInputs, sum.Total, err)
			}

			// Nothing left to do.
			before := snapshotDir(t, out)
			sum, _ = runCorpus(t, out, inputs, Options{Format: format, PartRecords: 7})
			if len(sum.AlreadyDone) != 3 || sum.Records != 0 || sum.Inputs != 0 {
				t.Errorf("third run: already done %d, records %d", len(sum.AlreadyDone), sum.Records)
			}
			after := snapshotDir(t, out)
			for name, data := range before {
				if name != summaryName && name != manifestName && after[name] != data {
					t.Errorf("third run changed %s", name)
				}
			}
		})
	}
}

// TestResumeAfterCrash resumes from an output directory left as a crash
// leaves it: parts longer than the manifest says, a part it does not list.
func TestResumeAfterCrash(t *testing.T) {
	dir := t.TempDir()
	es := testEntries(t, false)
	a := buildArchive(t, dir, "a.warc.gz", retarget(es, 0), true, nil)
	b := buildArchive(t, dir, "b.warc.gz", retarget(es, 1), true, nil)
	out := filepath.Join(dir, "out")
	runCorpus(t, out, []string{a.path}, Options{})
	// What a crash during the next input leaves behind.
	f, err := os.OpenFile(filepath.Join(out, "part-00001.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"url":"http://half.example/","text":"half written`)
	f.Close()
	if err := os.WriteFile(filepath.Join(out, "part-00002.jsonl"), []byte(`{"url":"http://unfinished.example/"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var notices []string
	runCorpus(t, out, []string{a.path, b.path}, Options{Notice: func(s string) { notices = append(notices, s) }})
	want, _ := a.want()
	wb, _ := b.want()
	maps.Copy(want, wb)
	checkOutput(t, out, FormatJSONL, want)
	n := strings.Join(notices, "\n")
	if !strings.Contains(n, "part-00001.jsonl: cut back") || !strings.Contains(n, "part-00002.jsonl: removed") {
		t.Errorf("notices %q", n)
	}
}

// TestOutputDirChecks: a directory with other output, another format, or
// files the manifest does not explain is refused unless forced.
func TestOutputDirChecks(t *testing.T) {
	dir := t.TempDir()
	a := buildArchive(t, dir, "a.warc", testEntries(t, false), false, nil)
	out := filepath.Join(dir, "out")
	runCorpus(t, out, []string{a.path}, Options{})
	_, err := Run(context.Background(), out, []string{a.path}, Options{Format: FormatWARC, Cleaner: testCleaner(t)})
	if err == nil || !strings.Contains(err.Error(), "jsonl output") {
		t.Errorf("another format: %v", err)
	}
	sum, err := Run(context.Background(), out, []string{a.path}, Options{Format: FormatWARC, Cleaner: testCleaner(t), Force: true})
	if err != nil || sum.Cleaned == 0 || sum.Run != 1 {
		t.Errorf("--force: %v, %+v", err, sum)
	}
	if _, err := os.Stat(filepath.Join(out, "part-00001.jsonl")); err == nil {
		t.Error("--force left the jsonl part")
	}
	other := filepath.Join(dir, "other")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "corpus.txt"), []byte("mine"), 0o644)
	_, err = Run(context.Background(), other, []string{a.path}, Options{Format: FormatCleanEval, Cleaner: testCleaner(t)})
	if err == nil || !strings.Contains(err.Error(), "not the output of sluice corpus") {
		t.Errorf("foreign files: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(other, "corpus.txt")); string(data) != "mine" {
		t.Error("a foreign file was touched")
	}
}

// TestRotation: parts hold at most PartRecords pages.
func TestRotation(t *testing.T) {
	dir := t.TempDir()
	a := buildArchive(t, dir, "a.warc.gz", testEntries(t, false), true, nil)
	out := filepath.Join(dir, "out")
	sum, _ := runCorpus(t, out, []string{a.path}, Options{PartRecords: 3})
	if want := int((sum.Cleaned + 2) / 3); len(sum.Parts) != want {
		t.Errorf("%d parts for %d pages, want %d", len(sum.Parts), sum.Cleaned, want)
	}
	ids, _ := a.want()
	checkOutput(t, out, FormatJSONL, ids)
}

// TestInputErrors: inputs that are not archives or cannot be read are
// reported and do not stop the others.
func TestInputErrors(t *testing.T) {
	dir := t.TempDir()
	a := buildArchive(t, dir, "a.warc.gz", testEntries(t, false), true, nil)
	fake := filepath.Join(dir, "fake.warc")
	os.WriteFile(fake, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"), 0o644)
	empty := filepath.Join(dir, "empty-dir")
	os.MkdirAll(empty, 0o755)
	out := filepath.Join(dir, "out")
	sum, _ := runCorpus(t, out, []string{fake, a.path, empty}, Options{})
	var msgs []string
	for _, e := range sum.InputErrors {
		msgs = append(msgs, e.Input+": "+e.Error)
	}
	all := strings.Join(msgs, "\n")
	if len(msgs) != 2 || !strings.Contains(all, "fake.warc: warc: not a WARC or ARC archive") || !strings.Contains(all, "no archives") {
		t.Errorf("input errors:\n%s", all)
	}
	ids, _ := a.want()
	checkOutput(t, out, FormatJSONL, ids)
	// The fake archive produced nothing: it is tried again next time.
	sum, _ = runCorpus(t, out, []string{fake, a.path}, Options{})
	if len(sum.AlreadyDone) != 1 || len(sum.InputErrors) != 1 {
		t.Errorf("second run: already done %v, errors %v", sum.AlreadyDone, sum.InputErrors)
	}
}

func TestDedupWindow(t *testing.T) {
	d := newDedup(2)
	for i, c := range []struct {
		p    string
		seen bool
	}{{"a", false}, {"b", false}, {"a", true}, {"c", false}, {"d", false}, {"a", true}, {"e", false}, {"f", false}, {"g", false}, {"b", false}} {
		if got := d.seen([]byte(c.p)); got != c.seen {
			t.Errorf("%d: seen(%q) = %v, want %v", i, c.p, got, c.seen)
		}
	}
	if len(d.cur)+len(d.old) > 4 {
		t.Errorf("%d hashes kept, window 2", len(d.cur)+len(d.old))
	}
}

// retarget gives the pages of es new addresses and texts, so that archives
// built from the copies hold no duplicates of each other. Record IDs are
// cleared so that new ones are made.
func retarget(es []entry, n int) []entry {
	out := make([]entry, len(es))
	for i, e := range es {
		rec := *e.rec
		rec.Header = rec.Header.Clone()
		rec.Header.Del("WARC-Record-ID")
		rec.TargetURI = strings.Replace(rec.TargetURI, ".example/", fmt.Sprintf(".example/%d/", n), 1)
		rec.Content = []byte(strings.ReplaceAll(string(rec.Content), "Report ", fmt.Sprintf("Archive %d report ", n)))
		if strings.Contains(string(rec.Content), "Content-Encoding: gzip") {
			// The compressed body cannot be edited: a plain page instead.
			rec.Content = httpResponse("200 OK", "Content-Type: text/html\r\n", testPage(1000*(n+1)))
		}
		rec.Content = fixLength(rec.Content)
		out[i] = entry{&rec, e.want}
	}
	return out
}

// fixLength corrects the HTTP Content-Length of a block whose body changed.
func fixLength(block []byte) []byte {
	s := string(block)
	head, body, ok := strings.Cut(s, "\r\n\r\n")
	if !ok || !strings.HasPrefix(s, "HTTP/") || strings.Contains(head, "chunked") {
		return block
	}
	lines := strings.Split(head, "\r\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "Content-Length:") {
			lines[i] = fmt.Sprintf("Content-Length: %d", len(body))
		}
	}
	return []byte(strings.Join(lines, "\r\n") + "\r\n\r\n" + body)
}

func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(data)
	}
	return m
}

// TestARC reads an ARC file (the fixture of package warc).
func TestARC(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	sum, _ := runCorpus(t, out, []string{"../warc/testdata/sample.arc"}, Options{})
	want := map[string]int64{ReasonNotResponse: 1, ReasonNotHTML: 1, "status 404": 1}
	if sum.Records != 5 || sum.Cleaned+sum.Skipped[ReasonNoText] != 2 || sum.Skipped[ReasonNotResponse] != 1 ||
		sum.Skipped[ReasonNotHTML] != 1 || sum.Skipped["status 404"] != 1 {
		t.Errorf("records %d, cleaned %d, skipped %v; want 5 records: 2 pages, then %v", sum.Records, sum.Cleaned, sum.Skipped, want)
	}
	if sum.Cleaned == 0 {
		t.Error("no page of the ARC file was cleaned")
	}
}

// TestOrder: the output is the same whatever the number of workers and
// however small the in-flight budget (one item at a time).
func TestOrder(t *testing.T) {
	dir := t.TempDir()
	a := buildArchive(t, dir, "a.warc.gz", testEntries(t, true), true, nil)
	checkSameOutput(t, dir, a.path, []Options{{Jobs: 1}, {Jobs: 4}, {Jobs: 3, InFlightBytes: 1}})
}
