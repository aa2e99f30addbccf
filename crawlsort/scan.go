package crawlsort

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sluice-project/sluice/warc"
)

// progressEvery is how many records go between two Progress calls.
const progressEvery = 4096

// scanner reads the inputs' record headers into the two sorts: by host,
// and by record ID (to find duplicate IDs).
type scanner struct {
	work  string // the work directory
	st    *state
	opts  *Options
	hosts *sorter
	ids   *sorter
	sum   *Summary
	seq   int64
	spill *spillFile // of the current input, when it needs one
}

// scan reads every input and leaves the sorted runs, the spill files and
// the scan's counts in st.
func scan(ctx context.Context, dir string, st *state, opts *Options) error {
	work := filepath.Join(dir, workDir)
	if err := clearWork(dir, true); err != nil {
		return err
	}
	s := &scanner{work: work, st: st, opts: opts, sum: &Summary{ByType: map[string]int64{}}}
	s.hosts = &sorter{dir: work, prefix: "hosts", budget: opts.Memory * 3 / 4}
	s.ids = &sorter{dir: work, prefix: "ids", budget: max(1, opts.Memory/4)}
	st.Files = st.Files[:0]
	for _, in := range st.Inputs {
		st.Files = append(st.Files, in.Path)
	}
	for i, in := range st.Inputs {
		if err := s.input(ctx, i, in.Path); err != nil {
			return err
		}
		s.sum.Inputs++
		s.opts.progress(Progress{Phase: PhaseScan, Inputs: i + 1, InputsTotal: len(st.Inputs), Records: s.sum.RecordsIn})
	}
	var err error
	if st.Runs, err = s.hosts.finish(); err != nil {
		return err
	}
	s.sum.Runs = s.hosts.made
	if st.IDRuns, err = s.ids.finish(); err != nil {
		return err
	}
	st.Scan, st.Scanned = s.sum, true
	return nil
}

// input reads one input; errors it returns end the run (an input that
// cannot be read is counted, not returned).
func (s *scanner) input(ctx context.Context, idx int, path string) (err error) {
	f, err := os.Open(path)
	if err != nil {
		s.sum.inputError(path, err)
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		s.sum.InputBytes += fi.Size()
	}
	arc := isARC(path)
	defer func() {
		if cerr := s.closeSpill(); err == nil {
			err = cerr
		}
	}()
	opts := warc.Options{HeadersOnly: !arc, SkipDigests: true}
	for rec, err := range warc.NewReader(f, opts).Records() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			var re *warc.RecordError
			if !errors.As(err, &re) {
				s.sum.inputError(path, err)
				return nil
			}
			s.opts.report(s.sum.damage(path, re))
			continue
		}
		if err := s.record(idx, f, rec, arc); err != nil {
			return err
		}
	}
	return nil
}

// record adds a record to the sorts.
func (s *scanner) record(idx int, f *os.File, rec *warc.Record, arc bool) error {
	e := entry{host: HostKey(rec.TargetURI), seq: s.seq, typ: rec.Type, id: rec.ID(), src: idx,
		srcOff: rec.Offset, srcLen: rec.Length, member: rec.MemberOffset,
		read: idx, readOff: rec.Offset, readLen: rec.Length, gz: rec.MemberOffset >= 0}
	s.seq++
	s.sum.RecordsIn++
	if arc || rec.Shared {
		err := s.spillRecord(&e, f, rec, arc)
		var lost *unreadable
		if errors.As(err, &lost) {
			// Read by the reader, but not again: damage after all.
			s.sum.RecordsIn--
			s.opts.report(s.sum.damage(s.st.Files[idx], &warc.RecordError{Offset: rec.MemberOffset, InMember: rec.Offset,
				Length: rec.Length, Kind: warc.DamageGzipMember, Reason: "record of a gzip member that cannot be decompressed again", Err: lost.err}))
			return nil
		}
		if err != nil {
			return err
		}
	}
	if err := s.hosts.add(e.line()); err != nil {
		return err
	}
	if e.id != "" {
		if err := s.ids.add(e.idLine()); err != nil {
			return err
		}
	}
	if s.sum.RecordsIn%progressEvery == 0 {
		s.opts.progress(Progress{Phase: PhaseScan, Inputs: s.sum.Inputs, InputsTotal: len(s.st.Inputs), Records: s.sum.RecordsIn})
	}
	return nil
}

// spillRecord copies the record's bytes to the input's spill file: an ARC
// record converted to WARC, or a record of a gzip member it shares with
// others, decompressed.
func (s *scanner) spillRecord(e *entry, f *os.File, rec *warc.Record, arc bool) error {
	if s.spill == nil {
		name := fmt.Sprintf("spill-%06d", e.src)
		sp, err := newSpillFile(filepath.Join(s.work, name))
		if err != nil {
			return err
		}
		s.spill = sp
		s.st.Files = append(s.st.Files, name)
	}
	var off, n int64
	var err error
	if arc {
		off, n, err = s.spill.convertARC(rec, s.st.Files[e.src])
		s.sum.Converted++
	} else {
		off, n, err = s.spill.copyShared(f, rec)
	}
	if err != nil {
		return err
	}
	s.sum.Spilled++
	e.read, e.readOff, e.readLen, e.gz = len(s.st.Files)-1, off, n, false
	return nil
}

func (s *scanner) closeSpill() error {
	if s.spill == nil {
		return nil
	}
	err := s.spill.close()
	s.spill = nil
	return err
}

// isARC reports whether the archive at path is an ARC file: whether its
// first record is an ARC record.
func isARC(path string) bool {
	for rec, err := range warc.ReadFile(path, warc.Options{HeadersOnly: true, SkipDigests: true}) {
		if err == nil {
			return strings.HasPrefix(rec.Version, "ARC")
		}
		var re *warc.RecordError
		if !errors.As(err, &re) {
			return false
		}
	}
	return false
}
