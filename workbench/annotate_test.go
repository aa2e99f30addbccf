package workbench

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/server"
)

// TestAnnotateFrame: a project's page rewritten for the Annotate view's
// frame marks each of the blocks the projects' API lists, without
// scripts; another project's page and a server without a store are refused.
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
	bare.do(t, "GET", "/v1/annotate/projects/1/pages/1/frame", "", nil).apiError(t, 501, "no_store")
	if a := bare.do(t, "GET", "/annotate", "", nil); a.status != 200 || !strings.Contains(string(a.body), "keeps no annotation projects") {
		t.Errorf("/annotate without a store: %d", a.status)
	}
}
