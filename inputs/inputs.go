// Package inputs finds and reads the inputs named on a command line: files,
// directories walked for HTML files (and, for sluice corpus, archives), and
// "-" for standard input. It holds the one list of file endings that sluice
// clean and sluice corpus take from directories.
package inputs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// HTMLEndings are the endings of the files taken from directories as HTML
// pages, plain or gzip-compressed (a file is read by its content: a .txt
// may be gzip, a .gz plain). The first five are the ones messages name.
var HTMLEndings = []string{".html", ".htm", ".xhtml", ".shtml", ".txt", ".html.gz", ".htm.gz", ".gz"}

// ArchiveEndings are the endings of WARC and ARC files, which sluice corpus
// takes as archives rather than pages.
var ArchiveEndings = []string{".warc", ".warc.gz", ".arc", ".arc.gz"}

// IsHTML reports whether name ends in one of HTMLEndings, in any case: an
// archive's .warc.gz does too (sluice clean reads it as a page; sluice
// corpus asks IsArchive first).
func IsHTML(name string) bool { return hasEnding(name, HTMLEndings) }

// MarkupEndings are the HTML endings proper, the first of HTMLEndings,
// which sluice annotate takes from directories, plain or followed by .gz
// (not .txt: in a data set folder it is a gold file).
var MarkupEndings = HTMLEndings[:4]

// IsMarkup reports whether name ends in one of MarkupEndings, in any case,
// with or without a further .gz.
func IsMarkup(name string) bool {
	return hasEnding(strings.TrimSuffix(strings.ToLower(name), ".gz"), MarkupEndings)
}

// IsArchive reports whether name ends in one of ArchiveEndings, in any
// case.
func IsArchive(name string) bool { return hasEnding(name, ArchiveEndings) }

func hasEnding(name string, endings []string) bool {
	name = strings.ToLower(name)
	for _, e := range endings {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// Walk calls fn for every entry below dir that is not a directory, in
// lexical order, except those below skip (an absolute path; "" skips
// nothing), until fn returns false, and onErr for what cannot be read.
func Walk(dir, skip string, fn func(path string, d fs.DirEntry) bool, onErr func(error)) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			onErr(err)
			return nil
		}
		if d.IsDir() {
			if skip != "" {
				if a, err := filepath.Abs(p); err == nil && a == skip {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !fn(p, d) {
			return filepath.SkipAll
		}
		return nil
	})
}

// Source is one input of sluice clean: a file named on the command line or
// found in a directory, or standard input.
type Source struct {
	Name string // as shown in messages: the path, or "-" for standard input
	Rel  string // the path relative to the directory argument it came from ("stdin" for standard input)
	Path string // the file to open; "" for standard input
}

// Expand turns command-line arguments into sources: files as given,
// directories walked for files with an HTML ending (IsHTML) and taken in
// natural order (NaturalLess), "-" for standard input. With no arguments
// it reads standard input. An argument that cannot be used is returned as
// an error, and so is a directory with no HTML files.
func Expand(args []string) ([]Source, []error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var srcs []Source
	var errs []error
	for _, a := range args {
		if a == "-" {
			srcs = append(srcs, Source{Name: "-", Rel: "stdin"})
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !st.IsDir() {
			srcs = append(srcs, Source{Name: a, Rel: filepath.Base(a), Path: a})
			continue
		}
		var found []Source
		Walk(a, "", func(p string, d fs.DirEntry) bool {
			if IsHTML(d.Name()) {
				rel, _ := filepath.Rel(a, p)
				found = append(found, Source{Name: p, Rel: rel, Path: p})
			}
			return true
		}, func(err error) { errs = append(errs, err) })
		if len(found) == 0 {
			errs = append(errs, fmt.Errorf("%s: no files ending in %s in this directory", a, strings.Join(HTMLEndings[:5], ", ")))
		}
		sort.Slice(found, func(i, j int) bool { return NaturalLess(found[i].Rel, found[j].Rel) })
		srcs = append(srcs, found...)
	}
	return srcs, errs
}

// ErrTooLarge is returned by Gunzip for data longer than its cap.
var ErrTooLarge = errors.New("too large")

// Read returns the bytes of the file at path, or of stdin when path is "",
// decompressing gzip (by content, not by name). At most max bytes are
// read, compressed or not, so that a gzip bomb or an endless stream cannot
// exhaust memory. A truncated gzip stream gives what was decompressed
// before the damage, with an error that says so.
func Read(path string, stdin io.Reader, max int64) ([]byte, error) {
	r := stdin
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d MiB", max>>20)
	}
	data, err = Gunzip(data, max)
	switch {
	case errors.Is(err, ErrTooLarge):
		return nil, fmt.Errorf("decompresses to more than %d MiB", max>>20)
	case err != nil && len(data) == 0:
		return nil, fmt.Errorf("gzip: %w", err)
	case err != nil:
		return data, fmt.Errorf("gzip: %w (kept the %d bytes before the damage)", err, len(data))
	}
	return data, nil
}

func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// Gunzip returns data decompressed when it starts like a gzip stream, and
// data itself otherwise. What is longer than max, decompressed or not,
// gives ErrTooLarge. A damaged stream gives what was decompressed before
// the damage, and the error.
func Gunzip(data []byte, max int64) ([]byte, error) {
	if isGzip(data) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		data, err = io.ReadAll(io.LimitReader(zr, max+1))
		if err != nil {
			return data, err
		}
	}
	if int64(len(data)) > max {
		return nil, ErrTooLarge
	}
	return data, nil
}

// LooksLikeArchive reports whether the file at path starts like a WARC or
// ARC file, plain or gzip-compressed (for archives with unusual names).
func LooksLikeArchive(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if isGzip(head) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return false
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			return false
		}
		inner := make([]byte, 64)
		m, _ := io.ReadFull(zr, inner)
		head = inner[:m]
	}
	head = bytes.TrimLeft(head, "\r\n")
	return bytes.HasPrefix(head, []byte("WARC/")) || bytes.HasPrefix(head, []byte("filedesc://"))
}

// ReadList reads a list of inputs, one path a line, as "sluice corpus -"
// takes it on standard input. Blank lines and lines starting with # are
// left out.
func ReadList(r io.Reader) ([]string, error) {
	var paths []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		paths = append(paths, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the input list: %w", err)
	}
	return paths, nil
}

// NaturalLess orders names with numbers by their value: 2.html before
// 10.html.
func NaturalLess(a, b string) bool {
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
