package crawlsort

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/sluice-project/sluice/internal/atomicfile"
)

// Options configures Run. The zero value gives the documented defaults.
type Options struct {
	// Memory bounds the record lines held before a sorted run is spilled
	// (three quarters for the host sort, a quarter for the record-ID
	// sort). Default (0): DefaultMemory.
	Memory int64
	// PartBytes is the size of a part: a part is closed at the first
	// host boundary after it holds PartBytes bytes, or after any record
	// once it holds twice that (a host larger than that spans parts that
	// follow each other). Default (0): DefaultPartBytes.
	PartBytes int64
	// Force starts over: the output already in the directory is removed.
	Force bool
	// Progress, if set, is told how the run goes.
	Progress func(Progress)
	// Report, if set, is told of each damaged span as it is found.
	Report func(Damage)
}

// Defaults of Options.
const (
	DefaultMemory    = 256 << 20
	DefaultPartBytes = 1 << 30
)

// Phases of a run, in Progress.
const (
	PhaseScan  = "scan"
	PhaseWrite = "write"
)

// Progress is where a run is.
type Progress struct {
	Phase       string
	Inputs      int // inputs scanned
	InputsTotal int
	Records     int64 // records scanned, or written
	Parts       int   // parts written
}

// String is the progress as sluice sort draws it on a terminal.
func (p Progress) String() string {
	if p.Phase == PhaseScan {
		return fmt.Sprintf("sort: scanning input %d/%d, %d records", p.Inputs, p.InputsTotal, p.Records)
	}
	return fmt.Sprintf("sort: writing, %d records in %d parts", p.Records, p.Parts)
}

func (o *Options) progress(p Progress) {
	if o.Progress != nil {
		o.Progress(p)
	}
}

func (o *Options) report(d Damage) {
	if o.Report != nil {
		o.Report(d)
	}
}

// Run sorts the records of the archives at paths (files; see Discover for
// directories) by host into dir, as the package documentation says, and
// returns the summary, also written to dir/summary.json. Run on a
// directory that holds an unfinished sort of the same inputs, it resumes
// it; of a finished one, it returns its summary. The error is that of the
// run (a write that failed, such as a full disk, with the path; the
// context's error when it was cancelled); inputs that could not be read
// are in the summary's InputErrors, and the run goes on without them.
func Run(ctx context.Context, dir string, paths []string, opts Options) (*Summary, error) {
	if opts.Memory <= 0 {
		opts.Memory = DefaultMemory
	}
	if opts.PartBytes <= 0 {
		opts.PartBytes = DefaultPartBytes
	}
	st, err := newState(paths, opts.PartBytes)
	if err != nil {
		return nil, err
	}
	if st, err = prepare(dir, st, opts.Force); err != nil {
		return nil, err
	}
	if st.Done {
		return readSummary(dir)
	}
	if !st.Scanned {
		if err := scan(ctx, dir, st, &opts); err != nil {
			return nil, err
		}
		if err := st.save(dir); err != nil {
			return nil, err
		}
	}
	sum, err := write(ctx, dir, st, &opts)
	if err != nil {
		return sum, err
	}
	return sum, finish(dir, st, sum)
}

// finish writes the index and the summary, records the sort as done and
// removes the work files.
func finish(dir string, st *state, sum *Summary) error {
	if err := writeIndex(dir, st); err != nil {
		return err
	}
	data, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, summaryName)
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	st.Done, st.Runs, st.IDRuns, st.Files = true, nil, nil, nil
	if err := st.save(dir); err != nil {
		return err
	}
	return clearWork(dir, true)
}
