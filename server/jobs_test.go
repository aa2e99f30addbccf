package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/store"
)

// tinyDataSet writes a CleanEval-layout data set of three pages (html/ and
// gold/) in root/name.
func tinyDataSet(t *testing.T, root, name string) string {
	t.Helper()
	dir := filepath.Join(root, name)
	for _, d := range []string{"html", "gold"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, topic := range []string{"water mills", "bee keeping", "bread baking"} {
		html := fmt.Sprintf(`<html><head><title>%[1]s</title></head><body>
<div class="nav"><a href="/">Home</a> | <a href="/a">About</a> | <a href="/c">Contact</a></div>
<h1>All about %[1]s</h1>
<p>This is a long paragraph about %[1]s, written so that a cleaner keeps it: it has many words, a full stop and no links at all.</p>
<p>A second paragraph tells more about %[1]s, the history of the craft, its tools, and the people who practise it today.</p>
<div class="footer"><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></div>
</body></html>`, topic)
		gold := fmt.Sprintf("URL: http://example.org/%d.html\n\n<h>All about %[2]s\n\n<p>This is a long paragraph about %[2]s, written so that a cleaner keeps it: it has many words, a full stop and no links at all.\n\n<p>A second paragraph tells more about %[2]s, the history of the craft, its tools, and the people who practise it today.\n", i+1, topic)
		os.WriteFile(filepath.Join(dir, "html", fmt.Sprint(i+1)+".html"), []byte(html), 0o644)
		os.WriteFile(filepath.Join(dir, "gold", fmt.Sprint(i+1)+".txt"), []byte(gold), 0o644)
	}
	return dir
}

// decodeJob decodes a job answer.
func decodeJob(t *testing.T, a answer) jobJSON {
	t.Helper()
	var j jobJSON
	if err := json.Unmarshal(a.body, &j); err != nil {
		t.Fatalf("%s: %v", a.body, err)
	}
	return j
}

// waitJob polls the job until until says yes, at most 30 s.
func waitJob(t *testing.T, url string, until func(jobJSON) bool) jobJSON {
	t.Helper()
	var j jobJSON
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		a := do(t, "GET", url, "", nil)
		if a.status != 200 {
			t.Fatalf("GET %s: status %d, %s", url, a.status, a.body)
		}
		if j = decodeJob(t, a); until(j) {
			return j
		}
	}
	t.Fatalf("job %s: still %+v after 30 s", url, j)
	return j
}

// startEvaluation creates the strict set and starts its evaluation on
// data, returning the job's URL.
func startEvaluation(t *testing.T, ts *testServer, data string) string {
	t.Helper()
	do(t, "PUT", ts.url+"/v1/filter-sets/strict", "application/toml", []byte(strictSet))
	a := do(t, "POST", ts.url+"/v1/filter-sets/strict/evaluate", "application/json", []byte(`{"data": "`+data+`"}`))
	if a.status != http.StatusAccepted || !strings.HasPrefix(a.header.Get("Location"), "/v1/jobs/") {
		t.Fatalf("evaluate: status %d, Location %q, %s", a.status, a.header.Get("Location"), a.body)
	}
	return ts.url + a.header.Get("Location")
}

func TestEvaluateJob(t *testing.T) {
	root := t.TempDir()
	tinyDataSet(t, root, "tiny")
	ts := startServer(t, Config{Store: testStore(t), DataRoot: root})
	job := startEvaluation(t, ts, "tiny")
	j := waitJob(t, job, func(j jobJSON) bool { return j.Status != "queued" && j.Status != "running" })
	if j.Status != "done" || j.Progress.Done != 3 || j.Progress.Total != 3 || j.FilterSet != "strict" || j.Version != 1 ||
		j.Started == nil || j.Finished == nil || j.Kind != "evaluate" {
		t.Fatalf("job: %+v", j)
	}
	var res evalResult
	if err := json.Unmarshal(j.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.Metric != "cleaneval" || res.Pages != 3 || res.Failed != 0 || res.DataSet != "tiny" || res.Score.Micro.F1 < 0.5 || res.Score.Micro.F1 > 1 {
		t.Errorf("result: %+v", res)
	}
	t.Logf("strict on the tiny set: P %.3f R %.3f F1 %.3f", res.Score.Micro.Precision, res.Score.Micro.Recall, res.Score.Micro.F1)
	do(t, "POST", job+"/cancel", "", nil).apiError(t, http.StatusConflict, "job_over")
	a := do(t, "POST", ts.url+"/v1/filter-sets/strict/evaluate", "application/json", []byte(`{"data": "tiny", "limit": 2}`))
	j = waitJob(t, ts.url+a.header.Get("Location"), func(j jobJSON) bool { return j.Status == "done" })
	if json.Unmarshal(j.Result, &res); res.Pages != 2 || j.Progress.Total != 2 {
		t.Errorf("limit 2: %d pages scored, progress %+v", res.Pages, j.Progress)
	}
	do(t, "GET", ts.url+"/v1/jobs/999", "", nil).apiError(t, http.StatusNotFound, "not_found")
	do(t, "GET", ts.url+"/v1/jobs/abc", "", nil).apiError(t, http.StatusNotFound, "not_found")
}

// TestEvaluateRefused: data sets outside the data root, missing ones,
// folders that are not data sets, bad bodies.
func TestEvaluateRefused(t *testing.T) {
	root := t.TempDir()
	outside := tinyDataSet(t, t.TempDir(), "elsewhere")
	os.Mkdir(filepath.Join(root, "empty"), 0o755)
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Store: testStore(t), DataRoot: root})
	do(t, "PUT", ts.url+"/v1/filter-sets/strict", "application/toml", []byte(strictSet))
	eval := func(body string) answer {
		return do(t, "POST", ts.url+"/v1/filter-sets/strict/evaluate", "application/json", []byte(body))
	}
	for _, data := range []string{outside, "../elsewhere", "/etc", "link", "/nonexistent/x"} {
		e := eval(`{"data": "`+data+`"}`).apiError(t, http.StatusForbidden, "forbidden_path")
		if !strings.Contains(e.Message, "--data-root") {
			t.Errorf("%s: message %q", data, e.Message)
		}
	}
	eval(`{"data": "missing"}`).apiError(t, http.StatusUnprocessableEntity, "bad_data_set")
	eval(`{"data": "empty"}`).apiError(t, http.StatusUnprocessableEntity, "bad_data_set")
	eval(`{}`).apiError(t, http.StatusBadRequest, "missing_field")
	eval(`{"data": "empty", "dta": 1}`).apiError(t, http.StatusBadRequest, "unknown_field")
	eval(`{"data": `).apiError(t, http.StatusBadRequest, "malformed_json")
	eval(`{"data": "empty", "limit": -1}`).apiError(t, http.StatusBadRequest, "bad_field")
	do(t, "POST", ts.url+"/v1/filter-sets/nosuch/evaluate", "application/json", []byte(`{"data": "empty"}`)).apiError(t, http.StatusNotFound, "not_found")
}

// blockPages makes evaluation jobs wait at their first page until they
// are canceled; started is closed when one waits.
func blockPages(srv *Server) (started chan struct{}) {
	started = make(chan struct{})
	var once bool
	srv.pageHook = func(ctx context.Context) {
		if !once {
			once = true
			close(started)
		}
		<-ctx.Done()
	}
	return started
}

func TestCancelJob(t *testing.T) {
	root := t.TempDir()
	tinyDataSet(t, root, "tiny")
	logs := &syncBuffer{}
	srv, err := New(Config{Store: testStore(t), DataRoot: root, Logger: testLogger(logs)})
	if err != nil {
		t.Fatal(err)
	}
	started := blockPages(srv)
	ts := serveServer(t, srv, logs)
	running := startEvaluation(t, ts, "tiny")
	<-started
	queued := startEvaluation(t, ts, "tiny")
	if j := decodeJob(t, do(t, "GET", queued, "", nil)); j.Status != "queued" {
		t.Errorf("second job: %+v, want queued behind the first", j)
	}
	if j := decodeJob(t, do(t, "POST", queued+"/cancel", "", nil)); j.Status != "canceled" {
		t.Errorf("canceling the queued job: %+v", j)
	}
	if a := do(t, "POST", running+"/cancel", "", nil); a.status != 200 {
		t.Errorf("cancel: status %d, %s", a.status, a.body)
	}
	j := waitJob(t, running, func(j jobJSON) bool { return j.Status != "running" })
	if j.Status != "canceled" || j.Error != "canceled by a client" || j.Result != nil {
		t.Errorf("canceled job: %+v", j)
	}
}

// TestShutdownInterruptsJobs: on shutdown the running job has the
// shutdown timeout to finish, then is recorded interrupted, as the queued
// ones are at once; a new server marks runs left live interrupted.
func TestShutdownInterruptsJobs(t *testing.T) {
	root := t.TempDir()
	tinyDataSet(t, root, "tiny")
	db := testStore(t)
	logs := &syncBuffer{}
	srv, err := New(Config{Store: db, DataRoot: root, Logger: testLogger(logs), Timeouts: Timeouts{Shutdown: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	started := blockPages(srv)
	ts := serveServer(t, srv, logs)
	startEvaluation(t, ts, "tiny")
	<-started
	startEvaluation(t, ts, "tiny")
	if err := ts.shutdown(t); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for id := int64(1); id <= 2; id++ {
		r, err := db.Run(ctx, id)
		if err != nil || r.Status != store.RunInterrupted || r.Error != "the server shut down" || r.Finished.IsZero() {
			t.Errorf("run %d after shutdown: %+v, %v", id, r, err)
		}
	}
	if !strings.Contains(logs.String(), "job interrupted by shutdown") || !strings.Contains(logs.String(), "queued jobs interrupted by shutdown") {
		t.Errorf("the log does not name the interrupted job:\n%s", logs)
	}

	left, _ := db.CreateRun(ctx, "strict", 1, root)
	db.StartRun(ctx, left.ID, 3)
	if _, err := New(Config{Store: db, Logger: testLogger(logs)}); err != nil {
		t.Fatal(err)
	}
	if r, _ := db.Run(ctx, left.ID); r.Status != store.RunInterrupted {
		t.Errorf("a run left running by a dead server: %+v", r)
	}
}

// testLogger logs as startServer's servers do.
func testLogger(logs *syncBuffer) *slog.Logger { return slog.New(slog.NewJSONHandler(logs, nil)) }
