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
	err := d.tx(ctx, func(tx *sql.Tx) error {
		t := now()
		res, err := tx.ExecContext(ctx, "INSERT INTO projects (name, description, created) VALUES (?, ?, ?)", name, description, t)
		if isUnique(err) {
			return fmt.Errorf("project %q: %w", name, ErrExists)
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		p.Created = parseTime(t)
		p.ID, err = res.LastInsertId()
		return err
	})
	return p, err
}

// Projects returns the projects, by name.
func (d *DB) Projects(ctx context.Context) ([]Project, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT id, name, description, created FROM projects ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Project
	for rows.Next() {
		var p Project
		var created string
		if err := rows.Scan(&p.ID, &p.Name, &p.Description, &created); err != nil {
			return nil, err
		}
		p.Created = parseTime(created)
		out = append(out, p)
	}
	return out, rows.Err()
}

// AddPage adds a page to a project; ErrNotFound when there is no such
// project.
func (d *DB) AddPage(ctx context.Context, project int64, url string, html []byte) (*Page, error) {
	p := &Page{Project: project, URL: url, HTML: html}
	err := d.tx(ctx, func(tx *sql.Tx) error {
		t := now()
		res, err := tx.ExecContext(ctx, "INSERT INTO pages (project_id, url, html, created) VALUES (?, ?, ?, ?)", project, url, html, t)
		if isForeignKey(err) {
			return fmt.Errorf("project %d: %w", project, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		p.Created = parseTime(t)
		p.ID, err = res.LastInsertId()
		return err
	})
	return p, err
}

// Pages returns the pages of a project in the order they were added,
// without their HTML.
func (d *DB) Pages(ctx context.Context, project int64) ([]Page, error) {
	rows, err := d.db.QueryContext(ctx, "SELECT id, url, created FROM pages WHERE project_id = ? ORDER BY id", project)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Page
	for rows.Next() {
		p := Page{Project: project}
		var created string
		if err := rows.Scan(&p.ID, &p.URL, &created); err != nil {
			return nil, err
		}
		p.Created = parseTime(created)
		out = append(out, p)
	}
	return out, rows.Err()
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
	rows, err := d.db.QueryContext(ctx, "SELECT block, label, author, updated FROM labels WHERE page_id = ? ORDER BY block", page)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Label
	for rows.Next() {
		var l Label
		var updated string
		if err := rows.Scan(&l.Block, &l.Label, &l.Author, &updated); err != nil {
			return nil, err
		}
		l.Updated = parseTime(updated)
		out = append(out, l)
	}
	return out, rows.Err()
}

// isUnique reports whether err is a violated UNIQUE constraint.
func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// isForeignKey reports whether err is a violated foreign key.
func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}
