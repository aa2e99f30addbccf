package crawlsort

import (
	"bufio"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// lineOverhead is what a line held in memory costs besides its bytes: its
// string header and its share of the slice that holds it.
const lineOverhead = 40

// fanIn is how many runs are merged at once; a merge holds a buffer of
// runBuffer bytes per run.
const (
	fanIn     = 64
	runBuffer = 64 << 10
)

// sorter is an external sort of lines (without line ends) in byte order:
// lines are held up to a budget, then sorted and written to a run file.
type sorter struct {
	dir    string // where the runs go
	prefix string // of their names
	budget int64
	used   int64
	lines  []string
	runs   []string // names of the runs, in dir
	made   int      // runs made, to name the next
}

// add takes a line, spilling a run when the budget is used up.
func (s *sorter) add(line string) error {
	s.lines = append(s.lines, line)
	s.used += int64(len(line)) + lineOverhead
	if s.used >= s.budget {
		return s.spill()
	}
	return nil
}

// spill sorts the lines held and writes them as a run.
func (s *sorter) spill() error {
	if len(s.lines) == 0 {
		return nil
	}
	slices.Sort(s.lines)
	name := s.nextName()
	if err := writeRun(filepath.Join(s.dir, name), func(yield func(string, error) bool) {
		for _, l := range s.lines {
			if !yield(l, nil) {
				return
			}
		}
	}); err != nil {
		return err
	}
	s.runs = append(s.runs, name)
	clear(s.lines)
	s.lines, s.used = s.lines[:0], 0
	return nil
}

func (s *sorter) nextName() string {
	s.made++
	return fmt.Sprintf("%s-%06d.run", s.prefix, s.made)
}

// finish spills what is held and merges the runs until at most fanIn are
// left, removing the runs merged; it returns the runs left.
func (s *sorter) finish() ([]string, error) {
	if err := s.spill(); err != nil {
		return nil, err
	}
	s.lines = nil
	for len(s.runs) > fanIn {
		var next []string
		for group := range slices.Chunk(s.runs, fanIn) {
			name := s.nextName()
			if err := writeRun(filepath.Join(s.dir, name), mergeRuns(s.dir, group)); err != nil {
				return nil, err
			}
			for _, r := range group {
				os.Remove(filepath.Join(s.dir, r))
			}
			next = append(next, name)
		}
		s.runs = next
	}
	return s.runs, nil
}

// writeRun writes the lines of seq to a new file at path, one a line.
func writeRun(path string, seq iter.Seq2[string, error]) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, runBuffer)
	for line, err := range seq {
		if err != nil {
			f.Close()
			return err
		}
		w.WriteString(line)
		w.WriteByte('\n')
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing a sorted run: %w", err)
	}
	return nil
}

// runReader reads a run a line at a time.
type runReader struct {
	name string
	f    *os.File
	r    *bufio.Reader
	line string
}

// advance reads the next line; io.EOF at the end.
func (r *runReader) advance() error {
	s, err := r.r.ReadString('\n')
	if err == io.EOF && s != "" {
		return fmt.Errorf("%s: the run ends inside a line: it is damaged (use --force to sort again)", r.name)
	}
	if err != nil {
		return err
	}
	r.line = strings.TrimSuffix(s, "\n")
	return nil
}

// runHeap orders the readers by their current line.
type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].line < h[j].line }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}

// mergeRuns yields the lines of the runs (names in dir) in byte order.
func mergeRuns(dir string, runs []string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		var h runHeap
		defer func() {
			for _, r := range h {
				r.f.Close()
			}
		}()
		for _, name := range runs {
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				yield("", err)
				return
			}
			r := &runReader{name: filepath.Join(dir, name), f: f, r: bufio.NewReaderSize(f, runBuffer)}
			if err := r.advance(); err != nil {
				f.Close()
				if err == io.EOF {
					continue
				}
				yield("", err)
				return
			}
			h = append(h, r)
		}
		heap.Init(&h)
		for len(h) > 0 {
			r := h[0]
			if !yield(r.line, nil) {
				return
			}
			switch err := r.advance(); {
			case errors.Is(err, io.EOF):
				heap.Pop(&h)
				r.f.Close()
			case err != nil:
				yield("", err)
				return
			default:
				heap.Fix(&h, 0)
			}
		}
	}
}
