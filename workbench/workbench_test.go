package workbench

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/proxy"
	"github.com/sluice-project/sluice/server"
)

// TestWorkbenchPages: the home page, the Inspect view and the static files
// are served with the workbench's headers.
func TestWorkbenchPages(t *testing.T) {
	ts := startServer(t, server.Config{}, Config{})
	for path, want := range map[string]string{"/": "Inspect", "/inspect": `id="inspect-form"`} {
		a := ts.do(t, "GET", path, "", nil)
		if a.status != 200 || !strings.Contains(string(a.body), want) || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
			t.Errorf("GET %s: status %d, %q, %.200s", path, a.status, a.header.Get("Content-Type"), a.body)
		}
		if csp := a.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
	if a := ts.do(t, "GET", "/inspect", "", nil); strings.Contains(string(a.body), "fetch\" disabled") == false {
		t.Error("without Config.Fetch the address choice should be disabled")
	}
	if a := ts.do(t, "GET", "/web/inspect.js", "", nil); a.status != 200 || !strings.Contains(a.header.Get("Content-Type"), "javascript") {
		t.Errorf("inspect.js: status %d, %q", a.status, a.header.Get("Content-Type"))
	}
	ts.do(t, "GET", "/web/", "", nil).apiError(t, 404, "not_found")
	ts.do(t, "GET", "/nothing-here", "", nil).apiError(t, 404, "not_found")
}

// TestFilterSetsPage: the Filter sets view is a shell for its script with
// a store, and says there is none without.
func TestFilterSetsPage(t *testing.T) {
	for _, c := range []struct {
		cfg  server.Config
		want string
	}{
		{server.Config{}, "keeps no filter sets"},
		{server.Config{Store: openStore(t)}, `<script src="/web/filtersets.js">`},
	} {
		a := startServer(t, c.cfg, Config{}).do(t, "GET", "/filter-sets", "", nil)
		if a.status != 200 || !strings.Contains(string(a.body), c.want) || !strings.Contains(a.header.Get("Content-Security-Policy"), "script-src 'self'") {
			t.Errorf("store %v: status %d, want %q in %.300s", c.cfg.Store != nil, a.status, c.want, a.body)
		}
	}
}

// TestRoutesDocumented: the server's API description has the workbench's
// routes.
func TestRoutesDocumented(t *testing.T) {
	ts := startServer(t, server.Config{}, Config{})
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(ts.do(t, "GET", "/v1/openapi.json", "", nil).body, &doc); err != nil {
		t.Fatal(err)
	}
	routes, err := Routes(ts.Server, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range routes {
		path := strings.NewReplacer("{$}", "", "...}", "}").Replace(r.Path) // ServeMux's forms
		if doc.Paths[path][strings.ToLower(r.Method)] == nil {
			t.Errorf("route %s %s is not in server/openapi.json", r.Method, r.Path)
		}
	}
}

// inspectAnswer decodes a 200 answer of /v1/inspect.
func inspectAnswer(t *testing.T, a answer) InspectAnswer {
	t.Helper()
	var ans InspectAnswer
	if a.status != 200 {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	if err := json.Unmarshal(a.body, &ans); err != nil {
		t.Fatal(err)
	}
	return ans
}

var markRE = regexp.MustCompile(`<span class="sl-([kd])" data-b="(\d+)" title="[^"]*">`)

// TestInspect: every block comes back with its label, role, score and
// span; the frame has no script and marks the blocks' text as the labels
// say.
func TestInspect(t *testing.T) {
	ts := startServer(t, server.Config{}, Config{})
	page := examplePage(t)
	ans := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect?filter=lqf>targetnode", "text/html", page))
	if ans.Filter != "lqf>targetnode" || ans.Threshold == nil || *ans.Threshold != 0.5 || ans.Kept == 0 || ans.Kept == len(ans.Blocks) {
		t.Fatalf("filter %q, threshold %v, %d of %d kept", ans.Filter, ans.Threshold, ans.Kept, len(ans.Blocks))
	}
	for i, b := range ans.Blocks {
		words := strings.Fields(b.Text)
		if got := string(page[b.Start:b.End]); !strings.HasSuffix(got, words[len(words)-1]) {
			t.Errorf("block %d %q: span [%d,%d) holds %q", i, b.Text, b.Start, b.End, got)
		}
		if b.Label != "other" && b.Label != b.Role || b.Role == "other" {
			t.Errorf("block %d: label %q, role %q", i, b.Label, b.Role)
		}
	}
	if strings.Contains(ans.Frame, "<script") || strings.Contains(ans.Frame, "UA-0000") || strings.Contains(ans.Frame, `href=`) {
		t.Error("the frame keeps a script or a link target")
	}
	if !strings.Contains(ans.Frame, "Content-Security-Policy") || !strings.HasPrefix(ans.Frame, "<!DOCTYPE html>") {
		t.Errorf("the frame should open with the doctype, then its policy: %.200s", ans.Frame)
	}
	seen := map[string]string{}
	for _, m := range markRE.FindAllStringSubmatch(ans.Frame, -1) {
		seen[m[2]] = m[1]
	}
	for i, b := range ans.Blocks {
		want := "d"
		if b.Label != "other" {
			want = "k"
		}
		if got := seen[strconv.Itoa(i)]; got != want {
			t.Errorf("block %d (%s, %q): marked %q in the frame, want %q", i, b.Label, b.Text, got, want)
		}
	}
	model := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect", "text/html", page))
	if model.Filter != "model" || model.Rule != "ef" && model.Threshold == nil {
		t.Errorf("model: filter %q, rule %q", model.Filter, model.Rule)
	}
}

// TestInspectCharset: a windows-1252 page comes back in UTF-8, its marks
// where its text is.
func TestInspectCharset(t *testing.T) {
	ts := startServer(t, server.Config{}, Config{})
	page := []byte("<html><head><meta charset=windows-1252></head><body><h1>Caf\xe9 cr\xe8me</h1><p>" +
		strings.Repeat("Le caf\xe9 est une boisson tr\xe8s appr\xe9ci\xe9e dans le monde entier. ", 8) + "</p></body></html>")
	ans := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect?filter=bte", "text/html", page))
	if ans.Encoding != "windows-1252" || !strings.Contains(ans.Frame, `title="heading · `) || !strings.Contains(ans.Frame, ">Café crème</span>") {
		t.Errorf("encoding %q, frame %s", ans.Encoding, ans.Frame)
	}
}

// TestInspectErrors: bad input gets a JSON error naming the problem.
func TestInspectErrors(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(examplePage(t))
	}))
	defer up.Close()
	strict := startServer(t, server.Config{MaxBodyBytes: 1 << 20}, Config{Fetch: proxy.NewFetchClient(proxy.FetchOptions{})})
	u := "/v1/inspect"
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 300)...)
	for _, c := range []struct {
		query, ctype string
		body         []byte
		status       int
		code         string
	}{
		{"", "text/html", nil, 400, "empty_input"},
		{"", "application/octet-stream", png, 422, "not_html"},
		{"", "text/html", make([]byte, 1<<20+1), 413, "body_too_large"},
		{"", "image/png", png, 415, "unsupported_media_type"},
		{"?nope=1", "text/html", []byte("<p>x</p>"), 400, "unknown_parameter"},
		{"?filter=bte>>", "text/html", []byte("<p>x</p>"), 400, "bad_filter"},
		{"?threshold=2", "text/html", []byte("<p>x</p>"), 400, "bad_threshold"},
		{"?fetch=ftp://example.com/", "", nil, 400, "bad_url"},
		{"?fetch=not%20a%20url", "", nil, 400, "bad_url"},
		{"?fetch=" + up.URL + "/", "", nil, 403, "fetch_refused"},
		{"?fetch=http://169.254.169.254/latest/", "", nil, 403, "fetch_refused"},
	} {
		e := strict.do(t, "POST", u+c.query, c.ctype, c.body).apiError(t, c.status, c.code)
		if c.code == "fetch_refused" && !strings.Contains(e.Message, "refused to fetch") {
			t.Errorf("%s: %q", c.query, e.Message)
		}
	}
	off := startServer(t, server.Config{}, Config{})
	off.do(t, "POST", "/v1/inspect?fetch="+up.URL+"/", "", nil).apiError(t, 501, "fetch_disabled")
	loop := netip.MustParsePrefix("127.0.0.1/32")
	open := startServer(t, server.Config{}, Config{Fetch: proxy.NewFetchClient(proxy.FetchOptions{Allow: []netip.Prefix{loop}})})
	ans := inspectAnswer(t, open.do(t, "POST", "/v1/inspect?filter=lqf>targetnode&fetch="+up.URL+"/page", "", nil))
	if ans.Kept == 0 || ans.URL != up.URL+"/page" {
		t.Errorf("fetched page: %d kept, url %q", ans.Kept, ans.URL)
	}
	open.do(t, "POST", "/v1/inspect?fetch="+up.URL+"/missing", "", nil).apiError(t, 502, "fetch_status")
}

// TestFrameDoc: the frame loses what runs code or navigates, keeps the
// tree, and does not wrap text that is not markup.
func TestFrameDoc(t *testing.T) {
	ts := startServer(t, server.Config{}, Config{})
	page := `<html><head><title>T</title><base href="http://evil.test/"><meta http-equiv="refresh" content="0;url=http://evil.test/">` +
		`<link rel=stylesheet href="http://evil.test/a.css"></head><body onload="x()"><iframe src="http://evil.test/"></iframe>` +
		`<h1>A heading of the page</h1><p>First paragraph with <a href="/x" onclick="y()">a link</a> inside it, long enough to be kept by the filter.</p>` +
		`<pre>line one of the code
line two of the code</pre><textarea>not markup</textarea><script>alert(1)</script></body></html>`
	ans := inspectAnswer(t, ts.do(t, "POST", "/v1/inspect?filter=bte", "text/html", []byte(page)))
	for _, bad := range []string{"evil.test", "onload", "onclick", "<iframe", "<script", "alert(1)", "<base", "<link", "refresh"} {
		if strings.Contains(ans.Frame, bad) {
			t.Errorf("the frame keeps %q: %s", bad, ans.Frame)
		}
	}
	for _, want := range []string{"<textarea>not markup</textarea>", "<title>T</title>", `">a link</span></a>`} {
		if !strings.Contains(ans.Frame, want) {
			t.Errorf("the frame lacks %q: %s", want, ans.Frame)
		}
	}
	if n := len(markRE.FindAllString(ans.Frame, -1)); n < 4 {
		t.Errorf("%d marks, want one a text run of a block: %s", n, ans.Frame)
	}
}
