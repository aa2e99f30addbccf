package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sluice-project/sluice/internal/atomicfile"
)

// Names of the files Run keeps in the output directory besides the parts.
const (
	manifestName = "manifest.json"
	summaryName  = "summary.json"
	corpusName   = "corpus.txt" // the cleaneval format's single part
)

// partName matches the parts of the jsonl and warc formats; the number
// goes on across runs.
var partName = regexp.MustCompile(`^part-([0-9]{5,})\.(jsonl|jsonl\.gz|jsonl\.zst|warc\.gz)$`)

// isOutputFile reports whether name is a file Run writes in an output
// directory (and may therefore cut or remove).
func isOutputFile(name string) bool {
	return partName.MatchString(name) || name == corpusName || isTempFile(name)
}

// isTempFile reports whether name is a temporary file left by a run that
// was stopped while writing the manifest or the summary (manifest.json.tmp
// is the name of older versions).
func isTempFile(name string) bool {
	if name == manifestName+".tmp" {
		return true
	}
	return atomicfile.IsTemp(name) && (strings.HasPrefix(name, "."+manifestName) || strings.HasPrefix(name, "."+summaryName))
}

// manifestVersion is the version of the manifest's layout.
const manifestVersion = 1

// manifest is manifest.json: what the output directory holds. It is
// written when a run starts, at input boundaries while it runs (at most
// about once a second) and when it ends; between two writes the parts grow
// past their recorded lengths, and a later run cuts them back.
type manifest struct {
	Version int    `json:"version"`
	Format  string `json:"format"`
	// Cleaner is what decided content (sluice.Cleaner.Filter): the output
	// of two cleaners is not mixed in one directory.
	Cleaner string `json:"cleaner"`
	// Site says that the pages were corrected with the site models of
	// their hosts (Options.Site): the output of runs with and without is
	// not mixed either.
	Site bool `json:"site,omitempty"`
	// SiteMode is "whole" when the site models were learned from the
	// whole input first (Options.SiteWhole); runs of the two modes are not
	// mixed.
	SiteMode string `json:"site_mode,omitempty"`
	// Runs counts the runs on the directory, this one included.
	Runs int `json:"runs"`
	// Parts are the output files with their committed lengths: every byte
	// up to Bytes belongs to a finished input.
	Parts []*partEntry `json:"parts"`
	// Inputs are the finished inputs.
	Inputs []*inputEntry `json:"inputs"`

	byPath map[string]*inputEntry
}

type partEntry struct {
	Name    string `json:"name"`
	Bytes   int64  `json:"bytes"`
	Records int64  `json:"records"` // cleaned pages in it
	Run     int    `json:"run"`     // the run that created it
}

// inputEntry is a finished input. Status is "done" (read to its end) or
// "incomplete" (reading stopped at an error after some records: what was
// read is in the output, and the input is not read again).
type inputEntry struct {
	Path    string    `json:"path"` // absolute
	Kind    string    `json:"kind"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	Files   int       `json:"files,omitempty"`
	Run     int       `json:"run"`
	Status  string    `json:"status"`
	Error   string    `json:"error,omitempty"`
	Counts
}

func (m *manifest) find(abs string) *inputEntry {
	if m.byPath == nil {
		m.byPath = map[string]*inputEntry{}
		for _, e := range m.Inputs {
			m.byPath[e.Path] = e
		}
	}
	return m.byPath[abs]
}

func (m *manifest) addInput(e *inputEntry) {
	m.find(e.Path)
	m.Inputs = append(m.Inputs, e)
	m.byPath[e.Path] = e
}

// nextPart returns the number of the next part.
func (m *manifest) nextPart() int {
	n := 0
	for _, p := range m.Parts {
		if sm := partName.FindStringSubmatch(p.Name); sm != nil {
			k, _ := strconv.Atoi(sm[1])
			n = max(n, k)
		}
	}
	return n + 1
}

// check reports an error unless the manifest read from dir is of this
// version, and of the format, cleaner and site option of this run.
func (m *manifest) check(dir, format, cleaner string, site bool, mode string) error {
	mpath := filepath.Join(dir, manifestName)
	if m.Version != manifestVersion {
		return fmt.Errorf("%s: version %d, this sluice writes version %d; use --force to start the output over, or another directory", mpath, m.Version, manifestVersion)
	}
	if m.Format != format {
		return fmt.Errorf("%s holds %s output, not %s; use --format %s to resume it, another directory, or --force to start it over", dir, m.Format, format, m.Format)
	}
	if m.Cleaner != cleaner {
		return fmt.Errorf("%s holds output cleaned with %q, not %q; give the same --filter/--model to resume it, another directory, or --force to start it over", dir, m.Cleaner, cleaner)
	}
	if m.Site != site || m.SiteMode != mode {
		return fmt.Errorf("%s holds output cleaned %s, not %s; give the same options to resume it, another directory, or --force to start it over", dir, siteMode(m.Site, m.SiteMode), siteMode(site, mode))
	}
	return nil
}

// siteMode says how a run used the site model, for an error message.
func siteMode(site bool, mode string) string {
	switch {
	case mode == siteWhole:
		return "with the site models learned from the whole input (--site=whole)"
	case site:
		return "with the site model (--site)"
	}
	return "without the site model (--site)"
}

// cutBack cuts the parts in dir back to the lengths the manifest records
// and removes the output files among ours that it does not list, and
// returns notices of what it did.
func (m *manifest) cutBack(dir string, ours []string) ([]string, error) {
	var notices []string
	listed := map[string]bool{}
	for _, p := range m.Parts {
		listed[p.Name] = true
		path := filepath.Join(dir, p.Name)
		st, err := os.Lstat(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %v: the output of finished inputs is lost; use --force to start the output over", path, err)
		}
		if !st.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file (%v): sluice corpus writes its output only to regular files it created; remove it and use --force to start the output over", path, st.Mode().Type())
		}
		switch {
		case st.Size() < p.Bytes:
			return nil, fmt.Errorf("%s: %d bytes, the manifest says %d: the output of finished inputs is damaged; use --force to start the output over", path, st.Size(), p.Bytes)
		case st.Size() > p.Bytes:
			if err := truncateRegular(path, p.Bytes); err != nil {
				return nil, err
			}
			notices = append(notices, fmt.Sprintf("%s: cut back to %d bytes, the output of the finished inputs (an earlier run stopped before finishing the next)", p.Name, p.Bytes))
		}
	}
	for _, name := range ours {
		if !listed[name] {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return nil, err
			}
			if !isTempFile(name) {
				notices = append(notices, fmt.Sprintf("%s: removed, the output of inputs an earlier run did not finish", name))
			}
		}
	}
	return notices, nil
}

// save writes the manifest atomically (a temporary file renamed).
func (m *manifest) save(dir string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, manifestName), append(data, '\n'))
}

// writeAtomic writes the file at path whole or not at all, never through
// a symbolic link (atomicfile.WriteFile).
func writeAtomic(path string, data []byte) error { return atomicfile.WriteFile(path, data, 0o644) }

// prepare readies the output directory for a run and returns its manifest,
// already counting this run, with notices for the user. Without force it
// resumes: it checks that the directory holds output of the same format and
// cleaner, cuts the parts back to their committed lengths and removes the
// output files the manifest does not list (the output of inputs an earlier
// run did not finish). With force it removes every output file first.
func prepare(dir, format, cleaner string, site bool, mode string, force bool) (*manifest, []string, error) {
	var notices []string
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var ours []string
	for _, e := range entries {
		if !e.IsDir() && isOutputFile(e.Name()) {
			ours = append(ours, e.Name())
		}
	}
	mpath := filepath.Join(dir, manifestName)
	data, err := os.ReadFile(mpath)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	m := &manifest{Version: manifestVersion, Format: format, Cleaner: cleaner, Site: site, SiteMode: mode}
	switch {
	case force:
		for _, name := range append(ours, manifestName, summaryName) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, nil, err
			}
		}
		if len(ours) > 0 || exists {
			notices = append(notices, fmt.Sprintf("--force: removed the earlier output in %s (%d files)", dir, len(ours)))
		}
	case !exists:
		if len(ours) > 0 {
			return nil, nil, fmt.Errorf("%s holds %s but no %s: it is not the output of sluice corpus, or its manifest was removed; remove those files, choose another directory, or use --force to overwrite them", dir, ours[0], manifestName)
		}
	default:
		m = &manifest{} // what the file says, not what this run is
		if err := json.Unmarshal(data, m); err != nil {
			return nil, nil, fmt.Errorf("%s: %v: the file is damaged; use --force to start the output over", mpath, err)
		}
		if err := m.check(dir, format, cleaner, site, mode); err != nil {
			return nil, nil, err
		}
		cut, err := m.cutBack(dir, ours)
		if err != nil {
			return nil, nil, err
		}
		notices = append(notices, cut...)
	}
	m.Runs++
	if err := m.save(dir); err != nil {
		return nil, nil, err
	}
	return m, notices, nil
}
