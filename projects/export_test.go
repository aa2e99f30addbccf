package projects

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/train"
)

// unpack writes the files of a tar.gz or zip archive into dir.
func unpack(t *testing.T, data []byte, archive, dir string) []string {
	t.Helper()
	var names []string
	put := func(name string, r io.Reader) {
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if archive == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, _ := f.Open()
			put(f.Name, rc)
			rc.Close()
		}
		return names
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		put(h.Name, tr)
	}
}

// TestExportDataset exports a project as a data set, in both archives,
// and reads it back as sluice train --data does: the labels are the
// ones given; the page not labelled whole is left out.
func TestExportDataset(t *testing.T) {
	ts := startServer(t, "")
	proj, ids := ts.newProject(t, "River pages")
	ts.labelAll(t, proj, ids, 0, 1)
	for _, archive := range []string{"tar.gz", "zip"} {
		a := ts.do(t, "GET", pathf("/v1/projects/%d/export?format=dataset&archive=%s", proj, archive), "", nil).want(t, 200)
		if a.header.Get("Sluice-Pages") != "2" || a.header.Get("Sluice-Pages-Skipped") != "1" ||
			!strings.Contains(a.header.Get("Content-Disposition"), "River_pages-dataset."+archive) {
			t.Errorf("%s: headers %v", archive, a.header)
		}
		dir := t.TempDir()
		names := unpack(t, a.body, archive, dir)
		want := []string{"River_pages/html/river.example_" + itoa(ids[0]) + ".html", "River_pages/ann/river.example_" + itoa(ids[0]) + ".ann",
			"River_pages/html/river.example_" + itoa(ids[1]) + ".html", "River_pages/ann/river.example_" + itoa(ids[1]) + ".ann"}
		if !slices.Equal(names, want) {
			t.Errorf("%s: files %q, want %q", archive, names, want)
		}
		set, err := dataset.Open(filepath.Join(dir, "River_pages"))
		if err != nil || set.Kind != dataset.Annotated || set.Len() != 2 {
			t.Fatalf("%s: %+v, %v", archive, set, err)
		}
		pages, skipped, err := train.LoadTraining(context.Background(), []string{set.Dir}, train.LoadOptions{Jobs: 1})
		if err != nil || len(pages) != 2 || len(skipped) != 0 {
			t.Fatalf("%s: loaded %d pages, skipped %v: %v", archive, len(pages), skipped, err)
		}
		for i, p := range pages {
			if !slices.Equal(p.Example.Labels, testPages[i].labels) || p.Data.Site != "river.example" {
				t.Errorf("%s: page %d: labels %v, site %q; want %v", archive, i, p.Example.Labels, p.Data.Site, testPages[i].labels)
			}
		}
	}
}

// TestExportVictor exports a project in Victor's layout (NAME.html and
// NAME.ann side by side, as sluice annotate writes them) and one page's
// annotation, and maps them back onto the pages.
func TestExportVictor(t *testing.T) {
	ts := startServer(t, "")
	proj, ids := ts.newProject(t, "rivers")
	ts.labelAll(t, proj, ids)
	a := ts.do(t, "GET", pathf("/v1/projects/%d/export?format=victor", proj), "", nil).want(t, 200)
	dir := t.TempDir()
	names := unpack(t, a.body, "tar.gz", dir)
	if len(names) != 6 || names[4] != "rivers/mill.example_"+itoa(ids[2])+".html" || names[5] != "rivers/mill.example_"+itoa(ids[2])+".ann" {
		t.Fatalf("files %q", names)
	}
	cl, err := sluice.New(sluice.Options{Filter: sluice.DefaultFilter})
	if err != nil {
		t.Fatal(err)
	}
	for i := range testPages {
		base := filepath.Join(dir, filepath.FromSlash(strings.TrimSuffix(names[2*i], ".html")))
		html, _ := os.ReadFile(base + ".html")
		ann, _ := os.ReadFile(base + ".ann")
		if string(html) != testPages[i].html {
			t.Errorf("page %d: the HTML is not the page's", i)
		}
		res, err := cl.Segment(context.Background(), sluice.Input{Data: html})
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := train.ReadAnnotation(bytes.NewReader(ann))
		if err != nil {
			t.Fatal(err)
		}
		labels, err := train.ApplyAnnotation(res.Page, blocks)
		if err != nil || !slices.Equal(labels, testPages[i].labels) {
			t.Errorf("page %d: %v, %v", i, labels, err)
		}
	}
	one := ts.do(t, "GET", pathf("/v1/projects/%d/export?format=victor&page=%d", proj, ids[1]), "", nil).want(t, 200)
	if want := "[o] Menu\n[h] Lakes\n[p] The lakes are deep and still.\n[o] Share this\n"; string(one.body) != want {
		t.Errorf("page %d's annotation:\n%s\nwant:\n%s", ids[1], one.body, want)
	}
	for _, c := range []struct{ query, code string }{
		{"format=pdf", "unknown_format"},
		{"format=dataset&archive=rar", "unknown_archive"},
		{"format=dataset&page=1", "bad_query"},
		{"", "unknown_format"},
	} {
		if a := ts.do(t, "GET", pathf("/v1/projects/%d/export?%s", proj, c.query), "", nil); a.status != 400 || a.code(t) != c.code {
			t.Errorf("%s: %d %s, want 400 %s", c.query, a.status, a.body, c.code)
		}
	}
	empty, _ := ts.newProject(t, "empty")
	if a := ts.do(t, "GET", pathf("/v1/projects/%d/export?format=dataset", empty), "", nil); a.status != 409 || a.code(t) != "nothing_labelled" {
		t.Errorf("a project without labels: %d %s", a.status, a.body)
	}
}
