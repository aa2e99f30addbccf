// Package store is sluice's embedded database: filter sets with their
// history, annotation projects with their pages and block labels, trained
// models, and evaluation runs, in one SQLite file.
//
// SQLite is reached through the pure-Go driver modernc.org/sqlite, so the
// sluice binary stays static (no cgo). A DB is opened in WAL mode (readers
// do not wait for the writer), with foreign keys enforced, a busy timeout
// for the moments another connection writes, and synchronous=FULL: a write
// that returned is on disk, and survives the process being killed (or the
// machine losing power) a moment later. Every write is one transaction.
//
// The schema is versioned (migrations.go): Open brings an older file up to
// date, one numbered step at a time, each in its own transaction, and
// refuses a file written by a newer sluice.
//
//	db, err := store.Open(filepath.Join(dir, "sluice.db"))
//	fs, created, err := db.PutFilterSet(ctx, "news", "toml", text)
//	versions, err := db.FilterSetVersions(ctx, "news")
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// Errors that callers test for with errors.Is.
var (
	// ErrNotFound: no such filter set, version, run, project, page or model.
	ErrNotFound = errors.New("not found")
	// ErrExists: the name is taken.
	ErrExists = errors.New("already exists")
)

// DB is an open store. It is safe for concurrent use.
type DB struct {
	db   *sql.DB
	path string
}

// BusyTimeout is how long a write waits for another connection's write
// (in this process or another) before it fails.
const BusyTimeout = 5 * time.Second

// Open opens the store in the file at path, creating it when it does not
// exist (its directory must), and migrates its schema to the latest
// version. It fails on a file that is not a SQLite database and on one
// whose schema is newer than this sluice knows.
func Open(path string) (*DB, error) {
	return open(path, len(migrations))
}

// open opens the store and migrates it up to schema version upTo (tests
// migrate to older versions).
func open(path string, upTo int) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate") // a write transaction takes the lock first: no upgrade deadlocks
	// A file: URI with the path escaped, so that no character of the path
	// ('?', '#', '%') is read as part of the query.
	dsn := (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	d := &DB{db: db, path: path}
	if err := d.migrate(context.Background(), upTo); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return d, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// Path returns the file the store was opened from.
func (d *DB) Path() string { return d.path }

// Check runs SQLite's integrity check and fails unless it finds the file
// sound.
func (d *DB) Check(ctx context.Context) error {
	rows, err := d.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("store: %s: integrity check: %v", d.path, problems)
	}
	return nil
}

// tx runs fn in a write transaction, committed when fn returns nil and
// rolled back otherwise.
func (d *DB) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// insert runs one INSERT in a transaction of its own, the current time
// appended to its arguments, and returns the new row's id and that time.
// known, when not nil, names a constraint error (a taken name...) as the
// caller's error; nil leaves it as the store's.
func (d *DB) insert(ctx context.Context, known func(error) error, query string, args ...any) (id int64, at time.Time, err error) {
	t := now()
	err = d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, append(args, t)...)
		if known != nil && err != nil {
			if kerr := known(err); kerr != nil {
				return kerr
			}
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		id, err = res.LastInsertId()
		return err
	})
	return id, parseTime(t), err
}

// queryAll runs a query and reads every row with scan.
func queryAll[T any](ctx context.Context, q querier, scan func(row interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		x, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// timeFormat is how times are stored: UTC, sortable as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// now returns the current time as stored.
func now() string { return time.Now().UTC().Format(timeFormat) }

// parseTime reads a stored time; "" is the zero time.
func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

// nullTime reads a stored time that may be NULL.
func nullTime(s sql.NullString) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	return parseTime(s.String)
}
