package workbench

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sluice-project/sluice/projects"
	"github.com/sluice-project/sluice/server"
)

// annotatePage is a page to label: a menu and a footer (other), a
// heading, paragraphs and list items about a craft.
func annotatePage(craft string) string {
	return "<!DOCTYPE html><html><head><meta charset=utf-8><title>" + craft + "</title></head><body>" +
		"<ul class=menu><li><a href=/>Start</a><li><a href=/shop>Shop</a></ul>" +
		"<h1>On " + craft + "</h1>" +
		"<p>The craft of " + craft + " is old, and the workshops that still practise it welcome visitors most days of the week.</p>" +
		"<p>Apprentices learn " + craft + " over several years, first by watching, then by repeating each step until it is second nature.</p>" +
		"<p class=footer>Legal notice and cookies</p></body></html>"
}

// startAnnotateServer serves the workbench and the projects' routes over
// a store in the test's folder.
func startAnnotateServer(t *testing.T) *testServer {
	t.Helper()
	db := openStore(t)
	svc, err := projects.New(projects.Config{Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), TrainWorkers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		svc.Shutdown(ctx)
	})
	return startServer(t, server.Config{Store: db, Routes: svc.Routes()}, Config{})
}

// wantLabel is the label a person gives a block of annotatePage, by its text.
func wantLabel(text string) string {
	switch {
	case strings.HasPrefix(text, "On "):
		return "h"
	case strings.HasPrefix(text, "The craft"), strings.HasPrefix(text, "Apprentices"):
		return "p"
	}
	return "o"
}

// TestBrowserAnnotate drives the Annotate view in headless Chromium: a
// project is created and given two pages; the first is labelled with the
// keyboard alone (arrows, h, p, o, Enter), its progress and the project's
// follow; n opens the next page; both exports are made; a model is trained
// on the project and listed, with screenshots of each step.
func TestBrowserAnnotate(t *testing.T) {
	ctx := browser(t)
	dir := screenshots(t)
	ts := startAnnotateServer(t)
	must := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("open", chromedp.Navigate(ts.url+"/annotate"), chromedp.WaitVisible(chromedp.ID("project-form")))
	if f := jsString(t, ctx, `document.activeElement.id`); f != "project-name" {
		t.Errorf("with no project, the focus is on %q, not the new project's name", f)
	}
	must("create a project", chromedp.SendKeys(chromedp.ID("project-name"), "crafts"), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the project", `document.getElementById('project').selectedOptions[0].textContent === 'crafts'`)

	for i, craft := range []string{"rope making", "glass blowing"} {
		must("add a page", chromedp.SetValue(chromedp.ID("add-html"), annotatePage(craft)),
			chromedp.SetValue(chromedp.ID("add-url"), fmt.Sprintf("http://crafts.example/%d", i+1)), chromedp.Click(chromedp.ID("add")))
		waitJS(t, ctx, "the page listed", fmt.Sprintf(`document.querySelectorAll('#pages li').length === %d`, i+1))
	}
	waitJS(t, ctx, "the first page open", `document.querySelectorAll('#blocks li').length > 0 && document.getElementById('page-title').textContent.startsWith('Page 1 of 2')`)
	texts := strings.Split(jsString(t, ctx, `Array.from(document.querySelectorAll('#blocks .txt')).map(e => e.textContent).join('\n')`), "\n")
	n := len(texts)
	t.Logf("%d blocks: %q", n, texts)
	if n < 5 {
		t.Fatalf("the page has %d blocks", n)
	}
	shoot(t, ctx, dir, "annotate-open")

	// The keyboard alone: to the end and back with the arrows, then a
	// label per block (each moves on to the next).
	must("focus the blocks", chromedp.Focus(chromedp.ID("blocks")))
	for range 3 {
		must("down", chromedp.KeyEvent(kb.ArrowDown))
	}
	if c := jsString(t, ctx, `document.getElementById('blocks').getAttribute('aria-activedescendant')`); c != "blk-3" {
		t.Errorf("after three arrows down the current block is %q", c)
	}
	for range 3 {
		must("up", chromedp.KeyEvent(kb.ArrowUp))
	}
	for _, text := range texts {
		must("label", chromedp.KeyEvent(wantLabel(text)))
	}
	waitJS(t, ctx, "the page's progress", fmt.Sprintf(`document.getElementById('page-count').textContent === '%d of %d blocks labelled (%d not saved)'`, n, n, n))
	// The frame shows the labels and the current block (the last one).
	for i, text := range texts {
		want := map[string]string{"h": "heading", "p": "paragraph", "o": "other"}[wantLabel(text)]
		got := jsString(t, ctx, fmt.Sprintf(`Array.from(document.getElementById('frame').contentDocument.querySelectorAll('[data-b="%d"]')).map(s => s.dataset.l).join(',')`, i))
		if got == "" || strings.Trim(strings.ReplaceAll(got, want, ""), ",") != "" {
			t.Errorf("block %d (%q): the frame marks it %q, want %s", i, text, got, want)
		}
	}
	if cur := jsString(t, ctx, `String(document.getElementById('frame').contentDocument.querySelectorAll('.sl-cur').length) + ' ' + document.querySelector('#blocks li[aria-selected=true]').id`); !strings.HasSuffix(cur, fmt.Sprintf(" blk-%d", n-1)) || strings.HasPrefix(cur, "0 ") {
		t.Errorf("the current block: %q", cur)
	}
	must("back up", chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp))
	shoot(t, ctx, dir, "annotate-labelled")
	must("save", chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "saved", fmt.Sprintf(`document.getElementById('page-count').textContent === '%d of %d blocks labelled' && document.getElementById('project-count').textContent.endsWith('1 of 2 pages complete')`, n, n))
	if s := jsString(t, ctx, `document.querySelector('#pages li:first-child .count').textContent`); s != fmt.Sprintf("%d/%d ✓", n, n) {
		t.Errorf("the page list says %q", s)
	}
	must("to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	shoot(t, ctx, dir, "annotate")

	// n: the next page, with the model's labels in italics; one label given.
	must("next page", chromedp.KeyEvent("n"))
	waitJS(t, ctx, "the second page", `document.getElementById('page-title').textContent.startsWith('Page 2 of 2') && document.activeElement.id === 'blocks'`)
	if m := jsString(t, ctx, `String(document.querySelectorAll('#blocks .lab.model').length)`); m == "0" {
		t.Error("the second page shows no pre-labels")
	}
	must("label one and save", chromedp.KeyEvent("o"), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the second page saved", `document.getElementById('page-count').textContent.startsWith('1 of ') && !document.getElementById('page-count').textContent.includes('saved')`)
	waitJS(t, ctx, "the project's progress", fmt.Sprintf(`document.getElementById('project-count').textContent.startsWith('%d of ')`, n+1))

	// Export, both formats: the view says what it made; the API answers
	// the complete page alone.
	must("export (Victor)", chromedp.Focus(chromedp.ID("export-victor")), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the export", `document.getElementById('export-status').dataset.format === 'victor'`)
	must("export (data set)", chromedp.Focus(chromedp.ID("export-dataset")), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the export", `document.getElementById('export-status').dataset.format === 'dataset'`)
	if s := jsString(t, ctx, `document.getElementById('export-status').textContent`); !strings.Contains(s, "1 page,") || !strings.Contains(s, "1 not complete") {
		t.Errorf("the export says %q", s)
	}
	for format, want := range map[string][]string{"victor": {"crafts/crafts.example_1.html", "crafts/crafts.example_1.ann"}, "dataset": {"crafts/html/crafts.example_1.html", "crafts/ann/crafts.example_1.ann"}} {
		a := ts.do(t, "GET", "/v1/projects/1/export?format="+format, "", nil)
		if a.status != 200 {
			t.Fatalf("export %s: %d %s", format, a.status, a.body)
		}
		names, ann := tarNames(t, a.body)
		if strings.Join(names, " ") != strings.Join(want, " ") {
			t.Errorf("export %s: %q, want %q", format, names, want)
		}
		if !strings.Contains(ann, "[h] On rope making") {
			t.Errorf("export %s: the annotation is\n%s", format, ann)
		}
	}

	// Train with tiny settings: progress, then the model listed.
	must("train", chromedp.SetValue(chromedp.ID("model-name"), "crafts-1"), chromedp.SetValue(chromedp.ID("stages"), "crf"),
		chromedp.SetValue(chromedp.ID("iterations"), "5"), chromedp.Focus(chromedp.ID("train")), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the training", `['done', 'failed'].includes(document.getElementById('train-progress').dataset.status)`)
	if s := jsString(t, ctx, `document.getElementById('train-text').textContent`); s != "done: model “crafts-1” stored" {
		t.Fatalf("the training says %q", s)
	}
	waitJS(t, ctx, "the model listed", `!!document.querySelector('#models tr.fresh') && document.querySelector('#models tr.fresh th').textContent === 'crafts-1'`)
	must("scroll", chromedp.ScrollIntoView(chromedp.ID("models")))
	shoot(t, ctx, dir, "annotate-trained")
	full(t, ctx, dir, "annotate-full")
}

// tarNames lists the files of a tar.gz archive, with the text of its
// first .ann file.
func tarNames(t *testing.T, data []byte) (names []string, ann string) {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, ann
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		names = append(names, h.Name)
		if strings.HasSuffix(h.Name, ".ann") && ann == "" {
			b, _ := io.ReadAll(tr)
			ann = string(b)
		}
	}
}

// TestBrowserAnnotateToken: on a server with a token the view says so on
// 401, takes the token, and then offers to create a project.
func TestBrowserAnnotateToken(t *testing.T) {
	ctx := browser(t)
	dir := screenshots(t)
	db := openStore(t)
	svc, err := projects.New(projects.Config{Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := startServer(t, server.Config{Store: db, Token: "s3cret", Routes: svc.Routes()}, Config{})
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.url+"/annotate")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the 401 message", `document.getElementById('error').textContent.includes('needs it for annotation projects (401')`)
	shoot(t, ctx, dir, "annotate-token")
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("token"), "s3cret"), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the new project form", `!document.getElementById('project-form').hidden && document.getElementById('error').hidden`)
}
