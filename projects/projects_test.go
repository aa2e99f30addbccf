package projects

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestProjectRoundTrip adds pages to a project, reads their blocks with
// the model's pre-labels, labels them (part, then all) and reads the
// labels and the progress back.
func TestProjectRoundTrip(t *testing.T) {
	ts := startServer(t, "")
	proj, ids := ts.newProject(t, "rivers")
	var list struct {
		Projects []projectJSON `json:"projects"`
	}
	ts.do(t, "GET", "/v1/projects", "", nil).want(t, 200).json(t, &list)
	if len(list.Projects) != 1 || list.Projects[0].Name != "rivers" || list.Projects[0].Description != "test pages" {
		t.Errorf("projects: %+v", list.Projects)
	}

	var d pageDetail
	ts.do(t, "GET", pathf("/v1/projects/%d/pages/%d", proj, ids[0]), "", nil).want(t, 200).json(t, &d)
	if len(d.BlockList) != 8 || d.Labelled != 0 || d.Complete || d.Name != "river.example_"+itoa(ids[0]) {
		t.Fatalf("page: %+v", d)
	}
	html := testPages[0].html
	for i, b := range d.BlockList {
		if b.Index != i || b.Pre == "" || b.PreScore < 0 || b.PreScore > 1 || b.Label != "" {
			t.Errorf("block %d: %+v", i, b)
		}
		if b.Start < 0 || b.End > len(html) || !strings.HasSuffix(html[b.Start:b.End], lastWord(b.Text)) {
			t.Errorf("block %d %q: span %d-%d is %q", i, b.Text, b.Start, b.End, html[b.Start:b.End])
		}
	}
	if d.BlockList[2].Text != "Rivers of the north" || !slices.Equal(d.Classes, []string{"other", "heading", "paragraph", "list", "continuation"}) {
		t.Errorf("block 2 %q, classes %q", d.BlockList[2].Text, d.Classes)
	}

	// Part of a page: null leaves a block unlabelled; Victor's class
	// names and sluice's are taken too.
	part := []any{"o", "O", "header", "paragraph", "c", nil, nil, "other"}
	var pg pageJSON
	ts.do(t, "PUT", pathf("/v1/projects/%d/pages/%d/labels", proj, ids[0]), "", map[string]any{"labels": part, "author": "ann"}).want(t, 200).json(t, &pg)
	if pg.Labelled != 6 || pg.Complete {
		t.Errorf("after labelling 6 blocks: %+v", pg)
	}
	ts.labelAll(t, proj, ids, 1, 2)
	var pages struct {
		Pages    []pageJSON `json:"pages"`
		Progress progress   `json:"progress"`
	}
	ts.do(t, "GET", pathf("/v1/projects/%d/pages", proj), "", nil).want(t, 200).json(t, &pages)
	if want := (progress{Pages: 3, PagesComplete: 2, Blocks: 15, Labelled: 13}); pages.Progress != want {
		t.Errorf("progress %+v, want %+v", pages.Progress, want)
	}
	if len(pages.Pages) != 3 || pages.Pages[0].Labelled != 6 || !pages.Pages[1].Complete || pages.Pages[2].Name != "mill.example_"+itoa(ids[2]) {
		t.Errorf("pages: %+v", pages.Pages)
	}
	ts.labelAll(t, proj, ids, 0)
	ts.do(t, "GET", pathf("/v1/projects/%d/pages/%d", proj, ids[0]), "", nil).want(t, 200).json(t, &d)
	for i, b := range d.BlockList {
		if b.Label != testPages[0].labels[i].String() || b.Author != "ann" {
			t.Errorf("block %d: label %q by %q, want %q", i, b.Label, b.Author, testPages[0].labels[i])
		}
	}
	var p projectJSON
	ts.do(t, "GET", pathf("/v1/projects/%d", proj), "", nil).want(t, 200).json(t, &p)
	if p.Progress == nil || *p.Progress != (progress{Pages: 3, PagesComplete: 3, Blocks: 15, Labelled: 15}) {
		t.Errorf("project: %+v", p.Progress)
	}

	ts.do(t, "DELETE", pathf("/v1/projects/%d", proj), "", nil).want(t, http.StatusNoContent)
	if a := ts.do(t, "GET", pathf("/v1/projects/%d/pages/%d", proj, ids[0]), "", nil).want(t, 404); a.code(t) != "not_found" {
		t.Errorf("a page of a deleted project: %s", a.body)
	}
	ts.do(t, "DELETE", pathf("/v1/projects/%d", proj), "", nil).want(t, 404)
}

// TestValidation checks the errors of the project and page routes: each
// status and code.
func TestValidation(t *testing.T) {
	ts := startServer(t, "")
	proj, ids := ts.newProject(t, "rivers")
	other, _ := ts.newProject(t, "others")
	labels := pathf("/v1/projects/%d/pages/%d/labels", proj, ids[1])
	for _, c := range []struct {
		name, method, path, ct string
		body                   any
		status                 int
		code                   string
	}{
		{"unknown label", "PUT", labels, "", map[string]any{"labels": []string{"o", "h", "x", "o"}}, 400, "unknown_label"},
		{"too few labels", "PUT", labels, "", map[string]any{"labels": []string{"o", "h", "p"}}, 422, "wrong_block_count"},
		{"too many labels", "PUT", labels, "", map[string]any{"labels": []string{"o", "h", "p", "o", "o"}}, 422, "wrong_block_count"},
		{"no labels", "PUT", labels, "", map[string]any{"author": "ann"}, 400, "missing_field"},
		{"labels not strings", "PUT", labels, "", `{"labels": [1, 2, 3, 4]}`, 400, "bad_field"},
		{"unknown field", "PUT", labels, "", map[string]any{"labels": []string{}, "label": 1}, 400, "unknown_field"},
		{"malformed JSON", "PUT", labels, "application/json", `{"labels": [`, 400, "malformed_json"},
		{"labels as text", "PUT", labels, "text/plain", "o h p o", 415, "unsupported_media_type"},
		{"page of another project", "GET", pathf("/v1/projects/%d/pages/%d", other, ids[0]), "", nil, 404, "not_found"},
		{"no such project", "GET", "/v1/projects/999", "", nil, 404, "not_found"},
		{"project id not a number", "GET", "/v1/projects/rivers", "", nil, 404, "not_found"},
		{"project name taken", "POST", "/v1/projects", "", map[string]string{"name": "rivers"}, 409, "exists"},
		{"project without name", "POST", "/v1/projects", "", map[string]string{"description": "x"}, 400, "missing_field"},
		{"project named by a number", "POST", "/v1/projects", "", map[string]string{"name": "12"}, 400, "bad_name"},
		{"page without blocks", "POST", pathf("/v1/projects/%d/pages", proj), "text/html", "<html><script>x()</script></html>", 422, "no_blocks"},
		{"empty page", "POST", pathf("/v1/projects/%d/pages", proj), "text/html", "  ", 400, "empty_input"},
		{"page as an image", "POST", pathf("/v1/projects/%d/pages", proj), "image/png", "x", 415, "unsupported_media_type"},
		{"unknown parameter", "GET", pathf("/v1/projects/%d/pages?sort=url", proj), "", nil, 400, "unknown_parameter"},
		{"page to no project", "POST", "/v1/projects/999/pages", "text/html", "<p>Some text.</p>", 404, "not_found"},
		{"wrong method", "PATCH", pathf("/v1/projects/%d", proj), "", nil, 405, "method_not_allowed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := ts.do(t, c.method, c.path, c.ct, c.body)
			if a.status != c.status || a.code(t) != c.code {
				t.Errorf("%d %s, want %d %s", a.status, a.body, c.status, c.code)
			}
		})
	}
	// Nothing was written by the refused requests.
	var pg pageDetail
	ts.do(t, "GET", pathf("/v1/projects/%d/pages/%d", proj, ids[1]), "", nil).want(t, 200).json(t, &pg)
	if pg.Labelled != 0 {
		t.Errorf("refused labels were stored: %+v", pg.pageJSON)
	}
}

// TestToken checks that every route of the service needs the token.
func TestToken(t *testing.T) {
	ts := startServer(t, "s3cret")
	proj, _ := ts.newProject(t, "rivers")
	ts.token = ""
	for _, rt := range ts.svc.Routes() {
		if !rt.Management {
			t.Errorf("%s %s is not a management route", rt.Method, rt.Path)
		}
		path := strings.NewReplacer("{id}", itoa(proj), "{page}", "1").Replace(rt.Path)
		if a := ts.do(t, rt.Method, path, "", nil); a.status != 401 || a.code(t) != "unauthorized" {
			t.Errorf("%s %s without the token: %d %s", rt.Method, path, a.status, a.body)
		}
	}
	ts.token = "wrong"
	ts.do(t, "GET", "/v1/projects", "", nil).want(t, 401)
	ts.token = "s3cret"
	ts.do(t, "GET", "/v1/projects", "", nil).want(t, 200)
}

// TestOpenAPI checks that the server's API description documents every
// route of the service (server's own test sees only its routes).
func TestOpenAPI(t *testing.T) {
	ts := startServer(t, "")
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	ts.do(t, "GET", "/v1/openapi.json", "", nil).want(t, 200).json(t, &doc)
	for _, rt := range ts.svc.Routes() {
		if _, ok := doc.Paths[rt.Path][strings.ToLower(rt.Method)]; !ok {
			t.Errorf("%s %s is not in server/openapi.json", rt.Method, rt.Path)
		}
	}
}

// lastWord is the last word of s.
func lastWord(s string) string {
	f := strings.Fields(s)
	return f[len(f)-1]
}
