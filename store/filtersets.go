package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// FilterSet is one saved version of a filter set: the file's text as it
// was sent, in its format. The store does not read the text; package
// filterset does.
type FilterSet struct {
	Name    string
	Version int // 1 for the first save, then one more per save
	// VersionID identifies this version in the whole database and is never
	// reused, even by a set deleted and created again under the same name:
	// a key for what is built from the text.
	VersionID int64
	Format    string    // "toml" or "json"
	Text      string    // the file
	Created   time.Time // when the set was first saved
	Updated   time.Time // when this version was saved
}

// formats are the formats a filter set may be stored in.
func checkFormat(format string) error {
	if format != "toml" && format != "json" {
		return fmt.Errorf("store: filter set format %q: want toml or json", format)
	}
	return nil
}

// CreateFilterSet saves version 1 of a new set; ErrExists when the name is
// taken.
func (d *DB) CreateFilterSet(ctx context.Context, name, format, text string) (*FilterSet, error) {
	if err := checkFormat(format); err != nil {
		return nil, err
	}
	var fs *FilterSet
	err := d.tx(ctx, func(tx *sql.Tx) error {
		var err error
		fs, err = latestFilterSet(ctx, tx, name)
		switch {
		case err == nil:
			return fmt.Errorf("filter set %q: %w", name, ErrExists)
		case !errors.Is(err, ErrNotFound):
			return err
		}
		fs, err = saveFilterSet(ctx, tx, nil, name, format, text)
		return err
	})
	return fs, err
}

// PutFilterSet saves text as the next version of the set, creating the set
// when there is none (created is then true). Text and format identical to
// the latest version's save nothing: the latest version is returned.
func (d *DB) PutFilterSet(ctx context.Context, name, format, text string) (fs *FilterSet, created bool, err error) {
	if err := checkFormat(format); err != nil {
		return nil, false, err
	}
	err = d.tx(ctx, func(tx *sql.Tx) error {
		prev, err := latestFilterSet(ctx, tx, name)
		switch {
		case errors.Is(err, ErrNotFound):
			prev, created = nil, true
		case err != nil:
			return err
		case prev.Format == format && prev.Text == text:
			fs = prev
			return nil
		}
		fs, err = saveFilterSet(ctx, tx, prev, name, format, text)
		return err
	})
	return fs, created, err
}

// saveFilterSet writes the version after prev (the first of a new set when
// prev is nil).
func saveFilterSet(ctx context.Context, tx *sql.Tx, prev *FilterSet, name, format, text string) (*FilterSet, error) {
	t := now()
	fs := &FilterSet{Name: name, Version: 1, Format: format, Text: text, Updated: parseTime(t)}
	var setID int64
	if prev == nil {
		res, err := tx.ExecContext(ctx, "INSERT INTO filter_sets (name, created) VALUES (?, ?)", name, t)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if setID, err = res.LastInsertId(); err != nil {
			return nil, err
		}
		fs.Created = fs.Updated
	} else {
		if err := tx.QueryRowContext(ctx, "SELECT id FROM filter_sets WHERE name = ?", name).Scan(&setID); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		fs.Version, fs.Created = prev.Version+1, prev.Created
	}
	res, err := tx.ExecContext(ctx, "INSERT INTO filter_set_versions (set_id, version, format, body, created) VALUES (?, ?, ?, ?, ?)",
		setID, fs.Version, format, text, t)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	fs.VersionID, err = res.LastInsertId()
	return fs, err
}

// querier is what reads need of a *sql.DB or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// filterSetColumns are the columns scanFilterSet reads.
const filterSetColumns = `s.name, v.version, v.id, v.format, v.body, s.created, v.created
	FROM filter_sets s JOIN filter_set_versions v ON v.set_id = s.id`

// scanFilterSet reads a row of filterSetColumns.
func scanFilterSet(row interface{ Scan(...any) error }) (*FilterSet, error) {
	var fs FilterSet
	var created, updated string
	if err := row.Scan(&fs.Name, &fs.Version, &fs.VersionID, &fs.Format, &fs.Text, &created, &updated); err != nil {
		return nil, err
	}
	fs.Created, fs.Updated = parseTime(created), parseTime(updated)
	return &fs, nil
}

// latestFilterSet reads the latest version of the set called name.
func latestFilterSet(ctx context.Context, q querier, name string) (*FilterSet, error) {
	fs, err := scanFilterSet(q.QueryRowContext(ctx, "SELECT "+filterSetColumns+
		" WHERE s.name = ? ORDER BY v.version DESC LIMIT 1", name))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("filter set %q: %w", name, ErrNotFound)
	}
	return fs, err
}

// FilterSet returns the latest version of the set called name.
func (d *DB) FilterSet(ctx context.Context, name string) (*FilterSet, error) {
	return latestFilterSet(ctx, d.db, name)
}

// FilterSetVersion returns version v of the set called name.
func (d *DB) FilterSetVersion(ctx context.Context, name string, v int) (*FilterSet, error) {
	fs, err := scanFilterSet(d.db.QueryRowContext(ctx, "SELECT "+filterSetColumns+
		" WHERE s.name = ? AND v.version = ?", name, v))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("filter set %q version %d: %w", name, v, ErrNotFound)
	}
	return fs, err
}

// FilterSets returns the latest version of every set, by name.
func (d *DB) FilterSets(ctx context.Context) ([]FilterSet, error) {
	return listFilterSets(ctx, d.db, "SELECT "+filterSetColumns+
		" WHERE v.version = (SELECT MAX(version) FROM filter_set_versions WHERE set_id = s.id) ORDER BY s.name")
}

// FilterSetVersions returns every saved version of the set called name,
// the first first; ErrNotFound when there is no such set.
func (d *DB) FilterSetVersions(ctx context.Context, name string) ([]FilterSet, error) {
	list, err := listFilterSets(ctx, d.db, "SELECT "+filterSetColumns+" WHERE s.name = ? ORDER BY v.version", name)
	if err == nil && len(list) == 0 {
		err = fmt.Errorf("filter set %q: %w", name, ErrNotFound)
	}
	return list, err
}

func listFilterSets(ctx context.Context, q querier, query string, args ...any) ([]FilterSet, error) {
	return queryAll(ctx, q, func(row interface{ Scan(...any) error }) (FilterSet, error) {
		fs, err := scanFilterSet(row)
		if err != nil {
			return FilterSet{}, err
		}
		return *fs, nil
	}, query, args...)
}

// DeleteFilterSet deletes the set called name and its history (evaluation
// runs keep its name and version); ErrNotFound when there is none.
func (d *DB) DeleteFilterSet(ctx context.Context, name string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM filter_sets WHERE name = ?", name)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("filter set %q: %w", name, ErrNotFound)
		}
		return nil
	})
}
