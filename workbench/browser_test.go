package workbench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/proxy"
)

// browser starts headless Chromium (Debian's chromium package) for one
// test, or skips the test when there is none: .ci/run installs it.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if path, err = exec.LookPath("chromium-browser"); err != nil {
			t.Skip("no chromium on PATH: the browser tests need Debian's chromium package (apt-get install chromium; .ci/run installs it)")
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.WindowSize(1400, 1000))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	tctx, tcancel := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(tcancel)
	return tctx
}

// screenshots is where the browser tests save their screenshots:
// $SLUICE_SCREENSHOTS, else a directory of the test's own.
func screenshots(t *testing.T) string {
	dir := os.Getenv("SLUICE_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s (set $SLUICE_SCREENSHOTS to keep them)", dir)
	return dir
}

// shoot saves a screenshot of the tab's viewport as dir/name.png.
func shoot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// full saves a screenshot of the whole page as dir/name.png.
func full(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsString evaluates a JavaScript expression to a string.
func jsString(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return s
}

// waitJS waits until a JavaScript expression is true.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("waiting for %s (%s): %v; the error box says %q", what, expr, err,
			jsString(t, ctx, `document.getElementById('error').textContent`))
	}
}

// frameMarks counts the kept and dropped marks in the Inspect view's
// frame. Chromium runs a sandboxed frame in a process of its own, a target
// of type "iframe": the count is read in it.
func frameMarks(ctx context.Context) (kept, dropped int, err error) {
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return 0, 0, err
	}
	for _, in := range infos {
		if in.Type != "iframe" || in.URL != "about:srcdoc" {
			continue
		}
		fctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(in.TargetID), chromedp.WithDetachOnCancel())
		counts, err := chromedp.Run(fctx, chromedp.Evaluate[[]int](
			`[document.querySelectorAll('span.sl-k').length, document.querySelectorAll('span.sl-d').length]`))
		cancel()
		if err != nil {
			return 0, 0, err
		}
		return counts[0], counts[1], nil
	}
	return 0, 0, fmt.Errorf("no frame target")
}

// waitMarks waits until the frame's marks satisfy ok, and returns them.
func waitMarks(t *testing.T, ctx context.Context, what string, ok func(k, d int) bool) (int, int) {
	t.Helper()
	var k, d int
	var err error
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if k, d, err = frameMarks(ctx); err == nil && ok(k, d) {
			return k, d
		}
	}
	t.Fatalf("%s: the frame has %d kept and %d dropped marks (%v)", what, k, d, err)
	return 0, 0
}

// keptCount reads "N of M blocks kept".
func keptCount(t *testing.T, ctx context.Context) (n, of int) {
	t.Helper()
	s := jsString(t, ctx, `document.getElementById('kept-count').textContent`)
	if _, err := fmt.Sscanf(s, "%d of %d", &n, &of); err != nil {
		t.Fatalf("kept count %q: %v", s, err)
	}
	return n, of
}

// pickStored picks the picker's stored choice (param "filter_set" or
// "model") called name with the arrow keys, once the stored choices are in.
func pickStored(t *testing.T, ctx context.Context, param, name string) {
	t.Helper()
	waitJS(t, ctx, "the stored choices", `document.getElementById('filter').dataset.loaded === 'true'`)
	moves := jsString(t, ctx, fmt.Sprintf(`(() => { const s = document.getElementById('filter');
		const i = [...s.options].findIndex((o) => o.dataset.param === %q && o.value === %q);
		return String(i < 0 ? -1 : i - s.selectedIndex); })()`, param, name))
	n, err := strconv.Atoi(moves)
	if err != nil || n < 0 {
		t.Fatalf("the picker has no %s %q after the selected choice (%s)", param, name, moves)
	}
	steps := []chromedp.Action[chromedp.Void]{chromedp.Focus(chromedp.ID("filter"))}
	for range n {
		steps = append(steps, chromedp.KeyEvent(kb.ArrowDown))
	}
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("picking %s %q: %v", param, name, err)
	}
}

// TestBrowserInspect drives the Inspect view in headless Chromium: paste
// a page, see its blocks marked in the frame, move the threshold with the
// keyboard, pick another filter, pick a stored filter set and a stored
// model from the list, fetch by address, and be refused a private address
// and a file too large, with screenshots of each step.
func TestBrowserInspect(t *testing.T) {
	ctx := browser(t)
	dir := screenshots(t)
	article := examplePage(t)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(article)
	}))
	defer up.Close()
	// The test's upstream is on loopback: let the fetcher reach 127.0.0.1
	// alone, as --fetch-allow-private would (private ranges stay refused).
	fetch := proxy.NewFetchClient(proxy.FetchOptions{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}})
	ts := storedServer(t, Config{Fetch: fetch})

	must := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("home", chromedp.Navigate(ts.url+"/"), chromedp.WaitVisible(chromedp.CSS("h1")))
	shoot(t, ctx, dir, "home")

	must("paste", chromedp.Navigate(ts.url+"/inspect"), chromedp.WaitVisible(chromedp.ID("html")),
		chromedp.SetValue(chromedp.ID("html"), string(article)), chromedp.Click(chromedp.ID("run")))
	waitJS(t, ctx, "the result", `!document.getElementById('result').hidden`)
	kept0, dropped0 := waitMarks(t, ctx, "the pasted page", func(k, d int) bool { return k > 0 && d > 0 })
	n0, of := keptCount(t, ctx)
	t.Logf("model: %d of %d blocks kept; the frame marks %d text runs kept, %d dropped", n0, of, kept0, dropped0)
	// The clean output, with the keyboard: each block says its label and score.
	must("output", chromedp.Focus(chromedp.ID("out")), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	if info := jsString(t, ctx, `document.getElementById('block-info').textContent`); !strings.Contains(info, " · kept") {
		t.Errorf("a focused block of the output says %q", info)
	}
	shoot(t, ctx, dir, "inspect")

	// The slider, with the keyboard only: up in steps of 0.01.
	must("focus the slider", chromedp.Focus(chromedp.ID("threshold")))
	for range 40 {
		must("arrow", chromedp.KeyEvent(kb.ArrowRight))
	}
	if v := jsString(t, ctx, `document.getElementById('threshold-value').textContent`); v == "" {
		t.Error("the threshold shows no value")
	}
	n1, _ := keptCount(t, ctx)
	if n1 >= n0 {
		t.Errorf("raising the threshold by 0.4 kept %d blocks, before %d", n1, n0)
	}
	waitMarks(t, ctx, "after the slider", func(k, d int) bool { return k < kept0 && k+d == kept0+dropped0 })
	if f := jsString(t, ctx, `document.activeElement.id`); f != "threshold" {
		t.Errorf("focus moved to %q", f)
	}
	shoot(t, ctx, dir, "inspect-threshold")

	// Another filter, picked with the keyboard: the third choice.
	must("pick a filter", chromedp.Focus(chromedp.ID("filter")), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	waitJS(t, ctx, "the other filter's answer", `document.getElementById('meta').textContent.includes('decided by lqf>targetnode')`)
	waitMarks(t, ctx, "lqf>targetnode", func(k, d int) bool { return k > 0 && d > 0 })
	shoot(t, ctx, dir, "inspect-filter")

	// The stored set, picked from the list with the keyboard: its
	// parameter applies (BTE keeping every block, against 10 of 24 with
	// the defaults).
	pickStored(t, ctx, "filter_set", "wide")
	waitJS(t, ctx, "the stored set's answer", `document.getElementById('meta').textContent.includes('filter set wide@1')`)
	if n, of := keptCount(t, ctx); n != of || of == 0 {
		t.Errorf("filter set wide: %d of %d blocks kept, want all", n, of)
	}
	shoot(t, ctx, dir, "inspect-filter-set")
	// The stored model, next in the list: it keeps what it keeps in process.
	pickStored(t, ctx, "model", "m1")
	waitJS(t, ctx, "the stored model's answer", `document.getElementById('meta').textContent.includes('stored model m1')`)
	m1, err := sluice.New(sluice.Options{Model: legacyModel(t, "m1")})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := keptCount(t, ctx); n != keptInProcess(t, m1, article) {
		t.Errorf("stored model m1: %d blocks kept, %d in process", n, keptInProcess(t, m1, article))
	}
	shoot(t, ctx, dir, "inspect-model")

	// By address: the local upstream.
	must("fetch", chromedp.Click(chromedp.CSS(`input[value=fetch]`)), chromedp.WaitVisible(chromedp.ID("fetch")),
		chromedp.SendKeys(chromedp.ID("fetch"), up.URL+"/article"), chromedp.Click(chromedp.ID("run")))
	waitJS(t, ctx, "the fetched page", `document.getElementById('meta').textContent.includes('`+up.URL+`/article')`)
	waitMarks(t, ctx, "the fetched page", func(k, d int) bool { return k > 0 })
	shoot(t, ctx, dir, "inspect-fetch")

	// A private address is refused, with the message in the page. The
	// fetcher refuses it before connecting: nothing is sent there.
	must("private", chromedp.SetValue(chromedp.ID("fetch"), "http://10.0.0.1/admin"), chromedp.Click(chromedp.ID("run")))
	waitJS(t, ctx, "the refusal", `document.getElementById('error').textContent.includes('refused to fetch')`)
	shoot(t, ctx, dir, "inspect-refused")

	// A file of 1 GB (sparse: it takes no disk) is refused before it is sent.
	big := filepath.Join(t.TempDir(), "huge.html")
	if f, err := os.Create(big); err != nil || f.Truncate(1<<30) != nil || f.Close() != nil {
		t.Fatalf("making a 1 GB file: %v", err)
	}
	must("upload", chromedp.Click(chromedp.CSS(`input[value=file]`)), chromedp.SetUploadFiles(chromedp.ID("file"), []string{big}),
		chromedp.Click(chromedp.ID("run")))
	waitJS(t, ctx, "the size refusal", `document.getElementById('error').textContent.includes('1073741824 bytes')`)
	shoot(t, ctx, dir, "inspect-too-large")

	// A binary file goes to the server, which names the problem.
	bin := filepath.Join(t.TempDir(), "image.html")
	if err := os.WriteFile(bin, append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 500)...), 0o644); err != nil {
		t.Fatal(err)
	}
	must("binary", chromedp.SetUploadFiles(chromedp.ID("file"), []string{bin}), chromedp.Click(chromedp.ID("run")))
	waitJS(t, ctx, "the binary refusal", `document.getElementById('error').textContent.includes('could not be cleaned')`)
	if !strings.Contains(jsString(t, ctx, `document.getElementById('error').getAttribute('role')`), "alert") {
		t.Error("the error box is not an alert")
	}
}
