// Package outdir plans and writes the outputs of a batch run into one output
// directory, checked before anything is written.
package outdir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/internal/atomicfile"
)

// Dir is the output directory of sluice clean -o: where each input's
// output goes, checked before anything is written, and the writing.
type Dir struct {
	path  string
	names []string // by source: the output's path inside the directory
	root  *os.Root
}

// Check refuses an output directory that is one of the input
// directories or holds one: its outputs would be read as inputs by the
// next run. (One inside an input directory is left out of the walk.)
func Check(out string, args []string) error {
	outReal, err := inputs.RealPath(out)
	if err != nil {
		return nil // not there yet: nothing of it can be an input
	}
	for _, a := range args {
		if a == "-" {
			continue
		}
		if st, err := os.Stat(a); err != nil || !st.IsDir() {
			continue
		}
		aReal, err := inputs.RealPath(a)
		if err == nil && inputs.Within(aReal, outReal) {
			return fmt.Errorf("-o %s: the input directory %s is in it, so the outputs would be read as inputs the next time; choose an output directory outside the inputs (one inside an input directory is fine: it is not read)", out, a)
		}
	}
	return nil
}

// Plan names the output of each source: its path below its
// directory argument (its name, for a file argument), the input's endings
// replaced by ext. It refuses, before anything is written, two inputs
// given the same output and an output that would replace an input.
func Plan(out string, srcs []inputs.Source, ext string) (*Dir, []error) {
	d := &Dir{path: out, names: make([]string, len(srcs))}
	by := map[string]int{}
	var errs []error
	for i, s := range srcs {
		name := Name(s.Rel, ext)
		d.names[i] = name
		if j, ok := by[name]; ok {
			errs = append(errs, fmt.Errorf("%s and %s would both be written to %s; rename one, or clean them into separate directories", srcs[j].Name, s.Name, filepath.Join(out, name)))
			continue
		}
		by[name] = i
	}
	return d, append(errs, d.checkInputs(srcs)...)
}

// checkInputs refuses outputs that would replace an input (the file, or
// the link that names it). Only outputs that exist already can, so the
// inputs' real paths are looked up only when there are some: a new
// directory costs a Stat an output.
func (d *Dir) checkInputs(srcs []inputs.Source) []error {
	var existing []string
	for _, name := range d.names {
		path := filepath.Join(d.path, name)
		if _, err := os.Lstat(path); err == nil {
			existing = append(existing, path)
		}
	}
	if len(existing) == 0 {
		return nil
	}
	taken := map[string]string{} // real paths of the inputs' entries and files: their names
	for _, s := range srcs {
		if s.Path == "" {
			continue
		}
		if p, err := inputs.EntryPath(s.Path); err == nil {
			taken[p] = s.Name
		}
		if p, err := filepath.EvalSymlinks(s.Path); err == nil {
			if p, err = filepath.Abs(p); err == nil {
				taken[p] = s.Name
			}
		}
	}
	var errs []error
	for _, path := range existing {
		p, err := inputs.EntryPath(path)
		if input, ok := taken[p]; err == nil && ok {
			errs = append(errs, fmt.Errorf("the output %s would replace the input %s; choose another output directory", path, input))
		}
	}
	return errs
}

// Open creates the directory and opens it for writing.
func (d *Dir) Open() error {
	if err := os.MkdirAll(d.path, 0o755); err != nil {
		return err
	}
	var err error
	d.root, err = os.OpenRoot(d.path)
	return err
}

func (d *Dir) Close() {
	if d != nil && d.root != nil {
		d.root.Close()
	}
}

// Write writes the output of source i, whole or not at all (a temporary
// file renamed; durable after Sync), inside the directory: a link at its name is replaced,
// never written through, and no link leads it out of the directory.
func (d *Dir) Write(i int, fn func(io.Writer) error) error {
	name := d.names[i]
	if dir := filepath.Dir(name); dir != "." {
		if err := d.root.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("%s: %w (outputs are written only inside %s, never through a link out of it)", filepath.Join(d.path, dir), err, d.path)
		}
	}
	err := atomicfile.WriteDeferred(d.root, name, 0o644, fn)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(d.path, name), err)
	}
	return nil
}

// Sync makes the outputs written so far durable, with one sync of the
// directory's file system instead of two a file (see
// atomicfile.WriteDeferred); a run calls it once, after its last Write.
func (d *Dir) Sync() error {
	if d == nil || d.root == nil {
		return nil
	}
	if err := atomicfile.SyncFS(d.root); err != nil {
		return fmt.Errorf("%s: syncing the outputs to disk: %w", d.path, err)
	}
	return nil
}

// Name replaces the input's endings (.html, .html.gz) by ext.
func Name(rel, ext string) string {
	base := rel
	for _, e := range []string{".gz", ".html", ".htm", ".xhtml", ".shtml", ".txt"} {
		base = strings.TrimSuffix(base, e)
	}
	return base + ext
}
