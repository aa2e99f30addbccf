package crawlsort

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// crawl writes three inputs whose hosts interleave (two .warc.gz, one
// plain) and returns their paths and every record's bytes.
func crawl(t *testing.T, dir string) ([]string, map[string][]byte) {
	all := map[string][]byte{}
	add := func(m map[string][]byte) {
		for k, v := range m {
			all[k] = v
		}
	}
	a, b, c := filepath.Join(dir, "a.warc.gz"), filepath.Join(dir, "b.warc"), filepath.Join(dir, "c.warc.gz")
	add(writeArchive(t, a, true, info(1), page("http://www.mill.example/1", 2), page("http://bücher.example/x", 3),
		page("http://192.0.2.7:8080/ip", 4), page("http://river.example/1", 5), page("http://mill.example/2", 6)))
	add(writeArchive(t, b, false, info(11), page("http://river.example/2", 12), page("http://MILL.example:443/3", 13),
		page("http://[2001:db8::1]/v6", 14), page("http://xn--bcher-kva.example/y", 15)))
	add(writeArchive(t, c, true, page("http://mill.example/4", 21), page("http://river.example/3", 22), info(23)))
	return []string{a, b, c}, all
}

func TestSortGroupsHostsByteIdentical(t *testing.T) {
	tmp := t.TempDir()
	paths, want := crawl(t, tmp)
	out := filepath.Join(tmp, "out")
	// A tiny budget and part size: several runs, several parts.
	sum := sortDir(t, out, paths, Options{Memory: 600, PartBytes: 1200})
	rows, got := readOutput(t, out)
	if len(got) != len(want) || sum.RecordsIn != int64(len(want)) || sum.RecordsOut != sum.RecordsIn {
		t.Fatalf("%d records out of %d (summary: in %d, out %d)", len(got), len(want), sum.RecordsIn, sum.RecordsOut)
	}
	for k, w := range want {
		if !bytes.Equal(got[k], w) {
			t.Errorf("%s: output record differs from the input's:\n%q\n%q", k, got[k], w)
		}
	}
	checkGrouped(t, rows)
	hosts := map[string]int{}
	for _, r := range rows {
		hosts[r.host]++
	}
	for h, n := range map[string]int{NoHost: 3, "mill.example": 4, "river.example": 3, "xn--bcher-kva.example": 2, "192.0.2.7": 1, "2001:db8::1": 1} {
		if hosts[h] != n {
			t.Errorf("host %q: %d records, want %d (hosts %v)", h, hosts[h], n, hosts)
		}
	}
	if sum.Runs < 2 || sum.Parts < 2 || sum.Hosts != 6 || sum.NoHost != 3 || sum.ByType["response"] != 11 {
		t.Errorf("summary: %d runs, %d parts, %d hosts, %d without host, %v", sum.Runs, sum.Parts, sum.Hosts, sum.NoHost, sum.ByType)
	}
	// Within a host, input order: mill's records 2, 6, 13, 21.
	var mill []string
	for _, r := range rows {
		if r.host == "mill.example" {
			mill = append(mill, r.id[len(r.id)-3:])
		}
	}
	if want := []string{"02>", "06>", "13>", "21>"}; !slices.Equal(mill, want) {
		t.Errorf("mill.example in order %v, want %v", mill, want)
	}
	// A second run finds the sort done and returns its summary.
	again := sortDir(t, out, paths, Options{Memory: 600, PartBytes: 1200})
	if again.RecordsOut != sum.RecordsOut || again.Parts != sum.Parts {
		t.Errorf("second run: %+v", again)
	}
}

func TestSortDuplicateIDs(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a.warc.gz"), filepath.Join(tmp, "b.warc.gz")
	writeArchive(t, a, true, page("http://one.example/", 1), page("http://two.example/", 2))
	writeArchive(t, b, true, page("http://one.example/", 1), page("http://three.example/", 2))
	sum := sortDir(t, filepath.Join(tmp, "out"), []string{a, b}, Options{})
	if sum.RecordsOut != 4 || sum.DuplicateIDs != 2 || len(sum.Duplicates) != 2 {
		t.Fatalf("out %d, duplicate IDs %d: %+v", sum.RecordsOut, sum.DuplicateIDs, sum.Duplicates)
	}
	d := sum.Duplicates[0]
	if d.Input != b || d.FirstInput != a || d.Offset < 0 {
		t.Errorf("duplicate %+v: want in %s, first in %s", d, b, a)
	}
}

func TestSortTruncatedGzip(t *testing.T) {
	tmp := t.TempDir()
	a := filepath.Join(tmp, "cut.warc.gz")
	want := writeArchive(t, a, true, page("http://one.example/", 1), page("http://two.example/", 2), page("http://three.example/", 3))
	data, _ := os.ReadFile(a)
	if err := os.WriteFile(a, data[:len(data)-40], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	var reported []Damage
	sum := sortDir(t, out, []string{a}, Options{Report: func(d Damage) { reported = append(reported, d) }})
	_, got := readOutput(t, out)
	if sum.RecordsOut != 2 || len(got) != 2 || sum.Damaged != 1 || len(reported) != 1 {
		t.Fatalf("out %d, damaged %d, reported %v", sum.RecordsOut, sum.Damaged, reported)
	}
	if d := sum.Damage[0]; d.Input != a || d.Offset <= 0 || d.Kind != "truncated gzip member" {
		t.Errorf("damage %+v", d)
	}
	for k, g := range got {
		if !bytes.Equal(g, want[k]) {
			t.Errorf("%s differs", k)
		}
	}
}

// An interrupted sort, run again, ends as an uninterrupted one: the same
// parts, the same index, no record twice or lost.
func TestSortResume(t *testing.T) {
	for _, phase := range []string{PhaseScan, PhaseWrite} {
		t.Run(phase, func(t *testing.T) {
			tmp := t.TempDir()
			paths, want := crawl(t, tmp)
			ref := filepath.Join(tmp, "ref")
			opts := Options{Memory: 600, PartBytes: 1200}
			sortDir(t, ref, paths, opts)
			out := filepath.Join(tmp, "out")
			ctx, cancel := context.WithCancel(context.Background())
			stop := opts
			stop.Progress = func(p Progress) {
				if p.Phase == phase {
					cancel()
				}
			}
			if _, err := Run(ctx, out, paths, stop); !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v", err)
			}
			sum := sortDir(t, out, paths, opts)
			_, got := readOutput(t, out)
			if len(got) != len(want) || sum.RecordsOut != int64(len(want)) {
				t.Fatalf("%d records after resuming, want %d", len(got), len(want))
			}
			for _, name := range []string{indexName, partFile(1), partFile(sum.Parts)} {
				a, _ := os.ReadFile(filepath.Join(ref, name))
				b, _ := os.ReadFile(filepath.Join(out, name))
				if !bytes.Equal(a, b) || len(a) == 0 {
					t.Errorf("%s differs from the uninterrupted sort's", name)
				}
			}
		})
	}
}

func TestHostKey(t *testing.T) {
	for uri, want := range map[string]string{
		"http://WWW.Example.COM:8080/a":   "example.com",
		"https://example.com./":           "example.com",
		"http://bücher.example/":          "xn--bcher-kva.example",
		"http://XN--BCHER-KVA.example/":   "xn--bcher-kva.example",
		"http://192.0.2.1:80/":            "192.0.2.1",
		"http://[2001:DB8::1]:8080/":      "2001:db8::1",
		"dns:www.example.org":             "example.org",
		"":                                NoHost,
		"not a uri at all":                NoHost,
		"mailto:someone@example.org":      NoHost,
		"http://www./":                    "www",
		"http://exa\tmple.com/":           NoHost,
		"http://www.www.example.net/path": "www.example.net",
	} {
		if got := HostKey(uri); got != want {
			t.Errorf("HostKey(%q) = %q, want %q", uri, got, want)
		}
	}
}

// A write that fails (here: a directory in the way of the first part, as
// a full disk would fail it) stops the run with the path, and leaves no
// temporary file behind; once it can write again, the sort resumes.
func TestSortWriteFails(t *testing.T) {
	tmp := t.TempDir()
	paths, want := crawl(t, tmp)
	out := filepath.Join(tmp, "out")
	block := filepath.Join(out, partFile(1), "x")
	opts := Options{Progress: func(p Progress) {
		if p.Phase == PhaseScan && p.Inputs == p.InputsTotal {
			os.MkdirAll(block, 0o755)
		}
	}}
	_, err := Run(context.Background(), out, paths, opts)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(out, partFile(1))) {
		t.Fatalf("error %v, want one naming %s", err, partFile(1))
	}
	if tmps, _ := filepath.Glob(filepath.Join(out, ".part-*")); len(tmps) > 0 {
		t.Errorf("left behind: %v", tmps)
	}
	os.RemoveAll(filepath.Dir(block))
	sum := sortDir(t, out, paths, Options{})
	if sum.RecordsOut != int64(len(want)) {
		t.Errorf("%d records after resuming, want %d", sum.RecordsOut, len(want))
	}
}
