package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/store"
)

// legacyModel reads a model file of testdata/legacy-models (gzipped).
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

// cleanInProcess cleans page with opts as sluice clean would, in format.
func cleanInProcess(t testing.TB, opts sluice.Options, page []byte, format string) string {
	t.Helper()
	c, err := sluice.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), sluice.Input{Data: page, ContentType: "text/html"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := render.Lookup(format, render.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := r.Render(&out, res.Page); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestCleanWithModel: POST /v1/clean cleans with a stored model, by name
// (query or JSON), in its styles, cached by the model's id; a name no
// model has, or a model with a filter or filter set, is refused.
func TestCleanWithModel(t *testing.T) {
	db := testStore(t)
	ctx := context.Background()
	m1 := legacyModel(t, "m1")
	if _, err := db.SaveModel(ctx, store.Model{Name: "m1", Data: m1, Stages: "crf"}); err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, Config{Store: db})
	page := examplePage(t)

	for _, style := range []string{"", "cleaneval"} {
		want := cleanInProcess(t, sluice.Options{Model: m1, Style: style}, page, "cleaneval")
		a := do(t, "POST", ts.url+"/v1/clean?format=cleaneval&model=m1&style="+style, "text/html", page)
		if a.status != 200 || string(a.body) != want || a.header.Get("Sluice-Model") != "m1" {
			t.Errorf("model m1, style %q: status %d, Sluice-Model %q, got\n%s\nwant\n%s", style, a.status, a.header.Get("Sluice-Model"), a.body, want)
		}
	}
	body, _ := json.Marshal(map[string]any{"html": string(page), "model": "m1", "format": "json", "threshold": 0.9})
	a := do(t, "POST", ts.url+"/v1/clean", "application/json", body)
	want := cleanInProcess(t, sluice.Options{Model: m1, Threshold: 0.9}, page, "json")
	if a.status != 200 || string(a.body) != want {
		t.Errorf("model in JSON with a threshold: status %d, got %.300s, want %.300s", a.status, a.body, want)
	}

	e := do(t, "POST", ts.url+"/v1/clean?model=nosuch", "text/html", page).apiError(t, http.StatusBadRequest, "unknown_model")
	if len(e.Valid) != 1 || e.Valid[0] != "m1" {
		t.Errorf("valid %v, want [m1]", e.Valid)
	}
	do(t, "POST", ts.url+"/v1/clean?model=m1&filter=bte", "text/html", page).apiError(t, http.StatusBadRequest, "bad_options")
	do(t, "POST", ts.url+"/v1/clean?model=m1&filter_set=strict", "text/html", page).apiError(t, http.StatusBadRequest, "bad_options")
	body, _ = json.Marshal(map[string]any{"html": string(page), "model": "m1", "filter": "bte"})
	do(t, "POST", ts.url+"/v1/clean", "application/json", body).apiError(t, http.StatusBadRequest, "bad_options")
	e = do(t, "POST", ts.url+"/v1/clean?model=m1&style=nosuch", "text/html", page).apiError(t, http.StatusBadRequest, "unknown_style")
	if len(e.Valid) == 0 {
		t.Errorf("unknown_style without the valid styles")
	}

	plain := startServer(t, Config{})
	do(t, "POST", plain.url+"/v1/clean?model=m1", "text/html", page).apiError(t, http.StatusBadRequest, "bad_options")
}

// TestCleanWithTwoModels: two stored models are two cleaners (cached by
// their ids), each giving its model's output; ModelInfo reads no file.
func TestCleanWithTwoModels(t *testing.T) {
	db := testStore(t)
	ctx := context.Background()
	ts := startServer(t, Config{Store: db})
	page := examplePage(t)
	saved, err := db.SaveModel(ctx, store.Model{Name: "a", Data: legacyModel(t, "m1")})
	if err != nil {
		t.Fatal(err)
	}
	do(t, "POST", ts.url+"/v1/clean?model=a", "text/html", page)
	info, err := db.ModelInfo(ctx, "a")
	if err != nil || info.ID != saved.ID || info.Data != nil {
		t.Fatalf("ModelInfo: %+v, %v; want id %d without the file", info, err, saved.ID)
	}
	if _, err := db.ModelInfo(ctx, "b"); err == nil {
		t.Error("ModelInfo of a missing model: no error")
	}
	if _, err := db.SaveModel(ctx, store.Model{Name: "b", Data: legacyModel(t, "m2")}); err != nil {
		t.Fatal(err)
	}
	want := cleanInProcess(t, sluice.Options{Model: legacyModel(t, "m2")}, page, "text")
	if a := do(t, "POST", ts.url+"/v1/clean?model=b", "text/html", page); a.status != 200 || string(a.body) != want {
		t.Errorf("model b: status %d, %.300s", a.status, a.body)
	}
}
