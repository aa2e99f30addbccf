package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema's steps: migrations[i] brings a database at
// version i to version i+1. A step, once released, never changes: a change
// to the schema is a new step at the end.
var migrations = []string{
	// 1: filter sets with their history, and evaluation runs.
	`CREATE TABLE filter_sets (
		id      INTEGER PRIMARY KEY,
		name    TEXT NOT NULL UNIQUE,
		created TEXT NOT NULL
	);
	CREATE TABLE filter_set_versions (
		-- id is unique over the database and never reused (AUTOINCREMENT),
		-- even after a set is deleted and created again: a cache key.
		id      INTEGER PRIMARY KEY AUTOINCREMENT,
		set_id  INTEGER NOT NULL REFERENCES filter_sets(id) ON DELETE CASCADE,
		version INTEGER NOT NULL CHECK (version >= 1),
		format  TEXT NOT NULL CHECK (format IN ('toml', 'json')),
		body    TEXT NOT NULL,
		created TEXT NOT NULL,
		UNIQUE (set_id, version)
	);
	CREATE TABLE eval_runs (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		filter_set TEXT NOT NULL,    -- by name and version: a run outlives its set
		version    INTEGER NOT NULL,
		data       TEXT NOT NULL,    -- the data set's folder
		status     TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'canceled', 'interrupted')),
		done       INTEGER NOT NULL DEFAULT 0,
		total      INTEGER NOT NULL DEFAULT 0,
		result     TEXT,             -- JSON, when done
		error      TEXT NOT NULL DEFAULT '',
		created    TEXT NOT NULL,
		started    TEXT,
		finished   TEXT
	);
	CREATE INDEX eval_runs_status ON eval_runs(status);`,

	// 2: annotation projects, their pages and block labels; trained models.
	`CREATE TABLE projects (
		id          INTEGER PRIMARY KEY,
		name        TEXT NOT NULL UNIQUE,
		description TEXT NOT NULL DEFAULT '',
		created     TEXT NOT NULL
	);
	CREATE TABLE pages (
		id         INTEGER PRIMARY KEY,
		project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
		url        TEXT NOT NULL DEFAULT '',
		html       BLOB NOT NULL,
		created    TEXT NOT NULL
	);
	CREATE INDEX pages_project ON pages(project_id);
	CREATE TABLE labels (
		page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
		block   INTEGER NOT NULL CHECK (block >= 0),
		label   TEXT NOT NULL,
		author  TEXT NOT NULL DEFAULT '',
		updated TEXT NOT NULL,
		PRIMARY KEY (page_id, block)
	) WITHOUT ROWID;
	CREATE TABLE models (
		id      INTEGER PRIMARY KEY,
		name    TEXT NOT NULL UNIQUE,
		data    BLOB NOT NULL,
		stages  TEXT NOT NULL DEFAULT '',
		metrics TEXT NOT NULL DEFAULT '{}', -- JSON
		created TEXT NOT NULL
	);`,

	// 3: training runs (POST /v1/train): a model trained from a project.
	`CREATE TABLE train_runs (
		id       INTEGER PRIMARY KEY AUTOINCREMENT,
		project  TEXT NOT NULL,    -- by name: a run outlives its project
		model    TEXT NOT NULL,    -- the name the model is saved under
		settings TEXT NOT NULL DEFAULT '{}', -- JSON: stages, iterations...
		status   TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'canceled', 'interrupted')),
		progress TEXT NOT NULL DEFAULT '{}', -- JSON, written now and then
		result   TEXT,             -- JSON, when done
		error    TEXT NOT NULL DEFAULT '',
		created  TEXT NOT NULL,
		started  TEXT,
		finished TEXT
	);
	CREATE INDEX train_runs_status ON train_runs(status);`,
}

// SchemaVersion returns the version of the database's schema.
func (d *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := d.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}

// LatestSchema is the schema version this sluice writes.
func LatestSchema() int { return len(migrations) }

// migrate brings the schema to version upTo, one step per transaction. A
// database whose version is above what this sluice knows is refused:
// its tables may mean something this code would get wrong.
func (d *DB) migrate(ctx context.Context, upTo int) error {
	err := d.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY,
			applied TEXT NOT NULL
		)`)
		return err
	})
	if err != nil {
		return fmt.Errorf("not a sluice database, or not writable: %w", err)
	}
	for {
		done, err := d.step(ctx, upTo)
		if err != nil || done {
			return err
		}
	}
}

// step applies the next migration, if any is due, in one transaction
// (which also re-reads the version, so that two processes opening the same
// new file do not both apply a step). It reports whether the schema is at
// upTo.
func (d *DB) step(ctx context.Context, upTo int) (done bool, err error) {
	err = d.tx(ctx, func(tx *sql.Tx) error {
		var v int
		if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v); err != nil {
			return err
		}
		switch {
		case v > len(migrations):
			return fmt.Errorf("the database's schema is version %d, newer than this sluice knows (%d): it was written by a newer sluice; use that one, or another --db", v, len(migrations))
		case v >= upTo:
			done = true
			return nil
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			return fmt.Errorf("migration %d: %w", v+1, err)
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, applied) VALUES (?, ?)", v+1, now())
		return err
	})
	return done, err
}
