package workbench

import (
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/projects"
	"github.com/sluice-project/sluice/proxy"
	"github.com/sluice-project/sluice/server"
)

// TestAnnotateFrame: a project's page rewritten for the Annotate view's
// frame marks each of the blocks the projects' API lists, without
// scripts; another project's page is refused, and a server without a store
// has no such route (nor any management route of the workbench).
func TestAnnotateFrame(t *testing.T) {
	ts := startAnnotateServer(t)
	if a := ts.do(t, "POST", "/v1/projects", "application/json", []byte(`{"name": "crafts"}`)); a.status != 201 {
		t.Fatalf("project: %d %s", a.status, a.body)
	}
	ts.do(t, "POST", "/v1/projects", "application/json", []byte(`{"name": "other"}`))
	page := strings.Replace(annotatePage("rope making"), "</h1>", "</h1><script>alert(1)</script>", 1)
	if a := ts.do(t, "POST", "/v1/projects/1/pages", "text/html", []byte(page)); a.status != 201 {
		t.Fatalf("page: %d %s", a.status, a.body)
	}
	var detail struct {
		Blocks []struct {
			Text string `json:"text"`
		} `json:"block_list"`
	}
	json.Unmarshal(ts.do(t, "GET", "/v1/projects/1/pages/1", "", nil).body, &detail)
	a := ts.do(t, "GET", "/v1/annotate/projects/1/pages/1/frame", "", nil)
	var fa FrameAnswer
	if err := json.Unmarshal(a.body, &fa); a.status != 200 || err != nil {
		t.Fatalf("frame: %d %s", a.status, a.body)
	}
	if len(detail.Blocks) != 6 {
		t.Fatalf("%d blocks", len(detail.Blocks))
	}
	for i, b := range detail.Blocks {
		mark := `data-b="` + string(rune('0'+i)) + `" title="`
		j := strings.Index(fa.Frame, mark)
		if j < 0 || !strings.HasPrefix(fa.Frame[strings.IndexByte(fa.Frame[j:], '>')+j+1:], b.Text[:4]) {
			t.Errorf("block %d (%q) is not marked in the frame", i, b.Text)
		}
	}
	if strings.Contains(fa.Frame, "alert") || !strings.Contains(fa.Frame, "[data-l=heading]") {
		t.Errorf("the frame: %s", fa.Frame)
	}
	ts.do(t, "GET", "/v1/annotate/projects/2/pages/1/frame", "", nil).apiError(t, 404, "not_found")
	ts.do(t, "GET", "/v1/annotate/projects/1/pages/9/frame", "", nil).apiError(t, 404, "not_found")
	ts.do(t, "GET", "/v1/annotate/projects/x/pages/1/frame", "", nil).apiError(t, 404, "not_found")
	ts.do(t, "POST", "/v1/annotate/fetch?url=http://example.com/", "", nil).apiError(t, 501, "fetch_disabled")
	ts.do(t, "POST", "/v1/annotate/fetch", "", nil).apiError(t, 400, "missing_parameter")

	bare := startServer(t, server.Config{}, Config{})
	if a := bare.do(t, "GET", "/v1/annotate/projects/1/pages/1/frame", "", nil); a.status != 404 {
		t.Errorf("the frame route without a store: %d", a.status)
	}
	if err := bare.CheckListener(&net.TCPAddr{IP: net.IPv4zero}); err != nil {
		t.Errorf("without a store the workbench adds management routes: %v", err)
	}
	// With a store, the API's description has the view's routes.
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	json.Unmarshal(ts.do(t, "GET", "/v1/openapi.json", "", nil).body, &doc)
	routes, _ := Routes(ts.Server, Config{})
	for _, r := range routes {
		if path := strings.NewReplacer("{$}", "", "...}", "}").Replace(r.Path); doc.Paths[path][strings.ToLower(r.Method)] == nil {
			t.Errorf("route %s %s is not in server/openapi.json", r.Method, r.Path)
		}
	}
	if a := bare.do(t, "GET", "/annotate", "", nil); a.status != 200 || !strings.Contains(string(a.body), "keeps no annotation projects") {
		t.Errorf("/annotate without a store: %d", a.status)
	}
}

// TestAnnotateFetch: a page fetched by address comes back as it was sent
// (its bytes, in base64), with the address after redirects; a private
// address is refused.
func TestAnnotateFetch(t *testing.T) {
	page := []byte("<html><head><meta charset=windows-1252></head><body><p>Caf\xe9 cr\xe8me, a page in windows-1252.</p></body></html>")
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/page", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write(page)
	}))
	defer up.Close()
	db := openStore(t)
	svc, err := projects.New(projects.Config{Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	fetch := proxy.NewFetchClient(proxy.FetchOptions{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	ts := startServer(t, server.Config{Store: db, Routes: svc.Routes()}, Config{Fetch: fetch})
	a := ts.do(t, "POST", "/v1/annotate/fetch?url="+up.URL+"/old", "", nil)
	var fa FetchAnswer
	if err := json.Unmarshal(a.body, &fa); a.status != 200 || err != nil {
		t.Fatalf("fetch: %d %s", a.status, a.body)
	}
	if fa.URL != up.URL+"/page" || string(fa.Data) != string(page) {
		t.Errorf("fetched %q: %q", fa.URL, fa.Data)
	}
	ts.do(t, "POST", "/v1/annotate/fetch?url=http://10.0.0.1/", "", nil).apiError(t, 403, "fetch_refused")
}
