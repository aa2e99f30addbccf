package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// RunStatus is where an evaluation run is.
type RunStatus string

// The statuses of a run. Queued and Running are the live ones; the others
// are final.
const (
	RunQueued      RunStatus = "queued"
	RunRunning     RunStatus = "running"
	RunDone        RunStatus = "done"
	RunFailed      RunStatus = "failed"
	RunCanceled    RunStatus = "canceled"    // by a client
	RunInterrupted RunStatus = "interrupted" // by a shutdown or a crash
)

// Final reports whether a run in status s is over.
func (s RunStatus) Final() bool { return s != RunQueued && s != RunRunning }

// Run is an evaluation of one version of a filter set on a data set.
type Run struct {
	ID        int64
	FilterSet string
	Version   int
	Data      string // the data set's folder
	Status    RunStatus
	Done      int             // pages evaluated
	Total     int             // pages to evaluate; 0 until known
	Result    json.RawMessage // when done
	Error     string          // when failed or interrupted
	Created   time.Time
	Started   time.Time // zero until running
	Finished  time.Time // zero until final
}

// CreateRun records a queued run.
func (d *DB) CreateRun(ctx context.Context, filterSet string, version int, data string) (*Run, error) {
	r := &Run{FilterSet: filterSet, Version: version, Data: data, Status: RunQueued}
	var err error
	r.ID, r.Created, err = d.insert(ctx, nil, "INSERT INTO eval_runs (filter_set, version, data, status, created) VALUES (?, ?, ?, ?, ?)",
		filterSet, version, data, RunQueued)
	return r, err
}

// StartRun marks a queued run running, with its total of pages.
func (d *DB) StartRun(ctx context.Context, id int64, total int) error {
	return d.updateRun(ctx, id, "status = ?, total = ?, started = ?", RunRunning, total, now())
}

// RunProgress records the pages done.
func (d *DB) RunProgress(ctx context.Context, id int64, done, total int) error {
	return d.updateRun(ctx, id, "done = ?, total = ?", done, total)
}

// FinishRun records the end of a run: its final status, the pages done,
// the result (JSON; nil for none) and the error message.
func (d *DB) FinishRun(ctx context.Context, id int64, status RunStatus, done int, result []byte, errMsg string) error {
	if !status.Final() {
		return fmt.Errorf("store: FinishRun with status %q, which is not final", status)
	}
	var res any
	if result != nil {
		res = string(result)
	}
	return d.updateRun(ctx, id, "status = ?, done = ?, result = ?, error = ?, finished = ?", status, done, res, errMsg, now())
}

// updateRun sets columns of a live run; ErrNotFound when there is no such
// run or it is over (a final status is never overwritten).
func (d *DB) updateRun(ctx context.Context, id int64, set string, args ...any) error {
	return d.updateLive(ctx, "eval_runs", "live run", id, set, args...)
}

// updateLive sets columns of the live (queued or running) row id of a
// runs table (eval_runs, train_runs); ErrNotFound, naming the row as what,
// when there is none or it is over.
func (d *DB) updateLive(ctx context.Context, table, what string, id int64, set string, args ...any) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE "+table+" SET "+set+" WHERE id = ? AND status IN ('queued', 'running')", append(args, id)...)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%s %d: %w", what, id, ErrNotFound)
		}
		return nil
	})
}

// InterruptRuns marks every live run (queued or running) interrupted, with
// the reason as its error, and returns how many there were. A server calls
// it when it starts: a live run in the file then is one whose process
// died.
func (d *DB) InterruptRuns(ctx context.Context, reason string) (int, error) {
	return d.interruptLive(ctx, "eval_runs", reason)
}

// interruptLive marks every live row of a runs table interrupted, with the
// reason as its error, and returns how many there were.
func (d *DB) interruptLive(ctx context.Context, table, reason string) (int, error) {
	var n int64
	err := d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE "+table+" SET status = ?, error = ?, finished = ? WHERE status IN ('queued', 'running')",
			RunInterrupted, reason, now())
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// Run returns the run with id.
func (d *DB) Run(ctx context.Context, id int64) (*Run, error) {
	var r Run
	var result, started, finished sql.NullString
	var created string
	err := d.db.QueryRowContext(ctx, `SELECT id, filter_set, version, data, status, done, total, result, error, created, started, finished
		FROM eval_runs WHERE id = ?`, id).Scan(&r.ID, &r.FilterSet, &r.Version, &r.Data, &r.Status, &r.Done, &r.Total,
		&result, &r.Error, &created, &started, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if result.Valid {
		r.Result = json.RawMessage(result.String)
	}
	r.Created, r.Started, r.Finished = parseTime(created), nullTime(started), nullTime(finished)
	return &r, nil
}
