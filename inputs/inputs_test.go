package inputs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Directories give their HTML files in natural order; files and "-" are
// taken as given; what cannot be used is an error.
func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"10.html", "2.htm", "sub/1.html.gz", "notes.md", "a.TXT"} {
		write(t, filepath.Join(dir, "pages", name), []byte("<p>x</p>"))
	}
	write(t, filepath.Join(dir, "empty", "readme.md"), nil)
	one := filepath.Join(dir, "one.page")
	write(t, one, nil)
	srcs, errs := Expand([]string{filepath.Join(dir, "pages"), one, "-", filepath.Join(dir, "missing"), filepath.Join(dir, "empty")})
	var rels []string
	for _, s := range srcs {
		rels = append(rels, s.Rel)
	}
	want := []string{"2.htm", "10.html", "a.TXT", filepath.Join("sub", "1.html.gz"), "one.page", "stdin"}
	if !slices.Equal(rels, want) {
		t.Errorf("sources %q, want %q", rels, want)
	}
	if srcs[5].Name != "-" || srcs[5].Path != "" {
		t.Errorf("stdin source %+v", srcs[5])
	}
	if len(errs) != 2 || !errors.Is(errs[0], fs.ErrNotExist) || !strings.Contains(errs[1].Error(), "no files ending in .html, .htm, .xhtml, .shtml, .txt in this directory") {
		t.Errorf("errors %v", errs)
	}
	if srcs, _ := Expand(nil); len(srcs) != 1 || srcs[0].Name != "-" {
		t.Errorf("no arguments: %+v, want stdin", srcs)
	}
}

// Read decompresses by content, keeps what a cut stream held, and refuses
// what is larger than its cap.
func TestRead(t *testing.T) {
	page := bytes.Repeat([]byte("<p>the mill wheel turns</p>\n"), 200)
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	if _, err := zw.Write(page); err != nil || zw.Close() != nil {
		t.Fatal("gzip")
	}
	z := zb.Bytes()
	got, err := Read("", bytes.NewReader(z), 1<<20)
	if err != nil || !bytes.Equal(got, page) {
		t.Errorf("gzip: %d bytes, %v", len(got), err)
	}
	got, err = Read("", bytes.NewReader(z[:len(z)*2/3]), 1<<20)
	if err == nil || !strings.Contains(err.Error(), "kept the") || len(got) == 0 || !bytes.HasPrefix(page, got) {
		t.Errorf("cut gzip: %d bytes, %v", len(got), err)
	}
	if _, err := Read("", bytes.NewReader(page), 100); err == nil || err.Error() != "larger than 0 MiB" {
		t.Errorf("too large: %v", err)
	}
	if _, err := Read("", bytes.NewReader(z), int64(len(z))); err == nil || !strings.HasPrefix(err.Error(), "decompresses to more than") {
		t.Errorf("bomb: %v", err)
	}
	if _, err := Gunzip(page, 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Gunzip of plain data over the cap: %v", err)
	}
}

// A file is read whole and in one buffer from its length; a wrong length
// (a file that grew or shrank after its Stat) still reads all of it, and a
// file over the cap is refused.
func TestReadSized(t *testing.T) {
	page := bytes.Repeat([]byte("<p>the mill wheel turns</p>\n"), 3000)
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path, nil, 1<<20)
	if err != nil || !bytes.Equal(got, page) {
		t.Fatalf("file: %d bytes, %v", len(got), err)
	}
	if allocs := testing.AllocsPerRun(10, func() { Read(path, nil, 1<<20) }); allocs > 6 {
		t.Errorf("reading a %d-byte file: %v allocations, want the buffer made once", len(page), allocs)
	}
	for _, size := range []int64{1, int64(len(page)) / 2, int64(len(page)) * 2} {
		got, err := readAll(bytes.NewReader(page), size, 1<<20, nil)
		if err != nil || !bytes.Equal(got, page) {
			t.Errorf("size %d for %d bytes: %d read, %v", size, len(page), len(got), err)
		}
	}
	if _, err := Read(path, nil, int64(len(page))-1); err == nil || !strings.HasPrefix(err.Error(), "larger than") {
		t.Errorf("over the cap: %v", err)
	}
	// ReadInto reads into the buffer it is given when it has the room,
	// whatever the buffer held before.
	buf := bytes.Repeat([]byte("x"), len(page)+bytes.MinRead)
	got, err = ReadInto(buf, path, nil, 1<<20)
	if err != nil || !bytes.Equal(got, page) || &got[0] != &buf[0] {
		t.Errorf("into a buffer of %d bytes: %d read, %v, in the buffer %v", len(buf), len(got), err, len(got) > 0 && &got[0] == &buf[0])
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 10 {
		ReadInto(buf, path, nil, 1<<20)
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > uint64(len(page)) {
		t.Errorf("reading a %d-byte file 10 times into a buffer with room allocated %d bytes, want no room for the bytes", len(page), n)
	}
	if got, err = ReadInto(make([]byte, 10), path, nil, 1<<20); err != nil || !bytes.Equal(got, page) {
		t.Errorf("into a small buffer: %d read, %v", len(got), err)
	}
}

// Walk leaves out the directory to skip and stops when told.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.warc.gz", "b/c.html", "out/part-00001.jsonl", "z.html"} {
		write(t, filepath.Join(dir, name), nil)
	}
	var got []string
	Walk(dir, filepath.Join(dir, "out"), func(p string, d fs.DirEntry) bool {
		rel, _ := filepath.Rel(dir, p)
		got = append(got, rel)
		return rel != filepath.Join("b", "c.html")
	}, func(err error) { t.Error(err) })
	if want := []string{"a.warc.gz", filepath.Join("b", "c.html")}; !slices.Equal(got, want) {
		t.Errorf("walked %q, want %q", got, want)
	}
	if !IsArchive("X.WARC.GZ") || IsArchive("x.html.gz") || !IsHTML("x.warc.gz") || IsHTML("x.md") {
		t.Error("IsArchive or IsHTML wrong")
	}
}

func TestNaturalLess(t *testing.T) {
	names := []string{"10.html", "9.html", "a10", "a9", "b"}
	slices.SortFunc(names, func(a, b string) int {
		if NaturalLess(a, b) {
			return -1
		}
		if NaturalLess(b, a) {
			return 1
		}
		return 0
	})
	if want := []string{"9.html", "10.html", "a9", "a10", "b"}; !slices.Equal(names, want) {
		t.Errorf("sorted %q, want %q", names, want)
	}
}

func TestIsMarkup(t *testing.T) {
	for name, want := range map[string]bool{
		"a.html": true, "a.HTM": true, "a.xhtml.gz": true, "a.shtml": true,
		"a.txt": false, "a.gz": false, "a.warc.gz": false, "html": false,
	} {
		if got := IsMarkup(name); got != want {
			t.Errorf("IsMarkup(%q) = %v, want %v", name, got, want)
		}
	}
}

// symlink makes a symbolic link, or skips the test where there are none.
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
}

// A Walker takes links to files inside the directory as those files, and
// reports, never follows, links out of it, to directories, to nothing and
// into the directory left out; the directory itself may be a link.
func TestWalkerLinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	in := filepath.Join(dir, "in")
	for _, name := range []string{"a.html", "sub/b.html", "out/x.html"} {
		write(t, filepath.Join(in, name), []byte("<p>x</p>"))
	}
	write(t, filepath.Join(outside, "secret.html"), []byte("<p>secret</p>"))
	symlink(t, filepath.Join(outside, "secret.html"), filepath.Join(in, "leak.html"))
	symlink(t, "sub/b.html", filepath.Join(in, "same.html"))
	symlink(t, "sub", filepath.Join(in, "subdir.html"))
	symlink(t, "missing.html", filepath.Join(in, "broken.html"))
	symlink(t, "out/x.html", filepath.Join(in, "fromout.html"))
	symlink(t, in, filepath.Join(dir, "link"))

	for _, root := range []string{in, filepath.Join(dir, "link")} {
		var got []string
		skipped := map[string]string{}
		w := Walker{Exclude: filepath.Join(in, "out"), OnSkip: func(p, reason string) {
			skipped[filepath.Base(p)] = reason
		}, OnError: func(err error) { t.Error(err) }}
		w.Walk(root, func(p string, d fs.DirEntry) bool {
			if !d.Type().IsRegular() {
				t.Errorf("%s: given as %v, want a regular file", p, d.Type())
			}
			rel, _ := filepath.Rel(root, p)
			got = append(got, rel)
			return true
		})
		if want := []string{"a.html", "same.html", filepath.Join("sub", "b.html")}; !slices.Equal(got, want) {
			t.Errorf("%s: walked %q, want %q", root, got, want)
		}
		wantSkipped := map[string]string{"leak.html": SkipLinkOutside, "subdir.html": SkipLinkDir,
			"broken.html": SkipLinkBroken, "fromout.html": SkipLinkOutput}
		if !maps.Equal(skipped, wantSkipped) {
			t.Errorf("%s: skipped %q, want %q", root, skipped, wantSkipped)
		}
	}
}

// A directory given by a link is expanded like the directory; an HTML
// file left out is told to OnSkip.
func TestExpandLinkedDir(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, "pages", "a.html"), []byte("<p>x</p>"))
	write(t, filepath.Join(outside, "b.html"), []byte("<p>x</p>"))
	symlink(t, filepath.Join(outside, "b.html"), filepath.Join(dir, "pages", "b.html"))
	symlink(t, filepath.Join(dir, "pages"), filepath.Join(dir, "link"))
	var skipped []string
	srcs, errs := Walker{OnSkip: func(p, reason string) { skipped = append(skipped, p+": "+reason) }}.Expand([]string{filepath.Join(dir, "link")})
	if len(errs) > 0 || len(srcs) != 1 || srcs[0].Rel != "a.html" || srcs[0].Path != filepath.Join(dir, "link", "a.html") {
		t.Errorf("sources %+v, errors %v", srcs, errs)
	}
	if want := []string{filepath.Join(dir, "link", "b.html") + ": " + SkipLinkOutside}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %q, want %q", skipped, want)
	}
}
