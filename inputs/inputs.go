// Package inputs finds and reads the inputs named on a command line: files,
// directories walked for HTML files (and, for sluice corpus, archives), and
// "-" for standard input. It holds the one list of file endings that sluice
// clean and sluice corpus take from directories.
package inputs

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/gzip"
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

// Walk calls fn for every regular file below dir, as Walker.Walk does,
// except below skip (a directory; "" skips nothing), until fn returns
// false, and onErr for what cannot be read. The entries a Walker reports
// as skipped are left out without a word: use a Walker to hear of them.
func Walk(dir, skip string, fn func(path string, d fs.DirEntry) bool, onErr func(error)) {
	Walker{Exclude: skip, OnError: onErr}.Walk(dir, fn)
}

// A Walker walks the directories named as inputs, the same way for every
// command. It takes the regular files below the directory, and a symbolic
// link to a regular file when the file is inside the directory too. It
// never follows a link out of the directory, nor a link to a directory
// (which could lead in a circle), and leaves out special files (devices,
// pipes, sockets): those it reports to OnSkip. The directory itself may be
// given by a symbolic link.
type Walker struct {
	// Exclude is a directory never entered, nor read through a link (the
	// output directory, when it lies inside an input directory). It is
	// compared by identity, not by name, so another path to it (a link,
	// "..") is excluded too. "" excludes nothing.
	Exclude string
	// OnSkip is told of each entry left out that is not a directory: its
	// path and why. nil leaves them out without a word.
	OnSkip func(path, reason string)
	// OnError is told of what cannot be read. nil ignores it.
	OnError func(error)
	// URLs makes Expand take an http:// or https:// argument as a page to
	// fetch (Source.URL) instead of a file name.
	URLs bool
}

// Reasons given to Walker.OnSkip.
const (
	SkipLinkOutside = "a symbolic link leading out of the directory"
	SkipLinkDir     = "a symbolic link to a directory (not followed)"
	SkipLinkBroken  = "a symbolic link to nothing"
	SkipLinkOutput  = "a symbolic link into the output directory"
	SkipSpecial     = "not a regular file"
)

// Walk calls fn for every file below dir that the Walker takes (see
// Walker), in lexical order, until fn returns false. For a link, path is
// the link's and d describes the file it leads to, under the link's name.
func (w Walker) Walk(dir string, fn func(path string, d fs.DirEntry) bool) {
	onErr := w.OnError
	if onErr == nil {
		onErr = func(error) {}
	}
	onSkip := w.OnSkip
	if onSkip == nil {
		onSkip = func(string, string) {}
	}
	t := newTree(dir, w.Exclude)
	start := dir
	if st, err := os.Lstat(dir); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		start = dir + string(filepath.Separator) // WalkDir follows a link only with a trailing separator
	}
	filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			onErr(err)
			return nil
		}
		switch {
		case d.IsDir():
			if t.excluded(p) {
				return filepath.SkipDir
			}
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			st, reason := t.follow(p)
			if reason != "" {
				onSkip(p, reason)
				return nil
			}
			d = fs.FileInfoToDirEntry(st)
		case !d.Type().IsRegular():
			onSkip(p, SkipSpecial)
			return nil
		}
		if !fn(p, d) {
			return filepath.SkipAll
		}
		return nil
	})
}

// tree is what a Walker knows of the directory it walks: where it really
// is, and the directory to leave out.
type tree struct {
	real        string      // the directory walked, links resolved; "" if unknown
	exclude     fs.FileInfo // nil: nothing excluded
	realExclude string
}

func newTree(dir, exclude string) *tree {
	t := &tree{}
	t.real, _ = RealPath(dir)
	if exclude != "" {
		if st, err := os.Stat(exclude); err == nil && st.IsDir() {
			t.exclude = st
			t.realExclude, _ = RealPath(exclude)
		}
	}
	return t
}

// excluded reports whether the directory at p is the one to leave out.
func (t *tree) excluded(p string) bool {
	if t.exclude == nil {
		return false
	}
	st, err := os.Stat(p)
	return err == nil && os.SameFile(st, t.exclude)
}

// follow resolves the link at p: the file it leads to, or why it is left
// out.
func (t *tree) follow(p string) (fs.FileInfo, string) {
	target, err := RealPath(p)
	if err != nil {
		return nil, SkipLinkBroken
	}
	if t.real == "" || !Within(target, t.real) {
		return nil, SkipLinkOutside
	}
	if t.realExclude != "" && Within(target, t.realExclude) {
		return nil, SkipLinkOutput
	}
	st, err := os.Stat(p)
	switch {
	case err != nil:
		return nil, SkipLinkBroken
	case st.IsDir():
		return nil, SkipLinkDir
	case !st.Mode().IsRegular():
		return nil, SkipSpecial
	}
	return st, ""
}

// RealPath is the absolute path of p with every link resolved.
func RealPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(r)
}

// EntryPath is the real path of the directory entry at path: its
// directory's links resolved, not its own.
func EntryPath(path string) (string, error) {
	dir, err := RealPath(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(path)), nil
}

// Within reports whether path is dir or below it (both clean and
// absolute).
func Within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Source is one input of sluice clean: a file named on the command line or
// found in a directory, or standard input.
type Source struct {
	Name string // as shown in messages: the path, or "-" for standard input
	Rel  string // the path relative to the directory argument it came from ("stdin" for standard input)
	Path string // the file to open; "" for standard input and addresses
	URL  string // the http(s) address to fetch (Walker.URLs); "" for files
}

// Expand turns command-line arguments into sources with a Walker that
// leaves out what it skips without a word: see Walker.Expand.
func Expand(args []string) ([]Source, []error) { return Walker{}.Expand(args) }

// Expand turns command-line arguments into sources: files as given,
// directories (or links to them) walked with w for files with an HTML
// ending (IsHTML) and taken in natural order (NaturalLess), "-" for
// standard input. With no arguments it reads standard input. An argument
// that cannot be used is returned as an error, and so is a directory with
// no HTML files and what cannot be read below it (w.OnError is not used).
// Entries w skips are told to w.OnSkip when they have an HTML ending.
func (w Walker) Expand(args []string) ([]Source, []error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var srcs []Source
	var errs []error
	w.OnError = func(err error) { errs = append(errs, err) }
	if onSkip := w.OnSkip; onSkip != nil {
		w.OnSkip = func(p, reason string) {
			if IsHTML(p) {
				onSkip(p, reason)
			}
		}
	}
	for _, a := range args {
		if a == "-" {
			srcs = append(srcs, Source{Name: "-", Rel: "stdin"})
			continue
		}
		if w.URLs && IsURL(a) {
			srcs = append(srcs, Source{Name: a, Rel: URLRel(a), URL: a})
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
		w.Walk(a, func(p string, d fs.DirEntry) bool {
			if IsHTML(d.Name()) {
				rel, _ := filepath.Rel(a, p)
				found = append(found, Source{Name: p, Rel: rel, Path: p})
			}
			return true
		})
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
	return ReadInto(nil, path, stdin, max)
}

// ReadInto is Read into buf's memory, when it holds the file: a caller
// reading many files reuses one buffer for all of them. Plain regular
// files are read into buf; stdin, other files and decompressed data may
// take new memory, which the caller may then keep for the next call.
func ReadInto(buf []byte, path string, stdin io.Reader, max int64) ([]byte, error) {
	r, size := stdin, int64(0)
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	data, err := readAll(r, size, max, buf)
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
		var out bytes.Buffer
		out.Grow(gunzippedSize(data, max))
		_, err = out.ReadFrom(io.LimitReader(zr, max+1))
		data = out.Bytes()
		if err != nil {
			return data, err
		}
	}
	if int64(len(data)) > max {
		return nil, ErrTooLarge
	}
	return data, nil
}

// readAll reads r to its end or to max+1 bytes, whichever comes first, into
// one buffer made room for size bytes (a regular file's length) and the
// read that finds the end, so that a file is read without the copies of a
// buffer grown as it fills. A size of 0, or a wrong one (a file that grew),
// still reads everything, growing the buffer as io.ReadAll does.
func readAll(r io.Reader, size, max int64, buf []byte) ([]byte, error) {
	if size <= 0 || size > max {
		return io.ReadAll(io.LimitReader(r, max+1))
	}
	b := bytes.NewBuffer(buf[:0])
	b.Grow(int(size) + bytes.MinRead)
	_, err := b.ReadFrom(io.LimitReader(r, max+1))
	return b.Bytes(), err
}

// gunzippedSize is the room to make for gzip data decompressed: the size
// its trailer records (of the last member, modulo 2^32), bounded by
// limit+1 and by deflate's largest ratio (1032 to 1), so that a forged
// trailer asks for no more than the data could give; at least 512 bytes.
func gunzippedSize(data []byte, limit int64) int {
	n := int64(512)
	if len(data) >= 18 {
		n = max(n, int64(binary.LittleEndian.Uint32(data[len(data)-4:]))+1)
	}
	return int(min(n, limit+1, 1032*int64(len(data))+512))
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
