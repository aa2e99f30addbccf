package crawlsort

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/gzip"

	"github.com/sluice-project/sluice/internal/atomicfile"
)

// partBuffer is the write buffer of a part.
const partBuffer = 256 << 10

// writer writes the parts from the merged runs.
type writer struct {
	dir   string
	root  *os.Root
	st    *state
	opts  *Options
	sum   *Summary
	files *fileCache
	gz    *gzip.Writer
	next  func() (string, error, bool)
	cur   *entry // the next entry to write; nil at the end
	host  string // of the last entry counted
}

// write writes the parts the state does not list as finished, and counts
// every entry (of the finished parts too) into the summary it returns.
func write(ctx context.Context, dir string, st *state, opts *Options) (*Summary, error) {
	sum := *st.Scan
	sum.ByType, sum.Damage, sum.InputErrors = map[string]int64{}, st.Scan.Damage, st.Scan.InputErrors
	if err := findDuplicates(dir, st, &sum); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	w := &writer{dir: dir, root: root, st: st, opts: opts, sum: &sum, files: newFileCache(dir, st), gz: gzip.NewWriter(io.Discard)}
	defer w.files.close()
	next, stop := iter.Pull2(mergeRuns(filepath.Join(dir, workDir), st.Runs))
	defer stop()
	w.next = next
	if err := w.advance(); err != nil {
		return nil, err
	}
	for n := 0; w.cur != nil; n++ {
		if err := ctx.Err(); err != nil {
			return &sum, err
		}
		if n < len(st.Parts) {
			if err := w.skipPart(st.Parts[n]); err != nil {
				return &sum, err
			}
			continue
		}
		if err := w.writePart(n + 1); err != nil {
			return &sum, err
		}
		opts.progress(Progress{Phase: PhaseWrite, Records: sum.RecordsOut, Parts: n + 1})
	}
	for _, p := range st.Parts {
		sum.BytesOut += p.Bytes
	}
	sum.Parts = len(st.Parts)
	if sum.RecordsOut != sum.RecordsIn {
		return &sum, fmt.Errorf("%d records read but %d written: the sorted runs in %s do not match the scan; use --force to sort again", sum.RecordsIn, sum.RecordsOut, filepath.Join(dir, workDir))
	}
	return &sum, nil
}

// advance reads the next entry into w.cur.
func (w *writer) advance() error {
	line, err, ok := w.next()
	switch {
	case !ok:
		w.cur = nil
		return nil
	case err != nil:
		return err
	}
	e, err := parseEntry(line)
	if err != nil {
		return err
	}
	w.cur = &e
	return nil
}

// count counts e into the summary.
func (w *writer) count(e *entry) {
	w.sum.RecordsOut++
	w.sum.ByType[e.typ]++
	if e.host != w.host || w.sum.RecordsOut == 1 {
		w.sum.Hosts++
		w.host = e.host
	}
	if e.host == NoHost {
		w.sum.NoHost++
	}
}

// skipPart counts the entries of a part written by an earlier run.
func (w *writer) skipPart(p partState) error {
	for range p.Records {
		if w.cur == nil {
			return fmt.Errorf("%s: the state lists more records than the sorted runs hold; use --force to sort again", p.Name)
		}
		w.count(w.cur)
		if err := w.advance(); err != nil {
			return err
		}
	}
	return nil
}

// writePart writes part number n and its index, each whole (a temporary
// file renamed), and records it in the state.
func (w *writer) writePart(n int) error {
	name := partFile(n)
	var recs, size int64
	iname := filepath.Join(workDir, "index-"+name+".tsv")
	err := atomicWrite(w.root, w.dir, iname, func(iw io.Writer) error {
		ib := bufio.NewWriterSize(iw, runBuffer)
		err := atomicWrite(w.root, w.dir, name, func(pw io.Writer) error {
			cw := &countWriter{w: bufio.NewWriterSize(pw, partBuffer)}
			for w.cur != nil {
				e, start := w.cur, cw.n
				if err := w.copyRecord(cw, e); err != nil {
					return err
				}
				fmt.Fprintf(ib, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%d\t%s\t%s\n", e.host, name, start, cw.n-start,
					w.st.Files[e.src], e.srcOff, e.srcLen, e.member, escaper.Replace(e.typ), escaper.Replace(e.id))
				recs++
				w.count(e)
				if err := w.advance(); err != nil {
					return err
				}
				if w.cur == nil || cw.n >= 2*w.st.PartBytes || cw.n >= w.st.PartBytes && w.cur.host != e.host {
					break
				}
			}
			size = cw.n
			return cw.w.Flush()
		})
		if err != nil {
			return err
		}
		return ib.Flush()
	})
	if err != nil {
		return err
	}
	w.st.Parts = append(w.st.Parts, partState{Name: name, Records: recs, Bytes: size})
	return w.st.save(w.dir)
}

// copyRecord writes the record of e to out as a gzip member: the member
// itself when the input has it so, the plain bytes compressed otherwise.
func (w *writer) copyRecord(out io.Writer, e *entry) error {
	f, err := w.files.get(e.read)
	if err != nil {
		return err
	}
	src := io.NewSectionReader(f, e.readOff, e.readLen)
	var n int64
	if e.gz {
		n, err = io.Copy(out, src)
	} else {
		w.gz.Reset(out)
		n, err = io.Copy(w.gz, src)
		if cerr := w.gz.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && n != e.readLen {
		err = fmt.Errorf("%d bytes where the scan found %d: the file changed since (use --force to sort again)", n, e.readLen)
	}
	if err != nil {
		return fmt.Errorf("copying the record at offset %d of %s: %w", e.readOff, f.Name(), err)
	}
	return nil
}

// atomicWrite writes name in root whole or not at all, an error naming
// the file in dir.
func atomicWrite(root *os.Root, dir, name string, fill func(io.Writer) error) error {
	if err := atomicfile.Write(root, name, 0o644, fill); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
	}
	return nil
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w *bufio.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// fileCache keeps the inputs and spill files open for copying, up to
// maxOpen at once.
type fileCache struct {
	dir   string
	st    *state
	files map[int]*os.File
}

const maxOpen = 64

func newFileCache(dir string, st *state) *fileCache {
	return &fileCache{dir: dir, st: st, files: map[int]*os.File{}}
}

func (c *fileCache) get(i int) (*os.File, error) {
	if f := c.files[i]; f != nil {
		return f, nil
	}
	if len(c.files) >= maxOpen {
		c.close()
	}
	path := c.st.Files[i]
	if i >= len(c.st.Inputs) {
		path = filepath.Join(c.dir, workDir, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	c.files[i] = f
	return f, nil
}

func (c *fileCache) close() {
	for i, f := range c.files {
		f.Close()
		delete(c.files, i)
	}
}
