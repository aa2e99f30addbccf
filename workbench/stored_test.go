package workbench

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/server"
	"github.com/sluice-project/sluice/store"
)

// wideSet is a stored filter set whose parameter changes what its filter
// keeps: BTE with tags weighing almost nothing keeps every block of the
// example page, where bte with its defaults keeps 10 of 24.
const wideSet = `version = 1
name = "wide"
description = "BTE, tags weighing almost nothing"
filter = "bte"

[params.bte]
tag_weight = 0.05
`

// legacyModel reads the model file testdata/legacy-models/NAME.slm.gz.
func legacyModel(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open("../testdata/legacy-models/" + name + ".slm.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// keptInProcess is the number of blocks cl keeps of page.
func keptInProcess(t testing.TB, cl *sluice.Cleaner, page []byte) int {
	t.Helper()
	res, err := cl.Clean(context.Background(), sluice.Input{Data: page, ContentType: "text/html"})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, b := range res.Page.Blocks {
		if b.Label != 0 {
			n++
		}
	}
	return n
}

// storedServer starts a server with a store holding wideSet and the
// legacy model m1 (as "m1"), with a GET /v1/models route in the shape of
// package projects' (which this package cannot import).
func storedServer(t *testing.T, wcfg Config) *testServer {
	t.Helper()
	db := openStore(t)
	if _, err := db.SaveModel(context.Background(), store.Model{Name: "m1", Data: legacyModel(t, "m1"), Stages: "crf"}); err != nil {
		t.Fatal(err)
	}
	models := server.Route{Method: "GET", Path: "/v1/models", Management: true, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		models, err := db.Models(r.Context())
		if err != nil {
			server.WriteAPIError(w, r, server.NewError(500, "store", err.Error()))
			return
		}
		out := []map[string]any{}
		for _, m := range models {
			out = append(out, map[string]any{"name": m.Name, "stages": m.Stages})
		}
		server.WriteJSON(w, r, http.StatusOK, map[string]any{"models": out})
	})}
	ts := startServer(t, server.Config{Store: db, Routes: []server.Route{models}}, wcfg)
	if a := ts.do(t, "POST", "/v1/filter-sets", "application/toml", []byte(wideSet)); a.status != http.StatusCreated {
		t.Fatalf("storing the set: %d %s", a.status, a.body)
	}
	return ts
}

// TestInspectStored: /v1/inspect cleans with a stored filter set (its
// parameters applied) and a stored model, by name, and says which.
func TestInspectStored(t *testing.T) {
	ts := storedServer(t, Config{})
	page := examplePage(t)

	plain := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect?filter=bte", "text/html", page))
	set := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect?filter_set=wide", "text/html", page))
	if set.FilterSet != "wide@1" || set.Filter != "bte" || set.Kept != len(set.Blocks) || plain.Kept == set.Kept {
		t.Errorf("filter set wide: %q, filter %q, %d of %d kept (bte alone: %d); want wide@1, bte, all kept",
			set.FilterSet, set.Filter, set.Kept, len(set.Blocks), plain.Kept)
	}

	m1, err := sluice.New(sluice.Options{Model: legacyModel(t, "m1")})
	if err != nil {
		t.Fatal(err)
	}
	model := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect?model=m1", "text/html", page))
	if want := keptInProcess(t, m1, page); model.Model != "m1" || model.Kept != want || model.FilterSet != "" {
		t.Errorf("model m1: %q, %d kept, want %d", model.Model, model.Kept, want)
	}

	ts.do(t, "POST", "/v1/inspect?filter_set=nosuch", "text/html", page).apiError(t, http.StatusBadRequest, "unknown_filter_set")
	ts.do(t, "POST", "/v1/inspect?model=nosuch", "text/html", page).apiError(t, http.StatusBadRequest, "unknown_model")
	ts.do(t, "POST", "/v1/inspect?model=m1&filter_set=wide", "text/html", page).apiError(t, http.StatusBadRequest, "bad_options")
}
