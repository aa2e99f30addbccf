package projects

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/train"
)

// Export formats: Victor's (NAME.html with NAME.ann beside it, as
// "sluice annotate page.html" writes them) and the annotated data set
// (html/NAME.html and ann/NAME.ann, as "sluice train --data" reads them).
const (
	formatVictor  = "victor"
	formatDataset = "dataset"
)

// labelledPage is a page whose every block is labelled, ready to export.
type labelledPage struct {
	name string
	html []byte
	ann  []byte // its annotation in Victor's format
}

// labelledPages reads the pages of a project whose every block is
// labelled, with their annotations, in the order they were added, and
// counts those left out.
func (s *Service) labelledPages(ctx context.Context, project int64) (out []labelledPage, skipped int, err error) {
	pages, err := s.cfg.Store.Pages(ctx, project)
	if err != nil {
		return nil, 0, err
	}
	for _, sp := range pages {
		lp, ok, err := s.labelledPage(ctx, sp.ID)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			skipped++
			continue
		}
		out = append(out, lp)
	}
	return out, skipped, nil
}

// labelledPage reads one page and writes its annotation; false when some
// block has no label.
func (s *Service) labelledPage(ctx context.Context, id int64) (labelledPage, bool, error) {
	p, err := s.cfg.Store.Page(ctx, id)
	if err != nil {
		return labelledPage{}, false, err
	}
	stored, err := s.cfg.Store.Labels(ctx, id)
	if err != nil {
		return labelledPage{}, false, err
	}
	res, err := s.segment(ctx, p.HTML, p.URL)
	if err != nil {
		return labelledPage{}, false, err
	}
	n := len(res.Page.Blocks)
	s.remember(*p, n)
	labels := make([]page.Label, n)
	have := 0
	for _, l := range stored {
		if lab, ok := page.ParseLabel(l.Label); ok && l.Block < n {
			labels[l.Block] = lab
			have++
		}
	}
	if n == 0 || have < n {
		return labelledPage{}, false, nil
	}
	var ann bytes.Buffer
	if err := train.WriteAnnotation(&ann, res.Page, labels); err != nil {
		return labelledPage{}, false, err
	}
	return labelledPage{name: pageName(p), html: p.HTML, ann: ann.Bytes()}, true, nil
}

// files returns the files of pages in an export format, by path.
func files(pages []labelledPage, format string) (names []string, data [][]byte) {
	for _, p := range pages {
		h, a := p.name+".html", p.name+".ann"
		if format == formatDataset {
			h, a = "html/"+h, "ann/"+a
		}
		names = append(names, h, a)
		data = append(data, p.html, p.ann)
	}
	return names, data
}

// writeDir writes the files of pages in format into dir (for training).
func writeDir(dir string, pages []labelledPage, format string) error {
	names, data := files(pages, format)
	for i, n := range names {
		path := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data[i], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeArchive writes the files of pages in format to w as a tar.gz or
// zip archive, below the folder root.
func writeArchive(w io.Writer, archive, root string, pages []labelledPage, format string) error {
	names, data := files(pages, format)
	now := time.Now()
	if archive == "zip" {
		zw := zip.NewWriter(w)
		for i, n := range names {
			f, err := zw.CreateHeader(&zip.FileHeader{Name: root + "/" + n, Method: zip.Deflate, Modified: now})
			if err != nil {
				return err
			}
			if _, err := f.Write(data[i]); err != nil {
				return err
			}
		}
		return zw.Close()
	}
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for i, n := range names {
		hdr := &tar.Header{Name: root + "/" + n, Mode: 0o644, Size: int64(len(data[i])), ModTime: now, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data[i]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

// exportOptions reads the query of an export.
func exportOptions(r *http.Request) (format, archive string, page int64, err error) {
	if err := server.CheckQuery(r, "format", "archive", "page"); err != nil {
		return "", "", 0, err
	}
	q := r.URL.Query()
	format, archive = q.Get("format"), q.Get("archive")
	if format != formatVictor && format != formatDataset {
		e := newError(http.StatusBadRequest, "unknown_format", "export format %q: give format=victor (NAME.html and NAME.ann side by side) or format=dataset (html/ and ann/, for sluice train --data)", format)
		e.valid = []string{formatVictor, formatDataset}
		return "", "", 0, e
	}
	switch archive {
	case "":
		archive = "tar.gz"
	case "tar.gz", "zip":
	default:
		e := newError(http.StatusBadRequest, "unknown_archive", "archive %q: give tar.gz or zip", archive)
		e.valid = []string{"tar.gz", "zip"}
		return "", "", 0, e
	}
	if v := q.Get("page"); v != "" {
		if format != formatVictor || q.Has("archive") {
			return "", "", 0, newError(http.StatusBadRequest, "bad_query", "page=ID answers one page's annotation as text: it goes with format=victor and no archive")
		}
		if page, err = strconv.ParseInt(v, 10, 64); err != nil || page < 1 {
			return "", "", 0, newError(http.StatusBadRequest, "bad_query", "page %q: page ids are numbers", v)
		}
	}
	return format, archive, page, nil
}

// export is GET /v1/projects/{id}/export?format=victor|dataset
// [&archive=tar.gz|zip]: the pages whose every block is labelled, as an
// archive (Sluice-Pages-Skipped counts the others); with format=victor
// and page=ID, that page's annotation alone, as text.
func (s *Service) export(w http.ResponseWriter, r *http.Request) error {
	format, archive, pageID, err := exportOptions(r)
	if err != nil {
		return err
	}
	proj, err := s.projectOf(r)
	if err != nil {
		return err
	}
	if pageID != 0 {
		return s.exportPage(w, r, proj.ID, pageID)
	}
	pages, skipped, err := s.labelledPages(r.Context(), proj.ID)
	if err != nil {
		return err
	}
	if len(pages) == 0 {
		return newError(http.StatusConflict, "nothing_labelled", "project %q has no page whose every block is labelled (%d pages not yet)", proj.Name, skipped)
	}
	root := exportRoot(proj.Name)
	var buf bytes.Buffer
	if err := writeArchive(&buf, archive, root, pages, format); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", map[string]string{"zip": "application/zip", "tar.gz": "application/gzip"}[archive])
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.%s"`, root, format, archive))
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Sluice-Pages", strconv.Itoa(len(pages)))
	h.Set("Sluice-Pages-Skipped", strconv.Itoa(skipped))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
	return nil
}

// exportPage answers one page's annotation in Victor's format.
func (s *Service) exportPage(w http.ResponseWriter, r *http.Request, project, id int64) error {
	p, err := s.cfg.Store.Page(r.Context(), id)
	if err == nil && p.Project != project {
		err = newError(http.StatusNotFound, "not_found", "project %d has no page %d", project, id)
	}
	if err != nil {
		return err
	}
	lp, ok, err := s.labelledPage(r.Context(), id)
	if err != nil {
		return err
	}
	if !ok {
		return newError(http.StatusConflict, "nothing_labelled", "page %d has blocks without a label: label them all first", id)
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.ann"`, lp.name))
	h.Set("Content-Length", strconv.Itoa(len(lp.ann)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(lp.ann)
	}
	return nil
}

// exportRoot is the folder an export's files are in: the project's name
// made safe for a file name.
func exportRoot(name string) string {
	out := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, name)
	out = strings.Trim(out, ".")
	if out == "" {
		out = "project"
	}
	return out
}
