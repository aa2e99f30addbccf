package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func openTemp(t *testing.T) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "sluice.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// tables lists the tables of the database.
func tables(t *testing.T, db *DB) string {
	t.Helper()
	rows, err := db.db.Query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		names = append(names, n)
	}
	return strings.Join(names, " ")
}

func TestOpenMigratesEmpty(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	v, err := db.SchemaVersion(ctx)
	if err != nil || v != LatestSchema() {
		t.Fatalf("schema version %d (%v), want %d", v, err, LatestSchema())
	}
	want := "eval_runs filter_set_versions filter_sets labels models pages projects schema_migrations train_runs"
	if got := tables(t, db); got != want {
		t.Errorf("tables %q, want %q", got, want)
	}
	var mode string
	var fk, sync int
	db.db.QueryRow("PRAGMA journal_mode").Scan(&mode)
	db.db.QueryRow("PRAGMA foreign_keys").Scan(&fk)
	db.db.QueryRow("PRAGMA synchronous").Scan(&sync)
	if mode != "wal" || fk != 1 || sync != 2 {
		t.Errorf("journal_mode %q, foreign_keys %d, synchronous %d: want wal, 1, 2 (FULL)", mode, fk, sync)
	}
	if err := db.Check(ctx); err != nil {
		t.Error(err)
	}
}

// TestMigrateForward: a file at schema version 1, with data, is brought to
// the latest version by Open, the data kept.
func TestMigrateForward(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	ctx := context.Background()
	old, err := open(path, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := old.SchemaVersion(ctx); v != 1 {
		t.Fatalf("schema version %d, want 1", v)
	}
	if strings.Contains(tables(t, old), "projects") {
		t.Fatal("version 1 has the tables of version 2")
	}
	if _, err := old.CreateFilterSet(ctx, "kept", "toml", "version = 1\nname = \"kept\"\n"); err != nil {
		t.Fatal(err)
	}
	old.Close()

	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, _ := db.SchemaVersion(ctx); v != LatestSchema() {
		t.Errorf("schema version %d after Open, want %d", v, LatestSchema())
	}
	if fs, err := db.FilterSet(ctx, "kept"); err != nil || fs.Version != 1 {
		t.Errorf("the set saved at version 1: %+v, %v", fs, err)
	}
	if _, err := db.CreateProject(ctx, "p", ""); err != nil {
		t.Errorf("a table of version 2: %v", err)
	}
	var steps int
	db.db.QueryRow("SELECT COUNT(*) FROM schema_migrations").Scan(&steps)
	if steps != LatestSchema() {
		t.Errorf("%d migration rows, want %d", steps, LatestSchema())
	}
}

// TestMigrateRefusesFuture: a file written by a newer sluice is refused,
// and left as it was.
func TestMigrateRefusesFuture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	future := LatestSchema() + 7
	if _, err := db.db.Exec("INSERT INTO schema_migrations (version, applied) VALUES (?, ?)", future, now()); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), "newer than this sluice knows") || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a future file: %v; want a refusal naming the file and the versions", err)
	}
	raw, _ := sql.Open("sqlite", path)
	defer raw.Close()
	var v int
	raw.QueryRow("SELECT MAX(version) FROM schema_migrations").Scan(&v)
	if v != future {
		t.Errorf("the refused file's version became %d", v)
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "text.db")
	if err := writeFile(path, strings.Repeat("not a database\n", 100)); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(path); err == nil {
		db.Close()
		t.Fatal("Open of a text file succeeded")
	}
}

func TestFilterSetHistory(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	a1, err := db.CreateFilterSet(ctx, "news", "toml", "v1")
	if err != nil || a1.Version != 1 || a1.VersionID == 0 {
		t.Fatalf("create: %+v, %v", a1, err)
	}
	if _, err := db.CreateFilterSet(ctx, "news", "toml", "again"); !errors.Is(err, ErrExists) {
		t.Errorf("create of a taken name: %v, want ErrExists", err)
	}
	a2, created, err := db.PutFilterSet(ctx, "news", "json", "v2")
	if err != nil || created || a2.Version != 2 || !a2.Created.Equal(a1.Created) || a2.VersionID == a1.VersionID {
		t.Fatalf("put: %+v, created %v, %v", a2, created, err)
	}
	same, created, err := db.PutFilterSet(ctx, "news", "json", "v2")
	if err != nil || created || same.Version != 2 {
		t.Errorf("put of the same text: version %d, %v: want version 2 kept", same.Version, err)
	}
	b, created, err := db.PutFilterSet(ctx, "blog", "toml", "b1")
	if err != nil || !created || b.Version != 1 {
		t.Errorf("put of a new set: %+v, created %v, %v", b, created, err)
	}
	if _, _, err := db.PutFilterSet(ctx, "x", "yaml", "x"); err == nil {
		t.Error("a yaml set was saved")
	}

	latest, err := db.FilterSet(ctx, "news")
	if err != nil || latest.Text != "v2" || latest.Format != "json" {
		t.Errorf("latest: %+v, %v", latest, err)
	}
	v1, err := db.FilterSetVersion(ctx, "news", 1)
	if err != nil || v1.Text != "v1" || v1.Format != "toml" {
		t.Errorf("version 1: %+v, %v", v1, err)
	}
	if _, err := db.FilterSetVersion(ctx, "news", 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("version 3: %v, want ErrNotFound", err)
	}
	vs, err := db.FilterSetVersions(ctx, "news")
	if err != nil || len(vs) != 2 || vs[0].Version != 1 || vs[1].Version != 2 {
		t.Errorf("versions: %+v, %v", vs, err)
	}
	all, err := db.FilterSets(ctx)
	if err != nil || len(all) != 2 || all[0].Name != "blog" || all[1].Name != "news" || all[1].Version != 2 {
		t.Errorf("list: %+v, %v", all, err)
	}

	if err := db.DeleteFilterSet(ctx, "news"); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteFilterSet(ctx, "news"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v, want ErrNotFound", err)
	}
	if _, err := db.FilterSetVersions(ctx, "news"); !errors.Is(err, ErrNotFound) {
		t.Errorf("versions of a deleted set: %v, want ErrNotFound", err)
	}
	var orphans int
	db.db.QueryRow("SELECT COUNT(*) FROM filter_set_versions WHERE set_id NOT IN (SELECT id FROM filter_sets)").Scan(&orphans)
	if orphans != 0 {
		t.Errorf("%d versions left of the deleted set", orphans)
	}
	again, err := db.CreateFilterSet(ctx, "news", "toml", "new")
	if err != nil || again.Version != 1 || again.VersionID <= a2.VersionID {
		t.Errorf("a set created again: %+v, %v: want version 1 with a new version id", again, err)
	}
}

func TestRuns(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	r, err := db.CreateRun(ctx, "news", 2, "/data/set")
	if err != nil || r.Status != RunQueued {
		t.Fatalf("create: %+v, %v", r, err)
	}
	if err := db.StartRun(ctx, r.ID, 10); err != nil {
		t.Fatal(err)
	}
	if err := db.RunProgress(ctx, r.ID, 4, 10); err != nil {
		t.Fatal(err)
	}
	got, err := db.Run(ctx, r.ID)
	if err != nil || got.Status != RunRunning || got.Done != 4 || got.Total != 10 || got.Started.IsZero() || !got.Finished.IsZero() {
		t.Errorf("running: %+v, %v", got, err)
	}
	if err := db.FinishRun(ctx, r.ID, RunRunning, 0, nil, ""); err == nil {
		t.Error("FinishRun took a live status")
	}
	if err := db.FinishRun(ctx, r.ID, RunDone, 10, []byte(`{"f1":0.5}`), ""); err != nil {
		t.Fatal(err)
	}
	got, _ = db.Run(ctx, r.ID)
	if got.Status != RunDone || string(got.Result) != `{"f1":0.5}` || got.Finished.IsZero() || got.FilterSet != "news" || got.Version != 2 || got.Data != "/data/set" {
		t.Errorf("done: %+v", got)
	}
	if err := db.RunProgress(ctx, r.ID, 1, 10); !errors.Is(err, ErrNotFound) {
		t.Errorf("progress on a finished run: %v, want ErrNotFound", err)
	}
	if _, err := db.Run(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("no such run: %v", err)
	}

	q, _ := db.CreateRun(ctx, "news", 2, "/d")
	s, _ := db.CreateRun(ctx, "news", 2, "/d")
	db.StartRun(ctx, s.ID, 3)
	n, err := db.InterruptRuns(ctx, "the server stopped")
	if err != nil || n != 2 {
		t.Errorf("InterruptRuns: %d, %v; want 2", n, err)
	}
	for _, id := range []int64{q.ID, s.ID} {
		if got, _ := db.Run(ctx, id); got.Status != RunInterrupted || got.Error != "the server stopped" {
			t.Errorf("run %d after InterruptRuns: %+v", id, got)
		}
	}
	if got, _ := db.Run(ctx, r.ID); got.Status != RunDone {
		t.Errorf("a finished run was interrupted: %+v", got)
	}
}

func TestAnnotations(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	p, err := db.CreateProject(ctx, "news", "news pages")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateProject(ctx, "news", ""); !errors.Is(err, ErrExists) {
		t.Errorf("a taken project name: %v", err)
	}
	pg, err := db.AddPage(ctx, p.ID, "http://example.com/a", []byte("<p>a</p>"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddPage(ctx, 999, "", []byte("x")); !errors.Is(err, ErrNotFound) {
		t.Errorf("a page of no project: %v, want ErrNotFound", err)
	}
	if err := db.SetLabels(ctx, pg.ID, []Label{{Block: 0, Label: "heading", Author: "ann"}, {Block: 1, Label: "other", Author: "ann"}}); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLabels(ctx, pg.ID, []Label{{Block: 1, Label: "paragraph", Author: "bob"}}); err != nil {
		t.Fatal(err)
	}
	// All or none: a bad block leaves the good one before it unwritten.
	if err := db.SetLabels(ctx, pg.ID, []Label{{Block: 0, Label: "other"}, {Block: -1, Label: "other"}}); err == nil {
		t.Error("a negative block was labelled")
	}
	ls, err := db.Labels(ctx, pg.ID)
	if err != nil || len(ls) != 2 || ls[0].Label != "heading" || ls[1].Label != "paragraph" || ls[1].Author != "bob" {
		t.Errorf("labels: %+v, %v", ls, err)
	}
	pages, err := db.Pages(ctx, p.ID)
	if err != nil || len(pages) != 1 || pages[0].URL != "http://example.com/a" || pages[0].HTML != nil {
		t.Errorf("pages: %+v, %v", pages, err)
	}
	full, err := db.Page(ctx, pg.ID)
	if err != nil || string(full.HTML) != "<p>a</p>" {
		t.Errorf("page: %+v, %v", full, err)
	}
	if ps, _ := db.Projects(ctx); len(ps) != 1 || ps[0].Description != "news pages" {
		t.Errorf("projects: %+v", ps)
	}
	if got, err := db.Project(ctx, p.ID); err != nil || got.Name != "news" || got.Description != "news pages" {
		t.Errorf("project: %+v, %v", got, err)
	}
	if counts, err := db.LabelCounts(ctx, p.ID); err != nil || len(counts) != 1 || counts[pg.ID] != 2 {
		t.Errorf("label counts: %v, %v", counts, err)
	}
	if err := db.DeleteProject(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteProject(ctx, p.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting it again: %v, want ErrNotFound", err)
	}
	if _, err := db.Page(ctx, pg.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("a page of a deleted project: %v, want ErrNotFound", err)
	}
	if ls, _ := db.Labels(ctx, pg.ID); len(ls) != 0 {
		t.Errorf("labels of a deleted project's page: %+v", ls)
	}
}

func TestTrainRuns(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	a, err := db.CreateTrainRun(ctx, "news", "news-1", json.RawMessage(`{"stages":["crf"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := db.CreateTrainRun(ctx, "news", "news-2", nil)
	if err := db.StartTrainRun(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.TrainRunProgress(ctx, a.ID, json.RawMessage(`{"iteration":3}`)); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishTrainRun(ctx, a.ID, RunDone, json.RawMessage(`{"pages":2}`), ""); err != nil {
		t.Fatal(err)
	}
	if err := db.FinishTrainRun(ctx, a.ID, RunFailed, nil, "again"); !errors.Is(err, ErrNotFound) {
		t.Errorf("finishing a run over: %v, want ErrNotFound", err)
	}
	if n, err := db.InterruptTrainRuns(ctx, "the server died"); n != 1 || err != nil {
		t.Errorf("interrupted %d (%v), want 1", n, err)
	}
	r, err := db.TrainRun(ctx, a.ID)
	if err != nil || r.Status != RunDone || string(r.Progress) != `{"iteration":3}` || string(r.Result) != `{"pages":2}` ||
		string(r.Settings) != `{"stages":["crf"]}` || r.Started.IsZero() || r.Finished.IsZero() {
		t.Errorf("run a: %+v, %v", r, err)
	}
	r, _ = db.TrainRun(ctx, b.ID)
	if r.Status != RunInterrupted || r.Error != "the server died" || string(r.Settings) != "{}" {
		t.Errorf("run b: %+v", r)
	}
	if runs, err := db.TrainRuns(ctx); err != nil || len(runs) != 2 || runs[0].ID != b.ID {
		t.Errorf("runs: %+v, %v", runs, err)
	}
	if _, err := db.TrainRun(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("no such run: %v", err)
	}
}

func TestModels(t *testing.T) {
	db := openTemp(t)
	ctx := context.Background()
	if _, err := db.SaveModel(ctx, Model{Name: "m1", Data: []byte{0, 1, 2}, Stages: "crf", Metrics: []byte(`{"f1":0.9}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveModel(ctx, Model{Name: "m1", Data: []byte{1}}); !errors.Is(err, ErrExists) {
		t.Errorf("a taken model name: %v", err)
	}
	if _, err := db.SaveModel(ctx, Model{Name: "bad", Data: []byte{1}, Metrics: []byte("{")}); err == nil {
		t.Error("metrics that are not JSON were saved")
	}
	m, err := db.Model(ctx, "m1")
	if err != nil || len(m.Data) != 3 || m.Stages != "crf" || string(m.Metrics) != `{"f1":0.9}` {
		t.Errorf("model: %+v, %v", m, err)
	}
	if list, _ := db.Models(ctx); len(list) != 1 || list[0].Data != nil {
		t.Errorf("models: %+v", list)
	}
	if _, err := db.Model(ctx, "none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("no such model: %v", err)
	}
}

// TestConcurrentWrites: writers on several connections at once (and two
// handles on one file, as two processes would have) wait for each other
// instead of failing, and every save gets its own version.
func TestConcurrentWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "busy.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	const n = 40
	errs := make(chan error, n)
	for i := range n {
		db := a
		if i%2 == 1 {
			db = b
		}
		go func() {
			_, _, err := db.PutFilterSet(ctx, "shared", "toml", fmt.Sprintf("save %d", i))
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	vs, err := a.FilterSetVersions(ctx, "shared")
	if err != nil || len(vs) != n {
		t.Fatalf("%d versions (%v), want %d", len(vs), err, n)
	}
	seen := map[string]bool{}
	for i, v := range vs {
		if v.Version != i+1 || seen[v.Text] {
			t.Errorf("version %d: %+v", i+1, v)
		}
		seen[v.Text] = true
	}
}
