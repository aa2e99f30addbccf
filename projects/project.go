package projects

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// projectJSON is a project in answers; Progress is left out of lists.
type projectJSON struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Created     time.Time `json:"created"`
	Progress    *progress `json:"progress,omitempty"`
}

// progress counts a project's pages and blocks, and those labelled.
type progress struct {
	Pages         int `json:"pages"`
	PagesComplete int `json:"pages_complete"` // every block labelled
	Blocks        int `json:"blocks"`
	Labelled      int `json:"labelled"`
}

func projectAnswer(p *store.Project) projectJSON {
	return projectJSON{ID: p.ID, Name: p.Name, Description: p.Description, Created: p.Created}
}

// maxNameLen caps the names of projects and models.
const maxNameLen = 100

// checkName checks the name of a project or model: 1 to 100 characters,
// no control characters, not all digits (ids are), no slash.
func checkName(name, what string) error {
	bad := func(why string) error {
		return newError(http.StatusBadRequest, "bad_name", "%s name %q: %s", what, name, why)
	}
	switch {
	case strings.TrimSpace(name) == "":
		return newError(http.StatusBadRequest, "missing_field", "the body needs \"name\": the %s's name", what)
	case len(name) > maxNameLen:
		return bad("longer than 100 bytes")
	case strings.ContainsAny(name, "/\\"):
		return bad("it may not hold a slash")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return bad("it may not hold control characters")
	}
	if _, err := strconv.ParseInt(name, 10, 64); err == nil {
		return bad("a number is an id; give a name with a letter in it")
	}
	return nil
}

// createProject is POST /v1/projects {"name": ..., "description": ...}.
func (s *Service) createProject(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	var req struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	if err := decodeJSON(w, r, 64<<10, &req, "name", "description"); err != nil {
		return err
	}
	if err := checkName(req.Name, "project"); err != nil {
		return err
	}
	p, err := s.cfg.Store.CreateProject(r.Context(), req.Name, req.Description)
	if err != nil {
		return err
	}
	a := projectAnswer(p)
	a.Progress = &progress{}
	w.Header().Set("Location", "/v1/projects/"+strconv.FormatInt(p.ID, 10))
	server.WriteJSON(w, r, http.StatusCreated, a)
	return nil
}

// listProjects is GET /v1/projects.
func (s *Service) listProjects(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	ps, err := s.cfg.Store.Projects(r.Context())
	if err != nil {
		return err
	}
	out := make([]projectJSON, len(ps))
	for i := range ps {
		out[i] = projectAnswer(&ps[i])
	}
	server.WriteJSON(w, r, http.StatusOK, map[string]any{"projects": out})
	return nil
}

// projectOf reads the project of the path's {id}.
func (s *Service) projectOf(r *http.Request) (*store.Project, error) {
	id, err := pathID(r, "id", "project")
	if err != nil {
		return nil, err
	}
	return s.cfg.Store.Project(r.Context(), id)
}

// getProject is GET /v1/projects/{id}: the project with its progress.
func (s *Service) getProject(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	p, err := s.projectOf(r)
	if err != nil {
		return err
	}
	_, prog, err := s.pageList(r.Context(), p.ID)
	if err != nil {
		return err
	}
	a := projectAnswer(p)
	a.Progress = prog
	server.WriteJSON(w, r, http.StatusOK, a)
	return nil
}

// deleteProject is DELETE /v1/projects/{id}: the project, its pages and
// their labels. Its models and training runs stay.
func (s *Service) deleteProject(w http.ResponseWriter, r *http.Request) error {
	if err := server.CheckQuery(r); err != nil {
		return err
	}
	id, err := pathID(r, "id", "project")
	if err != nil {
		return err
	}
	if err := s.cfg.Store.DeleteProject(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// pageList returns the pages of a project with their block and label
// counts, and the project's progress.
func (s *Service) pageList(ctx context.Context, project int64) ([]pageJSON, *progress, error) {
	pages, err := s.cfg.Store.Pages(ctx, project)
	if err != nil {
		return nil, nil, err
	}
	counts, err := s.cfg.Store.LabelCounts(ctx, project)
	if err != nil {
		return nil, nil, err
	}
	prog := &progress{Pages: len(pages)}
	out := make([]pageJSON, len(pages))
	for i, p := range pages {
		n, err := s.blockCount(ctx, p)
		if err != nil {
			return nil, nil, err
		}
		out[i] = pageAnswer(&p, project, n, min(counts[p.ID], n))
		prog.Blocks += n
		prog.Labelled += out[i].Labelled
		if out[i].Complete {
			prog.PagesComplete++
		}
	}
	return out, prog, nil
}
