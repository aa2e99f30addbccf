package server

import (
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/store"
)

// testStore opens a store in the test's temporary folder.
func testStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "sluice.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

const strictSet = `version = 1
name = "strict"
description = "LQF then the target node"
filter = "lqf>targetnode"
`

// decodeSet decodes a filter set answer.
func decodeSet(t *testing.T, a answer) filterSetJSON {
	t.Helper()
	var fs filterSetJSON
	if err := json.Unmarshal(a.body, &fs); err != nil {
		t.Fatalf("%s: %v", a.body, err)
	}
	return fs
}

func TestFilterSetCRUD(t *testing.T) {
	ts := startServer(t, Config{Store: testStore(t)})
	base := ts.url + "/v1/filter-sets"

	a := do(t, "POST", base, "application/toml", []byte(strictSet))
	if a.status != http.StatusCreated || a.header.Get("Location") != "/v1/filter-sets/strict" {
		t.Fatalf("create: status %d, Location %q, %s", a.status, a.header.Get("Location"), a.body)
	}
	if fs := decodeSet(t, a); fs.Name != "strict" || fs.Version != 1 || fs.Format != "toml" || fs.Text != strictSet || fs.Summary == "" || fs.Filter != "lqf>targetnode" {
		t.Errorf("created: %+v", fs)
	}
	do(t, "POST", base, "application/toml", []byte(strictSet)).apiError(t, http.StatusConflict, "exists")
	do(t, "POST", base, "", []byte(strictSet)).apiError(t, http.StatusUnsupportedMediaType, "unsupported_media_type")
	do(t, "POST", base+"?format=yaml", "", []byte(strictSet)).apiError(t, http.StatusBadRequest, "bad_query")
	do(t, "POST", base+"?fmt=toml", "", []byte(strictSet)).apiError(t, http.StatusBadRequest, "unknown_parameter")

	v2 := `{"version": 1, "name": "strict", "filter": "bte", "threshold": 0.4}`
	a = do(t, "PUT", base+"/strict", "application/json", []byte(v2))
	if fs := decodeSet(t, a); a.status != 200 || fs.Version != 2 || fs.Format != "json" {
		t.Errorf("put: status %d, %+v", a.status, fs)
	}
	a = do(t, "PUT", base+"/strict?format=json", "text/plain", []byte(v2))
	if fs := decodeSet(t, a); a.status != 200 || fs.Version != 2 {
		t.Errorf("put of the same file: status %d, version %d; want 200 and version 2 kept", a.status, fs.Version)
	}
	a = do(t, "PUT", base+"/loose", "application/toml", []byte(strings.Replace(strictSet, `"strict"`, `"loose"`, 1)))
	if a.status != http.StatusCreated || decodeSet(t, a).Version != 1 {
		t.Errorf("put of a new set: status %d, %s", a.status, a.body)
	}

	a = do(t, "GET", base, "", nil)
	var list struct {
		FilterSets []filterSetJSON `json:"filter_sets"`
	}
	if err := json.Unmarshal(a.body, &list); err != nil || a.status != 200 || len(list.FilterSets) != 2 ||
		list.FilterSets[0].Name != "loose" || list.FilterSets[1].Version != 2 || list.FilterSets[1].Text != "" {
		t.Errorf("list: status %d, %s", a.status, a.body)
	}
	if fs := decodeSet(t, do(t, "GET", base+"/strict", "", nil)); fs.Version != 2 || fs.Text != v2 {
		t.Errorf("latest: %+v", fs)
	}
	if fs := decodeSet(t, do(t, "GET", base+"/strict?version=1", "", nil)); fs.Version != 1 || fs.Text != strictSet || fs.Description != "LQF then the target node" {
		t.Errorf("version 1: %+v", fs)
	}
	do(t, "GET", base+"/strict?version=3", "", nil).apiError(t, http.StatusNotFound, "not_found")
	do(t, "GET", base+"/strict?version=x", "", nil).apiError(t, http.StatusBadRequest, "bad_query")
	a = do(t, "GET", base+"/strict/versions", "", nil)
	var vs struct {
		Name     string          `json:"name"`
		Versions []filterSetJSON `json:"versions"`
	}
	if err := json.Unmarshal(a.body, &vs); err != nil || len(vs.Versions) != 2 || vs.Versions[0].Version != 1 || vs.Versions[1].Format != "json" {
		t.Errorf("versions: %s", a.body)
	}

	if a := do(t, "DELETE", base+"/strict", "", nil); a.status != http.StatusNoContent {
		t.Errorf("delete: status %d, %s", a.status, a.body)
	}
	do(t, "GET", base+"/strict", "", nil).apiError(t, http.StatusNotFound, "not_found")
	do(t, "GET", base+"/strict/versions", "", nil).apiError(t, http.StatusNotFound, "not_found")
	do(t, "DELETE", base+"/strict", "", nil).apiError(t, http.StatusNotFound, "not_found")
	do(t, "PATCH", base+"/loose", "", nil).apiError(t, http.StatusMethodNotAllowed, "method_not_allowed")
}

// TestFilterSetValidation: a set with mistakes is refused with each
// problem at its line and column.
func TestFilterSetValidation(t *testing.T) {
	ts := startServer(t, Config{Store: testStore(t), DataRoot: t.TempDir()})
	base := ts.url + "/v1/filter-sets"
	bad := "version = 1\nname = \"bad\"\nfilter = \"lqf>nosuch\"\ntresh = 0.5\n"
	e := do(t, "POST", base, "application/toml", []byte(bad)).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	if len(e.Errors) != 2 || e.Errors[0].Line != 3 || e.Errors[0].Col != 15 || !strings.Contains(e.Errors[0].Message, "nosuch") ||
		e.Errors[1].Line != 4 || e.Errors[1].Col != 1 || !strings.Contains(e.Errors[1].Message, "tresh") {
		t.Errorf("problems %+v: want the unknown filter on line 3 and the misspelt key on line 4, column 1", e.Errors)
	}
	if !strings.Contains(e.Message, "2 problems") || !strings.Contains(e.Message, "3:") {
		t.Errorf("message %q", e.Message)
	}
	e = do(t, "POST", base, "application/json", []byte("{\"version\": 1,\n \"name\": \"j\",\n \"filter\": 3}")).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	if len(e.Errors) != 1 || e.Errors[0].Line != 3 {
		t.Errorf("JSON problems %+v: want one on line 3", e.Errors)
	}
	e = do(t, "POST", base, "application/json", []byte(`{"version": 1, "name": `)).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	if len(e.Errors) != 1 || e.Errors[0].Line != 1 {
		t.Errorf("a JSON file cut short: %+v", e.Errors)
	}
	e = do(t, "PUT", base+"/other", "application/toml", []byte(strictSet)).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	if len(e.Errors) != 1 || !strings.Contains(e.Message, `"other"`) {
		t.Errorf("a name that is not the path's: %+v", e)
	}
	// A model file is read only inside the data root.
	outside := "version = 1\nname = \"m\"\n[model]\nfile = \"/etc/passwd\"\n"
	e = do(t, "POST", base, "application/toml", []byte(outside)).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	if !strings.Contains(e.Message, "outside the server's data root") {
		t.Errorf("a model file outside the data root: %q", e.Message)
	}
	missing := "version = 1\nname = \"m\"\n[model]\nfile = \"none.model\"\n"
	do(t, "POST", base, "application/toml", []byte(missing)).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	style := "version = 1\nname = \"m\"\n[model]\nstyle = \"fancy\"\n"
	e = do(t, "POST", base, "application/toml", []byte(style)).apiError(t, http.StatusUnprocessableEntity, "invalid_filter_set")
	if len(e.Errors) != 1 || e.Errors[0].Line != 4 || !strings.Contains(e.Errors[0].Message, "fancy") {
		t.Errorf("an unknown style: %+v, want it at line 4", e.Errors)
	}
	do(t, "POST", base, "application/toml", []byte(strings.Repeat("#", 1<<20+1))).apiError(t, http.StatusRequestEntityTooLarge, "body_too_large")
}

// TestCleanWithFilterSet: POST /v1/clean cleans with a stored set, by name
// (query or JSON), its latest version.
func TestCleanWithFilterSet(t *testing.T) {
	ts := startServer(t, Config{Store: testStore(t)})
	page := examplePage(t)
	do(t, "POST", ts.url+"/v1/filter-sets", "application/toml", []byte(strictSet))

	a := do(t, "POST", ts.url+"/v1/clean?filter_set=strict", "text/html", page)
	if a.status != 200 || a.header.Get("Sluice-Filter-Set") != "strict@1" || !strings.Contains(a.header.Get("Sluice-Filter"), "targetnode") ||
		!strings.Contains(string(a.body), "water mill") {
		t.Fatalf("clean with strict: status %d, headers %v, %.200s", a.status, a.header, a.body)
	}
	body, _ := json.Marshal(map[string]any{"html": string(page), "filter_set": "strict"})
	if a := do(t, "POST", ts.url+"/v1/clean", "application/json", body); a.status != 200 || a.header.Get("Sluice-Filter-Set") != "strict@1" {
		t.Errorf("filter_set in JSON: status %d, %s", a.status, a.body)
	}
	do(t, "PUT", ts.url+"/v1/filter-sets/strict", "application/toml", []byte(strings.Replace(strictSet, "lqf>targetnode", "bte", 1)))
	a = do(t, "POST", ts.url+"/v1/clean?filter_set=strict", "text/html", page)
	if a.header.Get("Sluice-Filter-Set") != "strict@2" || a.header.Get("Sluice-Filter") != "bte" {
		t.Errorf("after a new version: Sluice-Filter-Set %q, Sluice-Filter %q; want strict@2 and bte", a.header.Get("Sluice-Filter-Set"), a.header.Get("Sluice-Filter"))
	}
	e := do(t, "POST", ts.url+"/v1/clean?filter_set=nosuch", "text/html", page).apiError(t, http.StatusBadRequest, "unknown_filter_set")
	if len(e.Valid) != 1 || e.Valid[0] != "strict" {
		t.Errorf("valid %v, want [strict]", e.Valid)
	}
	do(t, "POST", ts.url+"/v1/clean?filter_set=strict&filter=bte", "text/html", page).apiError(t, http.StatusBadRequest, "bad_options")
	do(t, "POST", ts.url+"/v1/clean?filter_set=strict&threshold=ef", "text/html", page).apiError(t, http.StatusBadRequest, "bad_filter_set")

	plain := startServer(t, Config{})
	do(t, "POST", plain.url+"/v1/clean?filter_set=strict", "text/html", page).apiError(t, http.StatusBadRequest, "bad_filter_set")
}

// TestFilterSetToken: reads and writes need the token; a server with
// a store has management routes, so it needs a token beyond loopback.
func TestFilterSetToken(t *testing.T) {
	db := testStore(t)
	ts := startServer(t, Config{Store: db, Token: "s3cret"})
	base := ts.url + "/v1/filter-sets"
	do(t, "POST", base, "application/toml", []byte(strictSet)).apiError(t, http.StatusUnauthorized, "unauthorized")
	if a := do(t, "POST", base, "application/toml", []byte(strictSet), "Authorization", "Bearer s3cret"); a.status != http.StatusCreated {
		t.Fatalf("with the token: status %d, %s", a.status, a.body)
	}
	do(t, "PUT", base+"/strict", "application/toml", []byte(strictSet)).apiError(t, http.StatusUnauthorized, "unauthorized")
	do(t, "DELETE", base+"/strict", "", nil).apiError(t, http.StatusUnauthorized, "unauthorized")
	do(t, "POST", base+"/strict/evaluate", "application/json", []byte(`{"data": "x"}`)).apiError(t, http.StatusUnauthorized, "unauthorized")
	do(t, "POST", ts.url+"/v1/jobs/1/cancel", "", nil).apiError(t, http.StatusUnauthorized, "unauthorized")
	for _, path := range []string{base, base + "/strict", base + "/strict/versions", ts.url + "/v1/jobs/1"} {
		do(t, "GET", path, "", nil).apiError(t, http.StatusUnauthorized, "unauthorized")
	}
	for _, path := range []string{"", "/strict", "/strict/versions"} {
		if a := do(t, "GET", base+path, "", nil, "Authorization", "Bearer s3cret"); a.status != 200 {
			t.Errorf("GET %s with the token: status %d", path, a.status)
		}
	}

	noToken, err := New(Config{Store: db})
	if err != nil {
		t.Fatal(err)
	}
	if err := noToken.CheckListener(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}); err == nil {
		t.Error("a server with a store and no token may listen on every interface")
	}
	if err := noToken.CheckListener(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}); err != nil {
		t.Errorf("loopback: %v", err)
	}
}
