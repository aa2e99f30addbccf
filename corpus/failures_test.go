package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/warc"
)

// readFailures reads failures.jsonl.
func readFailures(t *testing.T, dir string) []Failure {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, failuresName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Failure
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var x Failure
		if err := json.Unmarshal(sc.Bytes(), &x); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		out = append(out, x)
	}
	return out
}

// genFile is a generated archive: its records' IDs and offsets (of the
// record, or for a stream, decompressed offsets in its one member).
type genFile struct {
	path   string
	stream bool
	recs   []*warc.Record
}

// TestRunAccounting damages generated archives at random and checks, file
// by file, that every record is cleaned, skipped or failed with a line in
// failures.jsonl that covers it, that the summary adds up to the records and
// damaged spans, and that nothing cleaned is other than generated.
func TestRunAccounting(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 12
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	var files []*genFile
	for seed := range n {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		var recs []*warc.Record
		for i := range 2 + rng.IntN(4) {
			recs = append(recs, responseRecord(fmt.Sprintf("http://s%d.example/p%d", seed, i), httpResponse("200 OK", "Content-Type: text/html\r\n", testPage(seed*10+i))))
		}
		layout := seed % 3 // plain, gzip per record, gzip stream
		var buf bytes.Buffer
		w := warc.NewWriter(&buf, layout == 1)
		for _, r := range recs {
			if err := w.WriteRecord(r); err != nil {
				t.Fatal(err)
			}
		}
		data := buf.Bytes()
		if layout == 2 {
			data = gzipBytes(data)
		}
		switch rng.IntN(3) {
		case 0:
			data[rng.IntN(len(data))] ^= 1 << rng.IntN(8)
		case 1:
			data = data[:rng.IntN(len(data))]
		case 2:
			at := rng.IntN(len(data))
			data = append(data[:at:at], append([]byte("some garbage\n"), data[at:]...)...)
			for _, r := range recs {
				if layout != 2 && r.Offset >= int64(at) {
					r.Offset += 13
				}
			}
		}
		path := filepath.Join(in, fmt.Sprintf("a%03d.warc", seed))
		if layout > 0 {
			path += ".gz"
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, &genFile{path: path, stream: layout == 2, recs: recs})
	}
	out := filepath.Join(dir, "out")
	sum, probs := runCorpus(t, out, []string{in}, Options{})
	fails := readFailures(t, out)
	if int64(len(fails)) != sum.FailedTotal()+int64(len(sum.InputErrors)) || sum.FailuresListed != int64(len(fails)) || sum.FailuresLeftOut != 0 {
		t.Fatalf("%d lines in %s, %d failed and %d input errors in the summary", len(fails), failuresName, sum.FailedTotal(), len(sum.InputErrors))
	}
	docs := readDocs(t, out)
	for _, f := range files {
		ids := map[string]*warc.Record{}
		for _, r := range f.recs {
			ids[r.ID()] = r
		}
		accounted := map[*warc.Record]bool{}
		for _, d := range docs {
			if d.Source.File != f.path {
				continue
			}
			r := ids[d.Source.RecordID]
			if r == nil {
				t.Fatalf("%s: cleaned page %s was not generated", f.path, d.Source.RecordID)
			}
			if !f.stream && d.Source.Offset != r.Offset || f.stream && (d.Source.MemberOffset == nil || d.Source.Offset != r.Offset) {
				t.Fatalf("%s: cleaned page %s at %d, generated at %d", f.path, r.ID(), d.Source.Offset, r.Offset)
			}
			if !strings.Contains(d.Text, "The mill wheel turns again, report number") {
				t.Errorf("%s: page %s cleaned without its heading", f.path, r.ID())
			}
			accounted[r] = true
		}
		for _, p := range probs {
			if p.Input == f.path && !p.Failed {
				for _, r := range f.recs {
					if r.Offset == p.Offset {
						accounted[r] = true
					}
				}
			}
		}
		for _, x := range fails {
			if x.File != f.path {
				continue
			}
			if x.Offset == nil {
				accounted[nil] = true // an input error: the file is not an archive
				continue
			}
			for _, r := range f.recs {
				if f.stream || x.Length == nil && *x.Offset <= r.Offset || x.Length != nil && *x.Offset < r.Offset+r.Length && *x.Offset+*x.Length > r.Offset {
					accounted[r] = true
				}
			}
		}
		for i, r := range f.recs {
			if !accounted[r] && !accounted[nil] && r.Offset < fileSize(t, f.path) {
				t.Errorf("%s: record %d at %d neither cleaned, skipped nor in a failure", f.path, i, r.Offset)
			}
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestSummaryEmptyReasons: an empty bucket is {}, not null, and problems
// of HTML files name the file, not its directory.
func TestSummaryEmptyReasons(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "dd")
	os.Mkdir(in, 0o755)
	os.WriteFile(filepath.Join(in, "a.html"), []byte(testPage(1)), 0o644)
	os.WriteFile(filepath.Join(in, "b.txt"), []byte("   "), 0o644)
	out := filepath.Join(dir, "out")
	_, probs := runCorpus(t, out, []string{in}, Options{})
	data, err := os.ReadFile(filepath.Join(out, summaryName))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	json.Unmarshal(data, &raw)
	if f, ok := raw["failed"].(map[string]any); !ok || len(f) != 0 {
		t.Errorf("failed = %v, want {}", raw["failed"])
	}
	if len(probs) != 1 || probs[0].Input != filepath.Join(in, "b.txt") || probs[0].Offset != -1 {
		t.Errorf("problems %+v, want b.txt named, without offset", probs)
	}
}
