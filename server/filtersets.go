package server

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filterset"
	"github.com/sluice-project/sluice/jobs"
	"github.com/sluice-project/sluice/store"
)

// The filter sets of the store: named, versioned cleaning pipelines
// (package filterset), kept as the file that was sent.
//
//	GET    /v1/filter-sets                  the sets, latest versions
//	POST   /v1/filter-sets                  create one (its name is in the file)
//	GET    /v1/filter-sets/{name}           the latest version, or ?version=N
//	PUT    /v1/filter-sets/{name}           save a new version (or create)
//	DELETE /v1/filter-sets/{name}           delete it and its history
//	GET    /v1/filter-sets/{name}/versions  every version
//	POST   /v1/filter-sets/{name}/evaluate  evaluate it on a data set (jobs.go)

// storeRoutes are the routes of the store; none without one. They are all
// management routes, reads too: stored sets and jobs (which name paths on
// the server) are the operator's, so beyond loopback they need the token.
func (s *Server) storeRoutes() []Route {
	if s.cfg.Store == nil {
		return nil
	}
	h := func(f http.HandlerFunc) http.Handler { return f }
	return []Route{
		{Method: http.MethodGet, Path: "/v1/filter-sets", Management: true, Handler: h(s.listFilterSets)},
		{Method: http.MethodPost, Path: "/v1/filter-sets", Management: true, Handler: h(s.createFilterSet)},
		{Method: http.MethodGet, Path: "/v1/filter-sets/{name}", Management: true, Handler: h(s.getFilterSet)},
		{Method: http.MethodPut, Path: "/v1/filter-sets/{name}", Management: true, Handler: h(s.putFilterSet)},
		{Method: http.MethodDelete, Path: "/v1/filter-sets/{name}", Management: true, Handler: h(s.deleteFilterSet)},
		{Method: http.MethodGet, Path: "/v1/filter-sets/{name}/versions", Management: true, Handler: h(s.filterSetVersions)},
		{Method: http.MethodPost, Path: "/v1/filter-sets/{name}/evaluate", Management: true, Handler: h(s.evaluateFilterSet)},
		{Method: http.MethodGet, Path: "/v1/jobs/{id}", Management: true, Handler: h(s.getJob)},
		{Method: http.MethodPost, Path: "/v1/jobs/{id}/cancel", Management: true, Handler: h(s.cancelJob)},
	}
}

// setupStore resolves the data root, marks the runs a previous process
// left live as interrupted, and makes the job runner.
func (s *Server) setupStore() error {
	if s.cfg.Store == nil {
		return nil
	}
	root := s.cfg.DataRoot
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return fmt.Errorf("server: data root: %w", err)
	}
	s.dataRoot = abs
	n, err := s.cfg.Store.InterruptRuns(context.Background(), "the server stopped before the run ended")
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	if n > 0 {
		s.log.Warn("evaluation runs left unfinished by a previous server marked interrupted", "runs", n)
	}
	s.jobs = jobs.NewRunner(s.cfg.Store, s.log)
	return nil
}

// filterSetJSON is a filter set in answers. Text is left out of lists.
type filterSetJSON struct {
	Name        string    `json:"name"`
	Version     int       `json:"version"`
	Format      string    `json:"format"`
	Description string    `json:"description,omitempty"`
	Filter      string    `json:"filter,omitempty"` // the pipeline's expression; "" for a model set
	Summary     string    `json:"summary,omitempty"`
	Text        string    `json:"text,omitempty"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	// Error says why a stored set no longer reads (a filter that was
	// removed from sluice...); such a set cannot clean.
	Error string `json:"error,omitempty"`
}

// setJSON describes fs; withText adds the file.
func (s *Server) setJSON(fs *store.FilterSet, withText bool) filterSetJSON {
	j := filterSetJSON{Name: fs.Name, Version: fs.Version, Format: fs.Format, Created: fs.Created, Updated: fs.Updated}
	if withText {
		j.Text = fs.Text
	}
	set, err := filterset.Parse([]byte(fs.Text), filterset.Format(fs.Format))
	if err != nil {
		j.Error = err.Error()
		return j
	}
	j.Description, j.Filter, j.Summary = set.Description, set.Filter, set.Summary()
	return j
}

// listFilterSets is GET /v1/filter-sets.
func (s *Server) listFilterSets(w http.ResponseWriter, r *http.Request) {
	if apiErr := checkQuery(r, nil); apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	sets, err := s.cfg.Store.FilterSets(r.Context())
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	out := make([]filterSetJSON, len(sets))
	for i := range sets {
		out[i] = s.setJSON(&sets[i], false)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"filter_sets": out})
}

// getFilterSet is GET /v1/filter-sets/{name}, the latest version or
// ?version=N.
func (s *Server) getFilterSet(w http.ResponseWriter, r *http.Request) {
	if apiErr := checkQuery(r, []string{"version"}); apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	name := r.PathValue("name")
	var (
		fs  *store.FilterSet
		err error
	)
	if v := r.URL.Query().Get("version"); v != "" {
		n, perr := strconv.Atoi(v)
		if perr != nil || n < 1 {
			WriteError(w, r, http.StatusBadRequest, "bad_query", fmt.Sprintf("version=%q: want a version number (1, 2...)", v))
			return
		}
		fs, err = s.cfg.Store.FilterSetVersion(r.Context(), name, n)
	} else {
		fs, err = s.cfg.Store.FilterSet(r.Context(), name)
	}
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	writeJSON(w, r, http.StatusOK, s.setJSON(fs, true))
}

// filterSetVersions is GET /v1/filter-sets/{name}/versions.
func (s *Server) filterSetVersions(w http.ResponseWriter, r *http.Request) {
	if apiErr := checkQuery(r, nil); apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	list, err := s.cfg.Store.FilterSetVersions(r.Context(), r.PathValue("name"))
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	out := make([]filterSetJSON, len(list))
	for i := range list {
		out[i] = s.setJSON(&list[i], false)
	}
	writeJSON(w, r, http.StatusOK, map[string]any{"name": r.PathValue("name"), "versions": out})
}

// createFilterSet is POST /v1/filter-sets: the set is named by its file.
func (s *Server) createFilterSet(w http.ResponseWriter, r *http.Request) {
	body, format, set, apiErr := s.readFilterSet(w, r)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	fs, err := s.cfg.Store.CreateFilterSet(r.Context(), set.Name, string(format), string(body))
	if errors.Is(err, store.ErrExists) {
		WriteError(w, r, http.StatusConflict, "exists",
			fmt.Sprintf("there is already a filter set %q: save a new version with PUT /v1/filter-sets/%s, or give the set another name", set.Name, set.Name))
		return
	}
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	w.Header().Set("Location", "/v1/filter-sets/"+url.PathEscape(fs.Name))
	writeJSON(w, r, http.StatusCreated, s.setJSON(fs, true))
}

// putFilterSet is PUT /v1/filter-sets/{name}: a new version, or the first.
// The file's name must be the path's. Sending the latest version's file
// again saves nothing.
func (s *Server) putFilterSet(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	body, format, set, apiErr := s.readFilterSet(w, r)
	if apiErr != nil {
		writeAPIError(w, r, apiErr)
		return
	}
	if set.Name != name {
		msg := fmt.Sprintf("the file names the set %q, the path %q: a set is saved under its own name", set.Name, name)
		WriteError(w, r, http.StatusUnprocessableEntity, "invalid_filter_set", msg, WithProblems([]Problem{{Message: msg}}))
		return
	}
	fs, created, err := s.cfg.Store.PutFilterSet(r.Context(), name, string(format), string(body))
	if err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
		w.Header().Set("Location", "/v1/filter-sets/"+url.PathEscape(fs.Name))
	}
	writeJSON(w, r, status, s.setJSON(fs, true))
}

// deleteFilterSet is DELETE /v1/filter-sets/{name}.
func (s *Server) deleteFilterSet(w http.ResponseWriter, r *http.Request) {
	if err := s.cfg.Store.DeleteFilterSet(r.Context(), r.PathValue("name")); err != nil {
		writeAPIError(w, r, storeError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// setTypes are the media types of a filter-set body, by format.
var setTypes = map[string]filterset.Format{
	"application/toml": filterset.TOML, "text/toml": filterset.TOML, "text/x-toml": filterset.TOML,
	"application/json": filterset.JSON,
}

// readFilterSet reads a filter-set file from the body, in the format of
// ?format= or of the Content-Type, and checks it as sluice clean
// --filter-set would, building its cleaner.
func (s *Server) readFilterSet(w http.ResponseWriter, r *http.Request) ([]byte, filterset.Format, *filterset.Set, *APIError) {
	if apiErr := checkQuery(r, []string{"format"}); apiErr != nil {
		return nil, "", nil, apiErr
	}
	valid := []string{"application/json", "application/toml", "?format=json", "?format=toml"}
	var format filterset.Format
	switch q := r.URL.Query().Get("format"); q {
	case "toml", "json":
		format = filterset.Format(q)
	case "":
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		var ok bool
		if format, ok = setTypes[mt]; !ok {
			return nil, "", nil, newError(http.StatusUnsupportedMediaType, "unsupported_media_type",
				fmt.Sprintf("Content-Type %q: send the filter set as TOML (application/toml) or JSON (application/json), or say which with ?format=toml or ?format=json", mt), WithValid(valid))
		}
	default:
		return nil, "", nil, newError(http.StatusBadRequest, "bad_query", fmt.Sprintf("format=%q: want toml or json", q), WithValid([]string{"json", "toml"}))
	}
	body, apiErr := readBodyLimit(w, r, filterset.MaxFileSize, "(the largest filter-set file)")
	if apiErr != nil {
		return nil, "", nil, apiErr
	}
	set, probs := s.checkSet(body, format)
	if probs != nil {
		msg := fmt.Sprintf("the filter set is not valid (%d problems): ", len(probs))
		if len(probs) == 1 {
			msg = "the filter set is not valid: "
		}
		msg += problemString(probs[0])
		return nil, "", nil, newError(http.StatusUnprocessableEntity, "invalid_filter_set", msg, WithProblems(probs))
	}
	return body, format, set, nil
}

// checkSet parses a filter-set file and builds its cleaner, returning the
// problems found, with their positions.
func (s *Server) checkSet(text []byte, format filterset.Format) (*filterset.Set, []Problem) {
	set, err := s.parseSet(text, format)
	if err == nil {
		_, err = set.Cleaner(sluice.Options{})
	}
	if err == nil {
		return set, nil
	}
	var list filterset.ErrorList
	var one *filterset.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = filterset.ErrorList{one}
	default:
		return nil, []Problem{{Message: err.Error()}}
	}
	probs := make([]Problem, len(list))
	for i, e := range list {
		probs[i] = Problem{Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg}
	}
	return nil, probs
}

// parseSet parses a stored filter-set file. A model file it names is
// taken relative to the data root, and must be inside it.
func (s *Server) parseSet(text []byte, format filterset.Format) (*filterset.Set, error) {
	set, err := filterset.Parse(text, format)
	if err != nil {
		return nil, err
	}
	if set.Model != nil && set.Model.File != "" {
		p, apiErr := s.dataPath(set.Model.File, "model file")
		if apiErr != nil {
			return nil, fmt.Errorf("model.file: %s", apiErr.Message)
		}
		set.Model.File = p
	}
	return set, nil
}

// setCleaner returns the cleaner of the stored filter set a clean request
// names (its latest version), with the request's threshold when it gives
// one; built once per version and threshold.
func (s *Server) setCleaner(ctx context.Context, req *cleanRequest) (*sluice.Cleaner, *APIError) {
	switch {
	case s.cfg.Store == nil:
		return nil, newError(http.StatusBadRequest, "bad_filter_set", "this server keeps no filter sets (sluice serve --db): use filter, style and threshold")
	case req.Filter != "" || req.Style != "":
		return nil, newError(http.StatusBadRequest, "bad_options", "filter_set decides the filter and the style: give filter_set, or filter and style, not both")
	}
	fs, err := s.cfg.Store.FilterSet(ctx, req.FilterSet)
	if errors.Is(err, store.ErrNotFound) {
		var names []string
		if sets, err := s.cfg.Store.FilterSets(ctx); err == nil {
			for _, x := range sets {
				names = append(names, x.Name)
			}
		}
		return nil, newError(http.StatusBadRequest, "unknown_filter_set", fmt.Sprintf("there is no filter set %q (GET /v1/filter-sets lists them)", req.FilterSet), WithValid(names))
	}
	if err != nil {
		return nil, storeError(err)
	}
	req.setVersion = fs.Name + "@" + strconv.Itoa(fs.Version)
	k := cleanerKey{set: fs.VersionID, threshold: req.Threshold}
	cl, err := s.cleaners.getWith(k, func() (*sluice.Cleaner, error) {
		set, err := s.parseSet([]byte(fs.Text), filterset.Format(fs.Format))
		if err != nil {
			return nil, err
		}
		return set.Cleaner(sluice.Options{Threshold: req.Threshold})
	})
	if err != nil {
		return nil, newError(http.StatusBadRequest, "bad_filter_set", fmt.Sprintf("filter set %s: %v", req.setVersion, err))
	}
	return cl, nil
}

// checkQuery refuses query parameters not in known, and those given twice.
func checkQuery(r *http.Request, known []string) *APIError {
	_, apiErr := parseQuery(r.URL.RawQuery, known)
	return apiErr
}

// storeError answers a store error: 404 for what is not there, 500 else.
func storeError(err error) *APIError {
	if errors.Is(err, store.ErrNotFound) {
		return newError(http.StatusNotFound, "not_found", err.Error())
	}
	return newError(http.StatusInternalServerError, "store", "the store failed: "+err.Error())
}

// problemString formats a problem as LINE:COL: message.
func problemString(p Problem) string {
	if p.Line == 0 {
		return p.Message
	}
	return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)
}
