package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// TrainRun is the training of a model from an annotation project, queued,
// running or over; its statuses are those of evaluation runs.
type TrainRun struct {
	ID       int64
	Project  string // the project's name
	Model    string // the name the model is saved under
	Settings json.RawMessage
	Status   RunStatus
	Progress json.RawMessage // the last progress written
	Result   json.RawMessage // when done
	Error    string          // when failed, canceled or interrupted
	Created  time.Time
	Started  time.Time // zero until running
	Finished time.Time // zero until final
}

// CreateTrainRun records a queued training run.
func (d *DB) CreateTrainRun(ctx context.Context, project, model string, settings json.RawMessage) (*TrainRun, error) {
	if len(settings) == 0 {
		settings = json.RawMessage("{}")
	}
	if !json.Valid(settings) {
		return nil, fmt.Errorf("store: training run of %q: the settings are not JSON", model)
	}
	r := &TrainRun{Project: project, Model: model, Settings: settings, Status: RunQueued, Progress: json.RawMessage("{}")}
	var err error
	r.ID, r.Created, err = d.insert(ctx, nil, "INSERT INTO train_runs (project, model, settings, status, created) VALUES (?, ?, ?, ?, ?)",
		project, model, string(settings), RunQueued)
	return r, err
}

// StartTrainRun marks a queued training run running.
func (d *DB) StartTrainRun(ctx context.Context, id int64) error {
	return d.updateTrainRun(ctx, id, "status = ?, started = ?", RunRunning, now())
}

// TrainRunProgress records a live run's progress (JSON).
func (d *DB) TrainRunProgress(ctx context.Context, id int64, progress json.RawMessage) error {
	return d.updateTrainRun(ctx, id, "progress = ?", string(progress))
}

// FinishTrainRun records the end of a training run: its final status, the
// result (JSON; nil for none) and the error message.
func (d *DB) FinishTrainRun(ctx context.Context, id int64, status RunStatus, result json.RawMessage, errMsg string) error {
	if !status.Final() {
		return fmt.Errorf("store: FinishTrainRun with status %q, which is not final", status)
	}
	var res any
	if result != nil {
		res = string(result)
	}
	return d.updateTrainRun(ctx, id, "status = ?, result = ?, error = ?, finished = ?", status, res, errMsg, now())
}

// updateTrainRun sets columns of a live training run; ErrNotFound when
// there is none or it is over.
func (d *DB) updateTrainRun(ctx context.Context, id int64, set string, args ...any) error {
	return d.updateLive(ctx, "train_runs", "live training run", id, set, args...)
}

// InterruptTrainRuns marks every live training run interrupted, with the
// reason as its error, and returns how many there were: at start, a live
// run in the file is one whose process died.
func (d *DB) InterruptTrainRuns(ctx context.Context, reason string) (int, error) {
	return d.interruptLive(ctx, "train_runs", reason)
}

// trainRunColumns are the columns scanTrainRun reads.
const trainRunColumns = "id, project, model, settings, status, progress, result, error, created, started, finished"

// scanTrainRun reads a row of trainRunColumns.
func scanTrainRun(row interface{ Scan(...any) error }) (TrainRun, error) {
	var r TrainRun
	var settings, progress, created string
	var result, started, finished sql.NullString
	err := row.Scan(&r.ID, &r.Project, &r.Model, &settings, &r.Status, &progress, &result, &r.Error, &created, &started, &finished)
	if err != nil {
		return r, err
	}
	r.Settings, r.Progress = json.RawMessage(settings), json.RawMessage(progress)
	if result.Valid {
		r.Result = json.RawMessage(result.String)
	}
	r.Created, r.Started, r.Finished = parseTime(created), nullTime(started), nullTime(finished)
	return r, nil
}

// TrainRun returns the training run with id.
func (d *DB) TrainRun(ctx context.Context, id int64) (*TrainRun, error) {
	r, err := scanTrainRun(d.db.QueryRowContext(ctx, "SELECT "+trainRunColumns+" FROM train_runs WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("training run %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// TrainRuns returns the training runs, the latest first.
func (d *DB) TrainRuns(ctx context.Context) ([]TrainRun, error) {
	return queryAll(ctx, d.db, scanTrainRun, "SELECT "+trainRunColumns+" FROM train_runs ORDER BY id DESC")
}
