package projects

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// pageJSON is a page of a project in answers.
type pageJSON struct {
	ID       int64     `json:"id"`
	Project  int64     `json:"project"`
	URL      string    `json:"url"`
	Name     string    `json:"name"` // its file name in exports, without the ending
	Blocks   int       `json:"blocks"`
	Labelled int       `json:"labelled"` // blocks with a stored label
	Complete bool      `json:"complete"` // every block labelled: exported and trained on
	Created  time.Time `json:"created"`
}

func pageAnswer(p *store.Page, project int64, blocks, labelled int) pageJSON {
	return pageJSON{ID: p.ID, Project: project, URL: p.URL, Name: pageName(p), Blocks: blocks, Labelled: labelled,
		Complete: blocks > 0 && labelled >= blocks, Created: p.Created}
}

// rawTypes are the Content-Types of a page sent as the raw body.
var rawTypes = []string{"text/html", "application/xhtml+xml", "text/plain", "application/octet-stream"}

// addPage is POST /v1/projects/{id}/pages: the raw HTML as the body (its
// address in ?url=), or JSON {"url": ..., "html": ...}. A page without
// text blocks is refused: there is nothing to label.
func (s *Service) addPage(w http.ResponseWriter, r *http.Request) error {
	proj, err := s.projectOf(r)
	if err != nil {
		return err
	}
	html, url, err := s.readPage(w, r)
	if err != nil {
		return err
	}
	res, err := s.segment(r.Context(), html, url)
	if err != nil {
		return newError(http.StatusUnprocessableEntity, "not_html", "the page cannot be read: %v", err)
	}
	n := len(res.Page.Blocks)
	if n == 0 {
		return newError(http.StatusUnprocessableEntity, "no_blocks", "the page has no text blocks: there is nothing to label")
	}
	p, err := s.cfg.Store.AddPage(r.Context(), proj.ID, url, html)
	if err != nil {
		return err
	}
	s.remember(*p, n)
	w.Header().Set("Location", fmt.Sprintf("/v1/projects/%d/pages/%d", proj.ID, p.ID))
	server.WriteJSON(w, r, http.StatusCreated, pageAnswer(p, proj.ID, n, 0))
	return nil
}

// readPage reads the page of a POST: raw, or JSON.
func (s *Service) readPage(w http.ResponseWriter, r *http.Request) (html []byte, url string, err error) {
	mt, err := mediaType(r)
	if err != nil {
		return nil, "", err
	}
	switch {
	case mt == "application/json":
		if err := server.CheckQuery(r); err != nil {
			return nil, "", err
		}
		var req struct {
			URL  string `json:"url"`
			HTML string `json:"html"`
		}
		// JSON escapes may double a page's size, and more.
		if err := decodeJSON(w, r, 2*s.cfg.MaxPageBytes+64<<10, &req, "url", "html"); err != nil {
			return nil, "", err
		}
		html, url = []byte(req.HTML), req.URL
	case mt == "" || slices.Contains(rawTypes, mt):
		if err := server.CheckQuery(r, "url"); err != nil {
			return nil, "", err
		}
		if html, err = server.ReadBodyLimit(w, r, s.cfg.MaxPageBytes); err != nil {
			return nil, "", err
		}
		url = r.URL.Query().Get("url")
	default:
		e := newError(http.StatusUnsupportedMediaType, "unsupported_media_type",
			"Content-Type %q: send the page as raw HTML (text/html) or as JSON {\"url\": ..., \"html\": ...} (application/json)", mt)
		e.valid = append(slices.Clone(rawTypes), "application/json")
		return nil, "", e
	}
	switch {
	case int64(len(html)) > s.cfg.MaxPageBytes:
		return nil, "", newError(http.StatusRequestEntityTooLarge, "body_too_large", "the page is larger than the limit of %d bytes", s.cfg.MaxPageBytes)
	case strings.TrimSpace(string(html)) == "":
		return nil, "", newError(http.StatusBadRequest, "empty_input", "no page: send its HTML")
	case len(url) > 2048 || !utf8.ValidString(url):
		return nil, "", newError(http.StatusBadRequest, "bad_url", "the page's url is longer than 2048 bytes or not UTF-8")
	}
	return html, url, nil
}

// listPages is GET /v1/projects/{id}/pages: the pages with their progress.
func (s *Service) listPages(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	proj, err := s.projectOf(r)
	if err != nil {
		return err
	}
	pages, prog, err := s.pageList(r.Context(), proj.ID)
	if err != nil {
		return err
	}
	server.WriteJSON(w, r, http.StatusOK, map[string]any{"pages": pages, "progress": prog})
	return nil
}

// pageOf reads the page of the path's {id} and {page}; 404 when the page
// is not the project's.
func (s *Service) pageOf(r *http.Request) (*store.Page, error) {
	proj, err := pathID(r, "id", "project")
	if err != nil {
		return nil, err
	}
	id, err := pathID(r, "page", "page")
	if err != nil {
		return nil, err
	}
	p, err := s.cfg.Store.Page(r.Context(), id)
	if err == nil && p.Project != proj {
		err = newError(http.StatusNotFound, "not_found", "project %d has no page %d", proj, id)
	}
	return p, err
}

// blockJSON is a block of a page in answers.
type blockJSON struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	Start int    `json:"start"` // byte span in the page's HTML
	End   int    `json:"end"`
	// Pre is the model's label, with its score (the probability of
	// content).
	Pre      string  `json:"prelabel"`
	PreScore float64 `json:"prelabel_score"`
	// Label is the stored human label, "" when there is none.
	Label  string `json:"label,omitempty"`
	Author string `json:"author,omitempty"`
}

// pageDetail is GET /v1/projects/{id}/pages/{page}.
type pageDetail struct {
	pageJSON
	Classes    []string    `json:"classes"` // the labels, in Victor's order
	BlockList  []blockJSON `json:"block_list"`
	StaleLabel int         `json:"stale_labels,omitempty"` // stored labels of blocks the page no longer has
}

// getPage is GET /v1/projects/{id}/pages/{page}: the page's blocks with
// the model's pre-labels and the stored labels.
func (s *Service) getPage(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	p, err := s.pageOf(r)
	if err != nil {
		return err
	}
	blocks, err := s.prelabel(r.Context(), p)
	if err != nil {
		return err
	}
	stored, err := s.cfg.Store.Labels(r.Context(), p.ID)
	if err != nil {
		return err
	}
	d := pageDetail{Classes: labelNames(), BlockList: blocks}
	labelled := 0
	for _, l := range stored {
		if l.Block >= len(blocks) {
			d.StaleLabel++
			continue
		}
		blocks[l.Block].Label, blocks[l.Block].Author = l.Label, l.Author
		labelled++
	}
	d.pageJSON = pageAnswer(p, p.Project, len(blocks), labelled)
	server.WriteJSON(w, r, http.StatusOK, d)
	return nil
}

// prelabel segments a page and labels its blocks with the model.
func (s *Service) prelabel(ctx context.Context, p *store.Page) ([]blockJSON, error) {
	res, err := s.segment(ctx, p.HTML, p.URL)
	if err != nil {
		return nil, err
	}
	pg := res.Page
	s.remember(*p, len(pg.Blocks))
	s.cl.Score(pg)
	out := make([]blockJSON, len(pg.Blocks))
	for i := range pg.Blocks {
		b := &pg.Blocks[i]
		out[i] = blockJSON{Index: i, Text: b.Text, Start: b.Source.Start, End: b.Source.End, Pre: b.Label.String(), PreScore: b.Score}
	}
	return out, nil
}

// labelNames are the names of the labels, in Victor's order of letters
// (o, h, p, l, c).
func labelNames() []string {
	return []string{page.Other.String(), page.Heading.String(), page.Paragraph.String(), page.ListItem.String(), page.Continuation.String()}
}

// parseLabel reads a label as people give it: sluice's names (heading,
// paragraph, list, continuation, other), Victor's letters (h, p, l, c, o)
// or class names (header), any case.
func parseLabel(s string) (page.Label, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "header":
		return page.Heading, true
	case "list item", "listitem", "list_item":
		return page.ListItem, true
	}
	return page.ParseLabel(s)
}

// labelsRequest is the body of PUT .../labels: one entry per block of the
// page, a label or null (that block's stored label left as it is).
type labelsRequest struct {
	Labels []*string `json:"labels"`
	Author string    `json:"author"`
}

// putLabels is PUT /v1/projects/{id}/pages/{page}/labels: the labels of
// the page's blocks, all of them or none.
func (s *Service) putLabels(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	p, err := s.pageOf(r)
	if err != nil {
		return err
	}
	var req labelsRequest
	if err := decodeJSON(w, r, 8<<20, &req, "labels", "author"); err != nil {
		return err
	}
	n, err := s.blockCount(r.Context(), *p)
	if err != nil {
		return err
	}
	labels, err := checkLabels(req, n)
	if err != nil {
		return err
	}
	if err := s.cfg.Store.SetLabels(r.Context(), p.ID, labels); err != nil {
		return err
	}
	counts, err := s.cfg.Store.LabelCounts(r.Context(), p.Project)
	if err != nil {
		return err
	}
	server.WriteJSON(w, r, http.StatusOK, pageAnswer(p, p.Project, n, min(counts[p.ID], n)))
	return nil
}

// checkLabels checks the labels sent for a page of n blocks and returns
// those to store.
func checkLabels(req labelsRequest, n int) ([]store.Label, error) {
	switch {
	case req.Labels == nil:
		return nil, newError(http.StatusBadRequest, "missing_field", "the body needs \"labels\": one label per block of the page (%d), or null to leave one as it is", n)
	case len(req.Labels) != n:
		return nil, newError(http.StatusUnprocessableEntity, "wrong_block_count",
			"%d labels for a page of %d blocks: send one per block, in order (null leaves a block's label as it is)", len(req.Labels), n)
	case len(req.Author) > maxNameLen:
		return nil, newError(http.StatusBadRequest, "bad_field", "the author's name is longer than %d bytes", maxNameLen)
	}
	var out []store.Label
	for i, l := range req.Labels {
		if l == nil {
			continue
		}
		lab, ok := parseLabel(*l)
		if !ok {
			e := newError(http.StatusBadRequest, "unknown_label", "block %d: unknown label %q (labels: h or heading, p or paragraph, l or list, c or continuation, o or other)", i, *l)
			e.valid = labelNames()
			return nil, e
		}
		out = append(out, store.Label{Block: i, Label: lab.String(), Author: req.Author})
	}
	return out, nil
}

// pageName is a page's name in exports: the host of its address and its
// id ("example.com_12", which gives training its site), or "page_12".
func pageName(p *store.Page) string {
	host := ""
	if u := p.URL; u != "" {
		if !strings.Contains(u, "://") {
			u = "http://" + u
		}
		if i := strings.Index(u, "://"); i >= 0 {
			host = u[i+3:]
			if j := strings.IndexAny(host, "/?#"); j >= 0 {
				host = host[:j]
			}
			if j := strings.LastIndexByte(host, '@'); j >= 0 {
				host = host[j+1:]
			}
			if j := strings.IndexByte(host, ':'); j >= 0 {
				host = host[:j]
			}
		}
	}
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' {
			return r
		}
		return -1
	}, host)
	clean = strings.Trim(clean, ".")
	if clean == "" {
		clean = "page"
	}
	return clean + "_" + strconv.FormatInt(p.ID, 10)
}
