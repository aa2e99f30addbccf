package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sluice-project/sluice/inputs"
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
	ord     uint64    // its place among the inputs found (item.seq)

	counts Counts // filled by the writer
}

// discover turns paths into inputs, in the order given (a directory's
// archives in lexical order, then its HTML files as one input). outAbs, the
// output directory, is never walked. Paths that cannot be used are
// returned as errors; a path given twice is used once. The archives and
// HTML files left out below a directory (links out of it or to
// directories, special files: see inputs.Walker) are told to skipped, with
// the reason.
func discover(paths []string, outAbs string, skipped func(path, reason string)) ([]*input, []InputError) {
	var ins []*input
	var errs []InputError
	seen := map[string]bool{}
	add := func(in *input) {
		if !seen[in.abs] {
			seen[in.abs] = true
			in.ord = uint64(len(ins))
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
			if inputs.IsArchive(p) || inputs.LooksLikeArchive(p) {
				kind = kindArchive
			}
			add(&input{path: p, abs: abs, kind: kind, size: st.Size(), modTime: st.ModTime()})
			continue
		}
		dir := &input{path: p, abs: abs, kind: kindDir}
		var werrs []string
		w := inputs.Walker{Exclude: outAbs, OnError: func(err error) { werrs = append(werrs, err.Error()) },
			OnSkip: func(path, reason string) {
				if inputs.IsHTML(path) || inputs.IsArchive(path) {
					skipped(path, reason)
				}
			}}
		w.Walk(p, func(path string, d fs.DirEntry) bool {
			info, err := d.Info()
			if err != nil {
				werrs = append(werrs, err.Error())
				return true
			}
			if inputs.IsArchive(d.Name()) {
				a, _ := filepath.Abs(path)
				add(&input{path: path, abs: a, kind: kindArchive, size: info.Size(), modTime: info.ModTime()})
				return true
			}
			if inputs.IsHTML(d.Name()) {
				dir.files++
				dir.size += info.Size()
				if info.ModTime().After(dir.modTime) {
					dir.modTime = info.ModTime()
				}
			}
			return true
		})
		for _, e := range werrs {
			errs = append(errs, InputError{p, e})
		}
		if dir.files > 0 {
			add(dir)
		} else if len(werrs) == 0 && !hasArchiveBelow(ins, abs) {
			errs = append(errs, InputError{p, "no archives (" + strings.Join(inputs.ArchiveEndings, ", ") + ") or HTML files (" + strings.Join(inputs.HTMLEndings[:5], ", ") + ") in this directory"})
		}
	}
	return ins, errs
}

// plan finds the inputs at paths (see discover) and returns those to read
// and their size, and those to learn from with Options.SiteWhole: the
// inputs to read and those an earlier run finished. The others go to sum: inputs an earlier run finished
// (AlreadyDone), or changed since (InputErrors), paths that cannot be used
// (InputErrors), and the files left out below directories (SkippedFiles,
// limit listed at most), which are also told to notice.
func plan(paths []string, outAbs string, m *manifest, sum *Summary, limit int, notice func(string)) (todo, learn []*input, total int64) {
	ins, ierrs := discover(paths, outAbs, func(path, reason string) {
		notice(path + ": skipped: " + reason)
		sum.skipFile(path, reason, limit)
	})
	sum.InputErrors = append(sum.InputErrors, ierrs...)
	for _, in := range ins {
		if e := m.find(in.abs); e != nil {
			if e.Size == in.size && e.ModTime.Equal(in.modTime) && e.Files == in.files && e.Kind == in.kind {
				sum.AlreadyDone = append(sum.AlreadyDone, in.path)
				learn = append(learn, in)
				notice(fmt.Sprintf("%s: finished by run %d, skipped", in.path, e.Run))
			} else {
				sum.InputErrors = append(sum.InputErrors, InputError{in.path, fmt.Sprintf(
					"changed since run %d finished it (size or modification time): not read again, its output from then is in the parts; use --force to rebuild the output", e.Run)})
			}
			continue
		}
		todo, learn = append(todo, in), append(learn, in)
		total += in.size
	}
	return todo, learn, total
}

func hasArchiveBelow(ins []*input, dir string) bool {
	for _, in := range ins {
		if in.kind == kindArchive && strings.HasPrefix(in.abs, dir+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
