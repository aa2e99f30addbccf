package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Kinds of input.
const (
	kindArchive = "archive" // a WARC or ARC file: one record per archive record
	kindHTML    = "html"    // an HTML file named as an input: one record
	kindDir     = "dir"     // the HTML files below a directory: one record each
)

// input is one unit of work and of resumption: an archive, a single HTML
// file, or the HTML files of a directory (archives found below a directory
// are inputs of their own).
type input struct {
	path    string // as given or found
	abs     string // identity in the manifest
	kind    string
	size    int64     // bytes (a directory: of its HTML files)
	modTime time.Time // a directory: of its newest HTML file
	files   int       // a directory: its HTML files

	counts Counts // filled by the writer
}

// archiveExt are the names of archives; anything else found in a directory
// is taken as HTML if its name ends in one of htmlExt.
var (
	archiveExt = []string{".warc", ".warc.gz", ".arc", ".arc.gz"}
	htmlExt    = []string{".html", ".htm", ".xhtml", ".shtml", ".txt", ".html.gz", ".htm.gz", ".gz"}
)

func hasExt(name string, exts []string) bool {
	name = strings.ToLower(name)
	for _, e := range exts {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
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

// discover turns paths into inputs, in the order given (a directory's
// archives in lexical order, then its HTML files as one input). outAbs, the
// output directory, is never walked. Paths that cannot be used are
// returned as errors; a path given twice is used once.
func discover(paths []string, outAbs string) ([]*input, []InputError) {
	var ins []*input
	var errs []InputError
	seen := map[string]bool{}
	add := func(in *input) {
		if !seen[in.abs] {
			seen[in.abs] = true
			ins = append(ins, in)
		}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			errs = append(errs, InputError{p, err.Error()})
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, InputError{p, err.Error()})
			continue
		}
		if !st.IsDir() {
			kind := kindHTML
			if hasExt(p, archiveExt) || looksLikeArchive(p) {
				kind = kindArchive
			}
			add(&input{path: p, abs: abs, kind: kind, size: st.Size(), modTime: st.ModTime()})
			continue
		}
		dir := &input{path: p, abs: abs, kind: kindDir}
		var werrs []string
		walkDir(p, outAbs, func(path string, d fs.DirEntry) bool {
			info, err := d.Info()
			if err != nil {
				werrs = append(werrs, err.Error())
				return true
			}
			if hasExt(d.Name(), archiveExt) {
				a, _ := filepath.Abs(path)
				add(&input{path: path, abs: a, kind: kindArchive, size: info.Size(), modTime: info.ModTime()})
				return true
			}
			if hasExt(d.Name(), htmlExt) {
				dir.files++
				dir.size += info.Size()
				if info.ModTime().After(dir.modTime) {
					dir.modTime = info.ModTime()
				}
			}
			return true
		}, func(err error) { werrs = append(werrs, err.Error()) })
		for _, e := range werrs {
			errs = append(errs, InputError{p, e})
		}
		if dir.files > 0 {
			add(dir)
		} else if len(werrs) == 0 && !hasArchiveBelow(ins, abs) {
			errs = append(errs, InputError{p, "no archives (" + strings.Join(archiveExt, ", ") + ") or HTML files (" + strings.Join(htmlExt[:5], ", ") + ") in this directory"})
		}
	}
	return ins, errs
}

func hasArchiveBelow(ins []*input, dir string) bool {
	for _, in := range ins {
		if in.kind == kindArchive && strings.HasPrefix(in.abs, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// walkDir calls fn for every regular file below dir in lexical order,
// except those below outAbs, until fn returns false, and onErr for what
// cannot be read.
func walkDir(dir, outAbs string, fn func(path string, d fs.DirEntry) bool, onErr func(error)) {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			onErr(err)
			return nil
		}
		if d.IsDir() {
			if outAbs != "" {
				if a, err := filepath.Abs(p); err == nil && a == outAbs {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if d.Type().IsRegular() && !fn(p, d) {
			return filepath.SkipAll
		}
		return nil
	})
}

// looksLikeArchive reports whether the file at path starts like a WARC or
// ARC file, plain or gzip-compressed (for archives with unusual names).
func looksLikeArchive(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
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
