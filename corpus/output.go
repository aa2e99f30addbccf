package corpus

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/warc"
)

// Output formats.
const (
	// FormatJSONL writes part-NNNNN.jsonl files, one page per line: a
	// render.JSONDocument, the JSON of sluice clean --format json, with
	// its date (archive records), source and site (with Options.Site).
	FormatJSONL = "jsonl"
	// FormatCleanEval writes one stream, corpus.txt: each page is a line
	// "<doc>" (as WC Cleaner's --clave option writes), the line
	// "URL: <url>", a blank line and the page in the CleanEval format
	// (render.Stream with render.CleanEval{Header: true}).
	FormatCleanEval = "cleaneval"
	// FormatWARC writes part-NNNNN.warc.gz files, gzip per record: a
	// warcinfo record, then one conversion record per page holding its
	// plain text (the render "text" format), with WARC-Refers-To naming
	// the source record and the source's WARC-Target-URI and WARC-Date.
	FormatWARC = "warc"
	// FormatJSONLGzip and FormatJSONLZstd write the jsonl lines in
	// part-NNNNN.jsonl.gz and part-NNNNN.jsonl.zst files, each line
	// compressed on its own (a gzip member, a zstd frame) by the worker
	// that rendered it: the files decompress as one stream with any
	// gzip or zstd reader, a part cut back on resume ends on a whole
	// line, and compression runs on every core.
	FormatJSONLGzip = "jsonl.gz"
	FormatJSONLZstd = "jsonl.zst"
)

// Formats lists the output formats.
func Formats() []string {
	return []string{FormatJSONL, FormatJSONLGzip, FormatJSONLZstd, FormatCleanEval, FormatWARC}
}

// renderer turns a cleaned page into the bytes of the output format. Each
// worker has its own.
type renderer struct {
	format string // FormatJSONL for the compressed jsonl formats too
	pack   packer // compresses each page's output; nil for none
	sigs   bool   // sign each page for the near-duplicate check
	buf    bytes.Buffer
	text   bytes.Buffer
	// jsonl: the document, its memory reused
	json render.JSON
	doc  render.JSONDocument
	// cleaneval
	stream *render.Stream
	// warc
	ww *warc.Writer
}

// newRenderer returns a renderer of o's format, signing pages for the
// near-duplicate check when o asks for it.
func newRenderer(o *Options) *renderer {
	format := o.Format
	r := &renderer{format: format, sigs: o.NearDuplicate > 0, json: render.JSON{BlockLanguages: o.BlockLanguages}}
	switch format {
	case FormatJSONLGzip, FormatJSONLZstd:
		r.format, r.pack = FormatJSONL, newPacker(format)
	case FormatCleanEval:
		r.stream = render.NewStream(&r.buf, &render.CleanEval{Header: true})
	case FormatWARC:
		r.ww = warc.NewWriter(&r.buf, true)
	}
	return r
}

// render returns the output of one page, in a buffer of its own from
// getOut (to be given back with putOut).
func (r *renderer) render(it *item, p *page.Page) ([]byte, error) {
	if r.sigs {
		sig := fingerprint.SignatureOf(p)
		it.sig = &sig
	}
	out, err := r.renderPlain(it, p)
	if err != nil || r.pack == nil {
		return out, err
	}
	packed, err := r.pack.pack(getOut(len(out)/3+64), out)
	putOut(out)
	return packed, err
}

// renderPlain is render before compression.
func (r *renderer) renderPlain(it *item, p *page.Page) ([]byte, error) {
	r.buf.Reset()
	switch r.format {
	case FormatCleanEval:
		if err := r.stream.WritePage(p); err != nil {
			return nil, err
		}
		if err := r.stream.Flush(); err != nil {
			return nil, err
		}
	case FormatJSONL:
		return appendJSONLine(&r.json, &r.doc, nil, p, FormatDate(it.date), &it.src, it.site), nil
	case FormatWARC:
		src := &warc.Record{TargetURI: it.url(p), Date: it.date}
		if it.src.RecordID != "" {
			src.Header.Set(warc.FieldRecordID, it.src.RecordID)
		}
		if src.TargetURI == "" {
			if abs, err := filepath.Abs(it.src.File); err == nil {
				src.TargetURI = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
			}
		}
		if _, err := r.ww.WriteConversion(src, "text/plain; charset=utf-8", r.plainBytes(p)); err != nil {
			return nil, err
		}
	}
	return append(getOut(r.buf.Len()), r.buf.Bytes()...), nil
}

// FormatDate is a capture date as the jsonl documents give it: RFC 3339
// in UTC, "" for the zero time.
func FormatDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// AppendJSONLine appends to dst the line FormatJSONL writes for page p, a
// render.JSONDocument ending in a newline, with the record's capture date
// (see FormatDate), where it is (src) and what the site model of its host
// did (site, nil for nothing).
func AppendJSONLine(dst []byte, p *page.Page, date string, src *render.JSONSource, site *render.JSONSite) []byte {
	return appendJSONLine(&render.JSON{}, &render.JSONDocument{}, dst, p, date, src, site)
}

// appendJSONLine is AppendJSONLine with the memory of j and d reused; dst
// nil takes a buffer from getOut.
func appendJSONLine(j *render.JSON, d *render.JSONDocument, dst []byte, p *page.Page, date string, src *render.JSONSource, site *render.JSONSite) []byte {
	j.Fill(d, p)
	d.Date, d.Source, d.Site = date, src, site
	if dst == nil {
		// The text appears three times: whole, by block and by segment;
		// a block takes some 100 bytes more, a segment 50.
		dst = getOut(3*len(d.Text) + 128*len(d.Blocks) + 64*len(d.Segments) + 512)
	}
	out := d.AppendJSON(dst)
	// Not to keep the page alive.
	clear(d.Blocks)
	clear(d.Segments)
	*d = render.JSONDocument{Blocks: d.Blocks[:0], Segments: d.Segments[:0]}
	return out
}

// outBufs recycles the buffers of rendered pages: a worker renders into
// one, the writer gives it back once it has written it.
var outBufs sync.Pool // of *[]byte

// maxPooledOut caps the buffers kept for reuse.
const maxPooledOut = 1 << 20

// getOut returns an empty buffer with room for n bytes, a recycled one if
// there is one.
func getOut(n int) []byte {
	if bp, ok := outBufs.Get().(*[]byte); ok {
		if b := *bp; cap(b) >= n {
			return b[:0]
		}
	}
	return make([]byte, 0, n)
}

// putOut recycles a buffer that getOut returned, once nothing uses it.
func putOut(b []byte) {
	if cap(b) == 0 || cap(b) > maxPooledOut {
		return
	}
	outBufs.Put(&b)
}

// plainBytes returns the page in the render "text" format, in the
// renderer's buffer: valid until its next use.
func (r *renderer) plainBytes(p *page.Page) []byte {
	r.text.Reset()
	render.Text{}.Render(&r.text, p)
	return bytes.TrimSuffix(r.text.Bytes(), []byte("\n"))
}

// sink writes the rendered pages to the parts of the output directory. Only
// the writer goroutine uses it.
//
// The sink's parts are live: their lengths grow with every page. The
// manifest holds a snapshot of them taken at the last input boundary (see
// snapshot), which is what a later run keeps.
type sink struct {
	dir         string
	format      string
	run         int
	partRecords int64
	partBytes   int64
	warcinfo    warc.Header

	parts   []*partEntry // every part, those of earlier runs included
	next    int          // number of the next part
	created []string     // parts created by this run

	cur *partEntry
	f   *os.File
	bw  *bufio.Writer
}

func newSink(dir, format string, m *manifest, o *Options) *sink {
	s := &sink{dir: dir, format: format, run: m.Runs, partRecords: int64(o.PartRecords), partBytes: o.PartBytes,
		warcinfo: warcinfoFields(m.Cleaner, m.Runs, m.Site), next: m.nextPart()}
	for _, p := range m.Parts {
		c := *p
		s.parts = append(s.parts, &c)
	}
	return s
}

// snapshot returns a copy of the parts as they are now.
func (s *sink) snapshot() []*partEntry {
	out := make([]*partEntry, len(s.parts))
	for i, p := range s.parts {
		c := *p
		out[i] = &c
	}
	return out
}

// write appends one page's output, opening or rotating parts as needed.
func (s *sink) write(out []byte) error {
	if s.cur == nil || s.format != FormatCleanEval && (s.cur.Records >= s.partRecords || s.cur.Bytes >= s.partBytes) {
		if err := s.open(); err != nil {
			return err
		}
	}
	if _, err := s.bw.Write(out); err != nil {
		return err
	}
	s.cur.Bytes += int64(len(out))
	s.cur.Records++
	return nil
}

// open closes the current part and opens the next. The cleaneval format has
// one part, corpus.txt, appended to across runs.
func (s *sink) open() error {
	if err := s.closePart(); err != nil {
		return err
	}
	if s.format == FormatCleanEval {
		for _, p := range s.parts {
			if p.Name == corpusName {
				s.cur = p
			}
		}
		flags := os.O_WRONLY | os.O_APPEND
		if s.cur == nil {
			s.cur = &partEntry{Name: corpusName, Run: s.run}
			s.parts = append(s.parts, s.cur)
			s.created = append(s.created, corpusName)
			flags |= os.O_CREATE | os.O_EXCL
		}
		var f *os.File
		var err error
		if flags&os.O_CREATE != 0 {
			f, err = os.OpenFile(filepath.Join(s.dir, corpusName), flags, 0o644)
		} else {
			f, err = openRegular(filepath.Join(s.dir, corpusName), flags)
		}
		if err != nil {
			s.cur = nil
			return err
		}
		s.f, s.bw = f, bufio.NewWriterSize(f, 256<<10)
		return nil
	}
	ext := "." + s.format
	if s.format == FormatWARC {
		ext = ".warc.gz"
	}
	name := fmt.Sprintf("part-%05d%s", s.next, ext)
	f, err := os.OpenFile(filepath.Join(s.dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	s.next++
	s.f, s.bw = f, bufio.NewWriterSize(f, 256<<10)
	s.cur = &partEntry{Name: name, Run: s.run}
	s.parts = append(s.parts, s.cur)
	s.created = append(s.created, name)
	if s.format == FormatWARC {
		var buf bytes.Buffer
		w := warc.NewWriter(&buf, true)
		if _, err := w.WriteWarcinfo(name, s.warcinfo); err != nil {
			return err
		}
		if _, err := s.bw.Write(buf.Bytes()); err != nil {
			return err
		}
		s.cur.Bytes += int64(buf.Len())
	}
	return nil
}

// rollback cuts the closed parts back to the snapshot kept: parts it does
// not list are removed, longer ones truncated.
func (s *sink) rollback(kept []*partEntry) error {
	size := map[string]int64{}
	for _, p := range kept {
		size[p.Name] = p.Bytes
	}
	for _, p := range s.parts {
		path := filepath.Join(s.dir, p.Name)
		n, ok := size[p.Name]
		switch {
		case !ok:
			if err := os.Remove(path); err != nil {
				return err
			}
		case p.Bytes > n:
			if err := truncateRegular(path, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// sync makes the current part durable up to its recorded length.
func (s *sink) sync() error {
	if s.f == nil {
		return nil
	}
	if err := s.bw.Flush(); err != nil {
		return err
	}
	return s.f.Sync()
}

func (s *sink) closePart() error {
	if s.f == nil {
		return nil
	}
	err := s.sync()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	s.f, s.bw, s.cur = nil, nil, nil
	return err
}

// openRegular opens the existing file at path with flag, refusing anything
// but a regular file: a symbolic link in the output directory is never
// written through, nor a device or a pipe opened. New parts are created
// with O_EXCL, which refuses a link too.
func openRegular(path string, flag int) (*os.File, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !lst.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%v): sluice corpus writes its output only to regular files it created; remove it, or use --force to start the output over", path, lst.Mode().Type())
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !os.SameFile(lst, st) {
		f.Close()
		return nil, fmt.Errorf("%s: replaced while it was being opened", path)
	}
	return f, nil
}

// truncateRegular cuts the regular file at path to n bytes (see
// openRegular).
func truncateRegular(path string, n int64) error {
	f, err := openRegular(path, os.O_WRONLY)
	if err != nil {
		return err
	}
	err = f.Truncate(n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func warcinfoFields(cleaner string, run int, site bool) warc.Header {
	h := warc.Header{
		{Name: "software", Value: "sluice corpus"},
		{Name: "description", Value: "the main content of web pages, cleaned by sluice: one conversion record per page, its plain text"},
		{Name: "sluice-cleaner", Value: cleaner},
		{Name: "sluice-run", Value: strconv.Itoa(run)},
	}
	if site {
		h = append(h, warc.Field{Name: "sluice-site", Value: "pages corrected with the site model of their host"})
	}
	return h
}
