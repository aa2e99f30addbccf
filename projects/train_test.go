package projects

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/label"
)

// waitRun polls a training run until it is over.
func (ts *testServer) waitRun(t *testing.T, id int64) runJSON {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var r runJSON
		ts.do(t, "GET", pathf("/v1/train/%d", id), "", nil).want(t, 200).json(t, &r)
		switch r.Status {
		case "done", "failed", "canceled", "interrupted":
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %d still %s: %+v", id, r.Status, r)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTrain trains a small model from a project to completion: it is
// listed, stored with its metrics, and loads and cleans.
func TestTrain(t *testing.T) {
	ts := startServer(t, "")
	proj, ids := ts.newProject(t, "rivers")
	ts.labelAll(t, proj, ids)
	var r runJSON
	a := ts.do(t, "POST", "/v1/train", "", map[string]any{"project": proj, "name": "rivers-1", "stages": []string{"crf"}, "iterations": 5}).want(t, 202)
	a.json(t, &r)
	if a.header.Get("Location") != pathf("/v1/train/%d", r.ID) || r.Kind != "train" || r.Project != "rivers" || r.Model != "rivers-1" {
		t.Errorf("202: %s, Location %q", a.body, a.header.Get("Location"))
	}
	r = ts.waitRun(t, r.ID)
	if r.Status != "done" || r.Error != "" || r.Started == nil || r.Finished == nil {
		t.Fatalf("run: %+v", r)
	}
	var prog trainProgress
	json.Unmarshal(r.Progress, &prog)
	if prog.Phase != "saving" || prog.Pages != 3 || prog.Loaded != 3 || prog.Iteration < 1 || prog.MaxIterations != 5 {
		t.Errorf("progress: %s", r.Progress)
	}
	var models struct {
		Models []modelJSON `json:"models"`
	}
	ts.do(t, "GET", "/v1/models", "", nil).want(t, 200).json(t, &models)
	if len(models.Models) != 1 || models.Models[0].Name != "rivers-1" || models.Models[0].Stages != "crf" {
		t.Fatalf("models: %+v", models.Models)
	}
	var m trainMetrics
	json.Unmarshal(models.Models[0].Metrics, &m)
	if m.Project != "rivers" || m.Pages != 3 || m.Blocks != 15 || m.Labels["paragraph"] != 3 || m.Labels["continuation"] != 1 || m.Features == 0 {
		t.Errorf("metrics: %s", models.Models[0].Metrics)
	}
	stored, err := ts.db.Model(context.Background(), "rivers-1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := label.Load(stored.Data); err != nil {
		t.Fatalf("the stored model does not load: %v", err)
	}
	cl, err := sluice.New(sluice.Options{Model: stored.Data})
	if err != nil {
		t.Fatal(err)
	}
	res, err := cl.Clean(context.Background(), sluice.Input{Data: []byte(testPages[2].html)})
	if err != nil || len(res.Page.Blocks) != 3 {
		t.Fatalf("cleaning with the model: %v", err)
	}
	// By name, over HTTP: POST /v1/clean with "model": "rivers-1" cleans
	// with it.
	body, _ := json.Marshal(map[string]any{"html": testPages[2].html, "model": "rivers-1", "format": "json"})
	if a := ts.do(t, "POST", "/v1/clean", "application/json", body).want(t, 200); a.header.Get("Sluice-Model") != "rivers-1" {
		t.Errorf("clean with the model by name: Sluice-Model %q", a.header.Get("Sluice-Model"))
	} else if labels := strings.Count(string(a.body), `"label"`); labels == 0 {
		t.Errorf("clean with the model by name kept nothing: %s", a.body)
	}

	// The name is taken now.
	if a := ts.do(t, "POST", "/v1/train", "", map[string]any{"project": proj, "name": "rivers-1"}); a.status != 409 || a.code(t) != "exists" {
		t.Errorf("a taken name: %d %s", a.status, a.body)
	}
	var runs struct {
		Runs []runJSON `json:"runs"`
	}
	ts.do(t, "GET", "/v1/train", "", nil).want(t, 200).json(t, &runs)
	if len(runs.Runs) != 1 || runs.Runs[0].Status != "done" || !strings.Contains(string(runs.Runs[0].Result), `"model":"rivers-1"`) {
		t.Errorf("runs: %+v", runs.Runs)
	}
}

// TestTrainErrors checks the refusals of POST /v1/train and a run that
// fails for want of labelled pages.
func TestTrainErrors(t *testing.T) {
	ts := startServer(t, "")
	proj, _ := ts.newProject(t, "rivers")
	for _, c := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"no project", map[string]any{"name": "m"}, 400, "missing_field"},
		{"no such project", map[string]any{"project": 999, "name": "m"}, 404, "not_found"},
		{"no name", map[string]any{"project": proj}, 400, "missing_field"},
		{"unknown stage", map[string]any{"project": proj, "name": "m", "stages": []string{"crf", "magic"}}, 400, "bad_stages"},
		{"one fold", map[string]any{"project": proj, "name": "m", "cv": 1}, 400, "bad_field"},
		{"negative iterations", map[string]any{"project": proj, "name": "m", "iterations": -1}, 400, "bad_field"},
		{"unknown field", map[string]any{"project": proj, "name": "m", "trees": 3}, 400, "unknown_field"},
	} {
		if a := ts.do(t, "POST", "/v1/train", "", c.body); a.status != c.status || a.code(t) != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, a.status, a.body, c.status, c.code)
		}
	}
	var r runJSON
	ts.do(t, "POST", "/v1/train", "", map[string]any{"project": proj, "name": "m", "stages": []string{"crf"}, "iterations": 2}).want(t, 202).json(t, &r)
	if r = ts.waitRun(t, r.ID); r.Status != "failed" || !strings.Contains(r.Error, "no page whose every block is labelled") {
		t.Errorf("a project without labels: %+v", r)
	}
	if a := ts.do(t, "POST", pathf("/v1/train/%d/cancel", r.ID), "", nil); a.status != 409 || a.code(t) != "job_over" {
		t.Errorf("cancelling a run over: %d %s", a.status, a.body)
	}
	ts.do(t, "GET", "/v1/train/999", "", nil).want(t, 404)
}

// TestTrainCancelAndShutdown cancels a running training run, then shuts
// the server down with one running and one queued: both are recorded
// interrupted.
func TestTrainCancelAndShutdown(t *testing.T) {
	ts := startServer(t, "")
	proj, ids := ts.newProject(t, "rivers")
	ts.labelAll(t, proj, ids)
	started := make(chan struct{}, 4)
	ts.svc.trainHook = func(ctx context.Context) {
		started <- struct{}{}
		<-ctx.Done() // holds the run until it is cancelled
	}
	body := func(name string) map[string]any {
		return map[string]any{"project": proj, "name": name, "stages": []string{"crf"}, "iterations": 2}
	}
	var a, b, c runJSON
	ts.do(t, "POST", "/v1/train", "", body("a")).want(t, 202).json(t, &a)
	<-started
	ts.do(t, "POST", pathf("/v1/train/%d/cancel", a.ID), "", nil).want(t, 200)
	if a = ts.waitRun(t, a.ID); a.Status != "canceled" || a.Error != "canceled by a client" {
		t.Errorf("cancelled run: %+v", a)
	}
	ts.do(t, "POST", "/v1/train", "", body("b")).want(t, 202).json(t, &b)
	<-started
	ts.do(t, "POST", "/v1/train", "", body("c")).want(t, 202).json(t, &c)
	ts.shutdown(t, 50*time.Millisecond)
	for _, id := range []int64{b.ID, c.ID} {
		r, err := ts.db.TrainRun(context.Background(), id)
		if err != nil || r.Status != "interrupted" || r.Error != "the server shut down" {
			t.Errorf("run %d after shutdown: %+v, %v", id, r, err)
		}
	}
	if ms, _ := ts.db.Models(context.Background()); len(ms) != 0 {
		t.Errorf("models of runs that never ended: %+v", ms)
	}
}
