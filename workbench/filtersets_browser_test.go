package workbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sluice-project/sluice/server"
)

// smallDataSet writes a data set in the CleanEval layout (html/ and
// gold/ with the same numbered names: package dataset reads it as a
// dragnet set, its gold plain text) of a few pages about crafts, each
// with a menu and a footer to drop, in root/name.
func smallDataSet(t *testing.T, root, name string) {
	t.Helper()
	crafts := []string{"rope making", "glass blowing", "book binding", "wood turning"}
	for _, sub := range []string{"html", "gold"} {
		if err := os.MkdirAll(filepath.Join(root, name, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for n, craft := range crafts {
		body := []string{
			"The craft of " + craft + " is old, and the workshops that still practise it welcome visitors most days of the week.",
			"Apprentices learn " + craft + " over several years, first by watching, then by repeating each step until it is second nature.",
		}
		page := "<html><body><ul class=menu><li><a href=/>Start</a><li><a href=/shop>Shop</a><li><a href=/news>News</a></ul>" +
			"<h1>On " + craft + "</h1><p>" + body[0] + "</p><p>" + body[1] + "</p>" +
			"<div class=side><p>Also on this site: <a href=/w>our winter programme of evening classes</a>, with places for twelve in each group, and <a href=/t>tea served at half time</a>.</p></div>" +
			"<p class=footer><a href=/legal>Legal notice</a> · <a href=/cookies>Cookies</a></p></body></html>"
		gold := "On " + craft + "\n\n" + body[0] + "\n\n" + body[1] + "\n"
		base := filepath.Join(root, name)
		if err := os.WriteFile(filepath.Join(base, "html", fmt.Sprintf("%d.html", n+1)), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, "gold", fmt.Sprintf("%d.txt", n+1)), []byte(gold), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The filter sets the browser test writes: one with two problems (an
// unknown filter on line 4, a misspelt field on line 5), then mended.
const (
	brokenSet = "version = 1\nname = \"strict\"\ndescription = \"link quota, then the target node\"\nfilter = \"lqf>nosuch\"\ntresh = 0.5\n"
	strictSet = "version = 1\nname = \"strict\"\ndescription = \"link quota, then the target node\"\nfilter = \"lqf>targetnode\"\n"
	looseSet  = "version = 1\nname = \"loose\"\ndescription = \"block-tag extraction alone\"\nfilter = \"bte\"\n"
)

// TestBrowserFilterSets drives the Filter sets view in headless Chromium:
// a set with problems is refused with each problem beside its line, then
// mended and saved; it is listed, edited into a second version that its
// history shows, compared with another set on a small data set (table and
// chart), and deleted after a confirmation, with screenshots of each step.
func TestBrowserFilterSets(t *testing.T) {
	ctx := browser(t)
	dir := screenshots(t)
	root := t.TempDir()
	smallDataSet(t, root, "crafts")
	ts := startServer(t, server.Config{Store: openStore(t), DataRoot: root}, Config{})
	must := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("open", chromedp.Navigate(ts.url+"/filter-sets"), chromedp.WaitVisible(chromedp.ID("no-sets")))

	// A set with two problems: each is shown beside its line.
	must("write a broken set", chromedp.Click(chromedp.ID("new-set")), chromedp.SetValue(chromedp.ID("text"), brokenSet), chromedp.Click(chromedp.ID("save")))
	waitJS(t, ctx, "the problems", `document.querySelectorAll('#marks .mark').length === 2`)
	for line, want := range map[int]string{4: "nosuch", 5: "tresh"} {
		mark := jsString(t, ctx, fmt.Sprintf(`(document.querySelector('#marks .mark[data-line="%d"]') || {}).textContent || ''`, line))
		top := jsString(t, ctx, fmt.Sprintf(`String(document.querySelector('#marks .mark[data-line="%d"]').getBoundingClientRect().top - document.getElementById('text').getBoundingClientRect().top)`, line))
		gutter := jsString(t, ctx, fmt.Sprintf(`document.getElementById('gutter').children[%d].className`, line-1))
		if !strings.Contains(mark, want) || gutter != "bad" {
			t.Errorf("line %d: the mark says %q (want %q), the gutter's class %q", line, mark, want, gutter)
		}
		if want := fmt.Sprint(6 + 20*(line-1)); top != want { // the textarea's padding, then 20 px a line
			t.Errorf("line %d: the mark is %s px below the editor's top, want %s: not beside its line", line, top, want)
		}
	}
	if e := jsString(t, ctx, `document.getElementById('error').textContent`); !strings.Contains(e, "2 problems") {
		t.Errorf("the error box says %q", e)
	}
	shoot(t, ctx, dir, "filter-sets-problems")

	// The problem list moves the cursor to the problem, for the keyboard.
	must("go to a problem", chromedp.Click(chromedp.CSS(`#problems li:first-child button`)))
	if pos := jsString(t, ctx, `String(document.getElementById('text').selectionStart)`); pos == "0" {
		t.Error("the problem's button did not move the cursor")
	}

	// Mended and saved with the keyboard (Ctrl+Enter): listed.
	must("mend", chromedp.SetValue(chromedp.ID("text"), strictSet), chromedp.Focus(chromedp.ID("text")),
		chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	waitJS(t, ctx, "the saved set in the list", `!!document.querySelector('#sets tr[data-name="strict"]')`)
	if n := jsString(t, ctx, `String(document.querySelectorAll('#marks .mark').length)`); n != "0" {
		t.Errorf("%s problem marks left after a save", n)
	}

	// Edited: a second version, in the history.
	must("edit", chromedp.SetValue(chromedp.ID("text"), strings.Replace(strictSet, "target node", "target node, version two", 1)), chromedp.Click(chromedp.ID("save")))
	waitJS(t, ctx, "the second version", `document.querySelectorAll('#history li').length === 2 && document.querySelector('#history li.current').dataset.version === '2'`)
	shoot(t, ctx, dir, "filter-sets-history")

	// A second set, then the comparison on the data set.
	must("another set", chromedp.Click(chromedp.ID("new-set")), chromedp.SetValue(chromedp.ID("text"), looseSet), chromedp.Click(chromedp.ID("save")))
	waitJS(t, ctx, "two sets", `document.querySelectorAll('#sets tbody tr').length === 2`)
	must("compare", chromedp.SetValue(chromedp.ID("data"), "crafts"), chromedp.Focus(chromedp.ID("data")), chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, "the comparison", `!document.getElementById('results').hidden`)
	rows := jsString(t, ctx, `Array.from(document.querySelectorAll('#prf tbody tr')).map(r => Array.from(r.cells).map(c => c.textContent.trim()).join(' | ')).join('\n')`)
	t.Logf("comparison:\n%s", rows)
	if strings.Count(rows, "\n") != 1 || !strings.Contains(rows, "loose v1") || !strings.Contains(rows, "strict v2") {
		t.Errorf("the table has %q", rows)
	}
	if bars := jsString(t, ctx, `String(document.querySelectorAll('#chart svg rect').length)`); bars != "8" { // 2 sets × 3 scores, and 2 legend keys
		t.Errorf("the chart has %s rectangles, want 8", bars)
	}
	must("scroll", chromedp.ScrollIntoView(chromedp.ID("chart")))
	shoot(t, ctx, dir, "filter-sets-compare")
	full(t, ctx, dir, "filter-sets")

	// Delete, after a confirmation: Escape keeps the set.
	must("ask to delete", chromedp.Click(chromedp.ID("delete")), chromedp.WaitVisible(chromedp.ID("confirm")))
	shoot(t, ctx, dir, "filter-sets-confirm")
	must("keep", chromedp.KeyEvent(kb.Escape), chromedp.WaitNotVisible(chromedp.ID("confirm")))
	if jsString(t, ctx, `String(document.querySelectorAll('#sets tbody tr').length)`) != "2" {
		t.Fatal("Escape deleted the set")
	}
	must("delete", chromedp.Click(chromedp.ID("delete")), chromedp.WaitVisible(chromedp.ID("confirm")), chromedp.Click(chromedp.ID("confirm-delete")))
	waitJS(t, ctx, "the set gone", `document.querySelectorAll('#sets tbody tr').length === 1 && !document.querySelector('#sets tr[data-name="loose"]')`)
}

// TestBrowserFilterSetsToken: on a server with a token the view says so
// on 401, takes the token, and then lists the sets.
func TestBrowserFilterSetsToken(t *testing.T) {
	ctx := browser(t)
	dir := screenshots(t)
	ts := startServer(t, server.Config{Store: openStore(t), Token: "s3cret"}, Config{})
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.url+"/filter-sets")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the 401 message", `document.getElementById('error').textContent.includes('needs it for filter sets (401')`)
	shoot(t, ctx, dir, "filter-sets-token")
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("token"), "s3cret"), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the list", `!document.getElementById('no-sets').hidden && document.getElementById('error').hidden`)
}
