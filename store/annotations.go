package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Project is an annotation project: a named collection of pages whose
// blocks people label.
type Project struct {
	ID          int64
	Name        string
	Description string
	Created     time.Time
}

// Page is a page of a project. Pages lists them without their HTML.
type Page struct {
	ID      int64
	Project int64
	URL     string
	HTML    []byte
	Created time.Time
}

// Label is the label of one block of a page, with who gave it and when.
type Label struct {
	Block   int    // the block's index in the page
	Label   string // "heading", "paragraph", "other"...
	Author  string
	Updated time.Time
}

// CreateProject records a new project; ErrExists when the name is taken.
func (d *DB) CreateProject(ctx context.Context, name, description string) (*Project, error) {
	p := &Project{Name: name, Description: description}
	var err error
	p.ID, p.Created, err = d.insert(ctx, func(err error) error {
		if isUnique(err) {
			return fmt.Errorf("project %q: %w", name, ErrExists)
		}
		return nil
	}, "INSERT INTO projects (name, description, created) VALUES (?, ?, ?)", name, description)
	return p, err
}

// Projects returns the projects, by name.
func (d *DB) Projects(ctx context.Context) ([]Project, error) {
	return queryAll(ctx, d.db, func(row interface{ Scan(...any) error }) (Project, error) {
		var p Project
		var created string
		err := row.Scan(&p.ID, &p.Name, &p.Description, &created)
		p.Created = parseTime(created)
		return p, err
	}, "SELECT id, name, description, created FROM projects ORDER BY name")
}

// AddPage adds a page to a project; ErrNotFound when there is no such
// project.
func (d *DB) AddPage(ctx context.Context, project int64, url string, html []byte) (*Page, error) {
	p := &Page{Project: project, URL: url, HTML: html}
	var err error
	p.ID, p.Created, err = d.insert(ctx, func(err error) error {
		if isForeignKey(err) {
			return fmt.Errorf("project %d: %w", project, ErrNotFound)
		}
		return nil
	}, "INSERT INTO pages (project_id, url, html, created) VALUES (?, ?, ?, ?)", project, url, html)
	return p, err
}

// Pages returns the pages of a project in the order they were added,
// without their HTML.
func (d *DB) Pages(ctx context.Context, project int64) ([]Page, error) {
	return queryAll(ctx, d.db, func(row interface{ Scan(...any) error }) (Page, error) {
		p := Page{Project: project}
		var created string
		err := row.Scan(&p.ID, &p.URL, &created)
		p.Created = parseTime(created)
		return p, err
	}, "SELECT id, url, created FROM pages WHERE project_id = ? ORDER BY id", project)
}

// Page returns a page with its HTML.
func (d *DB) Page(ctx context.Context, id int64) (*Page, error) {
	p := &Page{ID: id}
	var created string
	err := d.db.QueryRowContext(ctx, "SELECT project_id, url, html, created FROM pages WHERE id = ?", id).Scan(&p.Project, &p.URL, &p.HTML, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("page %d: %w", id, ErrNotFound)
	}
	p.Created = parseTime(created)
	return p, err
}

// SetLabels records labels of blocks of a page, all or none: a block
// labelled before gets the new label, author and time.
func (d *DB) SetLabels(ctx context.Context, page int64, labels []Label) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		t := now()
		for _, l := range labels {
			_, err := tx.ExecContext(ctx, `INSERT INTO labels (page_id, block, label, author, updated) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (page_id, block) DO UPDATE SET label = excluded.label, author = excluded.author, updated = excluded.updated`,
				page, l.Block, l.Label, l.Author, t)
			if isForeignKey(err) {
				return fmt.Errorf("page %d: %w", page, ErrNotFound)
			}
			if err != nil {
				return fmt.Errorf("store: block %d: %w", l.Block, err)
			}
		}
		return nil
	})
}

// Labels returns the labels of a page's blocks, by block.
func (d *DB) Labels(ctx context.Context, page int64) ([]Label, error) {
	return queryAll(ctx, d.db, func(row interface{ Scan(...any) error }) (Label, error) {
		var l Label
		var updated string
		err := row.Scan(&l.Block, &l.Label, &l.Author, &updated)
		l.Updated = parseTime(updated)
		return l, err
	}, "SELECT block, label, author, updated FROM labels WHERE page_id = ? ORDER BY block", page)
}

// isUnique reports whether err is a violated UNIQUE constraint.
func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// isForeignKey reports whether err is a violated foreign key.
func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// Project returns the project with id.
func (d *DB) Project(ctx context.Context, id int64) (*Project, error) {
	p := &Project{ID: id}
	var created string
	err := d.db.QueryRowContext(ctx, "SELECT name, description, created FROM projects WHERE id = ?", id).Scan(&p.Name, &p.Description, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("project %d: %w", id, ErrNotFound)
	}
	p.Created = parseTime(created)
	return p, err
}

// DeleteProject deletes a project with its pages and their labels;
// ErrNotFound when there is no such project.
func (d *DB) DeleteProject(ctx context.Context, id int64) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM projects WHERE id = ?", id)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("project %d: %w", id, ErrNotFound)
		}
		return nil
	})
}

// LabelCounts returns how many blocks of each page of a project have a
// label, by page id (pages without labels are left out).
func (d *DB) LabelCounts(ctx context.Context, project int64) (map[int64]int, error) {
	type count struct {
		page int64
		n    int
	}
	rows, err := queryAll(ctx, d.db, func(row interface{ Scan(...any) error }) (count, error) {
		var c count
		err := row.Scan(&c.page, &c.n)
		return c, err
	}, "SELECT l.page_id, COUNT(*) FROM labels l JOIN pages p ON p.id = l.page_id WHERE p.project_id = ? GROUP BY l.page_id", project)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int, len(rows))
	for _, c := range rows {
		out[c.page] = c.n
	}
	return out, nil
}
