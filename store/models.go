package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Model is a trained model: the file sluice train writes, with what it
// was trained as and how it scored.
type Model struct {
	ID      int64
	Name    string
	Data    []byte          // the model file; Models leaves it out
	Stages  string          // its labeller stages, as sluice train --stages names them
	Metrics json.RawMessage // its scores, JSON
	Created time.Time
}

// SaveModel records a new model; ErrExists when the name is taken.
func (d *DB) SaveModel(ctx context.Context, m Model) (*Model, error) {
	if len(m.Metrics) == 0 {
		m.Metrics = json.RawMessage("{}")
	}
	if !json.Valid(m.Metrics) {
		return nil, fmt.Errorf("store: model %q: the metrics are not JSON", m.Name)
	}
	var err error
	m.ID, m.Created, err = d.insert(ctx, func(err error) error {
		if isUnique(err) {
			return fmt.Errorf("model %q: %w", m.Name, ErrExists)
		}
		return nil
	}, "INSERT INTO models (name, data, stages, metrics, created) VALUES (?, ?, ?, ?, ?)", m.Name, m.Data, m.Stages, string(m.Metrics))
	return &m, err
}

// Model returns the model called name, with its file.
func (d *DB) Model(ctx context.Context, name string) (*Model, error) {
	m := &Model{Name: name}
	var metrics, created string
	err := d.db.QueryRowContext(ctx, "SELECT id, data, stages, metrics, created FROM models WHERE name = ?", name).
		Scan(&m.ID, &m.Data, &m.Stages, &metrics, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("model %q: %w", name, ErrNotFound)
	}
	m.Metrics, m.Created = json.RawMessage(metrics), parseTime(created)
	return m, err
}

// ModelInfo returns the model called name without its file: what a
// caller needs to know whether a model it has loaded is still the one
// stored under the name (the id is never reused).
func (d *DB) ModelInfo(ctx context.Context, name string) (*Model, error) {
	m := &Model{Name: name}
	var metrics, created string
	err := d.db.QueryRowContext(ctx, "SELECT id, stages, metrics, created FROM models WHERE name = ?", name).
		Scan(&m.ID, &m.Stages, &metrics, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("model %q: %w", name, ErrNotFound)
	}
	m.Metrics, m.Created = json.RawMessage(metrics), parseTime(created)
	return m, err
}

// Models returns the models by name, without their files.
func (d *DB) Models(ctx context.Context) ([]Model, error) {
	return queryAll(ctx, d.db, func(row interface{ Scan(...any) error }) (Model, error) {
		var m Model
		var metrics, created string
		err := row.Scan(&m.ID, &m.Name, &m.Stages, &metrics, &created)
		m.Metrics, m.Created = json.RawMessage(metrics), parseTime(created)
		return m, err
	}, "SELECT id, name, stages, metrics, created FROM models ORDER BY name")
}
