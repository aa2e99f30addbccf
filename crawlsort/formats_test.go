package crawlsort

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/warc"
)

// A file compressed as one gzip stream: its records are decompressed
// into a spill file and written byte-identical, each in its own member.
func TestSortWholeGzipStream(t *testing.T) {
	tmp := t.TempDir()
	plain := filepath.Join(tmp, "plain.warc")
	want := writeArchive(t, plain, false, info(1), page("http://b.example/", 2), page("http://a.example/", 3))
	data, _ := os.ReadFile(plain)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	zw.Close()
	whole := filepath.Join(tmp, "whole.warc.gz")
	os.WriteFile(whole, buf.Bytes(), 0o644)
	out := filepath.Join(tmp, "out")
	sum := sortDir(t, out, []string{whole}, Options{})
	rows, got := readOutput(t, out)
	if sum.RecordsOut != 3 || sum.Spilled != 3 || len(got) != 3 {
		t.Fatalf("out %d, spilled %d", sum.RecordsOut, sum.Spilled)
	}
	checkGrouped(t, rows)
	for _, r := range rows {
		var w []byte
		for k, v := range want {
			if strings.HasPrefix(k, r.id+"@") {
				w = v
			}
		}
		if g := got[r.id+"@"+whole+"@"+itoa(r.srcOff)]; !bytes.Equal(g, w) || len(w) == 0 {
			t.Errorf("%s: output differs from the input's record", r.id)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// ARC records are converted to WARC response records with their block.
func TestSortARC(t *testing.T) {
	tmp := t.TempDir()
	src, err := os.ReadFile("../warc/testdata/sample.arc")
	if err != nil {
		t.Fatal(err)
	}
	arc := filepath.Join(tmp, "sample.arc")
	os.WriteFile(arc, src, 0o644)
	var blocks [][]byte
	var n int64
	for rec, err := range warc.ReadFile(arc, warc.Options{}) {
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, rec.Content)
		n++
	}
	out := filepath.Join(tmp, "out")
	sum := sortDir(t, out, []string{arc}, Options{})
	if sum.RecordsOut != n || sum.Converted != n {
		t.Fatalf("out %d, converted %d, want %d", sum.RecordsOut, sum.Converted, n)
	}
	parts, _ := filepath.Glob(filepath.Join(out, "part-*.warc.gz"))
	var got int
	for _, p := range parts {
		for rec, err := range warc.ReadFile(p, warc.Options{}) {
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			found := false
			for _, b := range blocks {
				found = found || bytes.Equal(b, rec.Content)
			}
			if !found || !strings.HasPrefix(rec.Version, "WARC/") || rec.ID() == "" {
				t.Errorf("%s: record %s (%s) not an input block converted", p, rec.ID(), rec.Version)
			}
			got++
		}
	}
	if int64(got) != n {
		t.Errorf("%d records in the parts, want %d", got, n)
	}
}
