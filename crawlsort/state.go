package crawlsort

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/sluice-project/sluice/internal/atomicfile"
)

// Names in the output directory.
const (
	workDir     = ".sluice-sort" // runs, spill files, state
	stateName   = "state.json"
	indexName   = "index.tsv"
	summaryName = "summary.json"
)

// partName matches the parts Run writes.
var partName = regexp.MustCompile(`^part-[0-9]{5,}\.warc\.gz$`)

func partFile(n int) string { return fmt.Sprintf("part-%05d.warc.gz", n) }

// stateVersion is the version of state.json's layout.
const stateVersion = 1

// state is DIR/.sluice-sort/state.json: what a run has finished, so that
// the next one on the same inputs resumes. The scan is finished or not
// at all (an unfinished scan is done again); parts are finished one by
// one.
type state struct {
	Version   int          `json:"version"`
	Inputs    []inputState `json:"inputs"`
	PartBytes int64        `json:"part_bytes"`
	Scanned   bool         `json:"scanned"`
	// Files are the inputs, then the spill files (names in the work
	// directory): an entry's src and read index them.
	Files  []string    `json:"files,omitempty"`
	Runs   []string    `json:"runs,omitempty"`
	IDRuns []string    `json:"id_runs,omitempty"`
	Scan   *Summary    `json:"scan,omitempty"` // the scan's counts
	Parts  []partState `json:"parts,omitempty"`
	Done   bool        `json:"done"`
}

type inputState struct {
	Path    string    `json:"path"` // absolute
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
}

type partState struct {
	Name    string `json:"name"`
	Records int64  `json:"records"`
	Bytes   int64  `json:"bytes"`
}

// newState describes a run on the inputs.
func newState(paths []string, partBytes int64) (*state, error) {
	st := &state{Version: stateVersion, PartBytes: partBytes}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		in := inputState{Path: abs, Size: -1}
		if fi, err := os.Stat(p); err == nil {
			in.Size, in.ModTime = fi.Size(), fi.ModTime().UTC()
		}
		st.Inputs = append(st.Inputs, in)
	}
	return st, nil
}

// sameRun reports whether old is a run on the same inputs, unchanged,
// with the same part size.
func (st *state) sameRun(old *state) bool {
	return old.Version == stateVersion && old.PartBytes == st.PartBytes && slices.EqualFunc(old.Inputs, st.Inputs, func(a, b inputState) bool {
		return a.Path == b.Path && a.Size == b.Size && a.ModTime.Equal(b.ModTime)
	})
}

func (st *state) save(dir string) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, workDir, stateName)
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// prepare readies dir for a run described by st and returns the state to
// go on from: st itself for a new sort, or the earlier run's state when it
// was on the same inputs. With force, or when the earlier run was on other
// inputs and force is set, it removes the earlier output first; an earlier
// output of other inputs without force is an error.
func prepare(dir string, st *state, force bool) (*state, error) {
	if err := os.MkdirAll(filepath.Join(dir, workDir), 0o755); err != nil {
		return nil, err
	}
	if force {
		return st, clearOutput(dir)
	}
	spath := filepath.Join(dir, workDir, stateName)
	data, err := os.ReadFile(spath)
	if errors.Is(err, fs.ErrNotExist) {
		if name := firstOutput(dir); name != "" {
			return nil, fmt.Errorf("%s holds %s but no %s: it is not the output of sluice sort, or its state was removed; choose another directory, or use --force to overwrite it", dir, name, spath)
		}
		return st, clearOutput(dir)
	}
	if err != nil {
		return nil, err
	}
	old := &state{}
	if err := json.Unmarshal(data, old); err != nil {
		return nil, fmt.Errorf("%s: %v: the file is damaged; use --force to sort again", spath, err)
	}
	if !st.sameRun(old) {
		return nil, fmt.Errorf("%s holds the sort of other inputs (or of inputs changed since, or another --part-size); give the same inputs to resume it, another directory, or --force to sort again", dir)
	}
	old.keepWrittenParts(dir)
	return old, nil
}

// keepWrittenParts drops from the state the parts, from the first on, that
// are not in dir as the state records them: they are written again.
func (st *state) keepWrittenParts(dir string) {
	for i, p := range st.Parts {
		fi, err := os.Lstat(filepath.Join(dir, p.Name))
		if err != nil || !fi.Mode().IsRegular() || fi.Size() != p.Bytes {
			st.Parts, st.Done = st.Parts[:i], false
			return
		}
	}
}

// firstOutput returns the name of a file in dir that looks like sort
// output, or "".
func firstOutput(dir string) string {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); partName.MatchString(n) || n == indexName || n == summaryName {
			return n
		}
	}
	return ""
}

// clearOutput removes the parts, index, summary and work files in dir.
func clearOutput(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if partName.MatchString(n) || n == indexName || n == summaryName || atomicfile.IsTemp(n) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				return err
			}
		}
	}
	return clearWork(dir, false)
}

// clearWork removes the files of the work directory, the state too unless
// keepState.
func clearWork(dir string, keepState bool) error {
	work := filepath.Join(dir, workDir)
	entries, err := os.ReadDir(work)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if keepState && e.Name() == stateName {
			continue
		}
		if err := os.Remove(filepath.Join(work, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
