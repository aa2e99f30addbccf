package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// source is one input named on the command line, or found in a directory.
type source struct {
	name string // as shown in messages: the path, or "-" for stdin
	rel  string // path relative to the directory argument it came from
	path string // file to open; "" for stdin
}

// htmlExt lists the file endings taken from directories.
var htmlExt = []string{".html", ".htm", ".xhtml", ".shtml", ".txt", ".html.gz", ".htm.gz", ".gz"}

// expand turns the command-line arguments into sources: files as given,
// directories walked for files with an HTML-like ending, "-" for stdin. With
// no arguments it reads stdin.
func expand(args []string) ([]source, []error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var srcs []source
	var errs []error
	for _, a := range args {
		if a == "-" {
			srcs = append(srcs, source{name: "-", rel: "stdin"})
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			srcs = append(srcs, source{name: a, rel: filepath.Base(a), path: a})
			continue
		}
		var found []source
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, err)
				return nil
			}
			if d.IsDir() || !hasHTMLExt(d.Name()) {
				return nil
			}
			rel, _ := filepath.Rel(a, p)
			found = append(found, source{name: p, rel: rel, path: p})
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
		if len(found) == 0 {
			errs = append(errs, fmt.Errorf("%s: no files ending in %s in this directory", a, strings.Join(htmlExt[:5], ", ")))
		}
		sort.Slice(found, func(i, j int) bool { return naturalLess(found[i].rel, found[j].rel) })
		srcs = append(srcs, found...)
	}
	return srcs, errs
}

func hasHTMLExt(name string) bool {
	name = strings.ToLower(name)
	for _, e := range htmlExt {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// maxRead caps what is read of one input, compressed or not, so that a
// gzip bomb or an endless stream cannot exhaust memory.
const maxRead = 256 << 20

// read returns the bytes of a source, decompressing gzip (by content, not
// by name).
func read(s source, stdin io.Reader) ([]byte, error) {
	r := stdin
	if s.path != "" {
		f, err := os.Open(s.path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxRead+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxRead {
		return nil, fmt.Errorf("larger than %d MiB", maxRead>>20)
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		out, err := io.ReadAll(io.LimitReader(zr, maxRead+1))
		if err != nil {
			if len(out) == 0 {
				return nil, fmt.Errorf("gzip: %w", err)
			}
			// A truncated archive: keep what was decompressed.
			return out, fmt.Errorf("gzip: %w (kept the %d bytes before the damage)", err, len(out))
		}
		if len(out) > maxRead {
			return nil, fmt.Errorf("decompresses to more than %d MiB", maxRead>>20)
		}
		data = out
	}
	return data, nil
}

// naturalLess orders names with numbers by their value: 2.html before
// 10.html.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
