package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/label"
)

// TestCrossValidateReportsPerSet cross-validates a tiny labeller on a few
// pages of two shared sets and checks the per-set block accuracies and the
// L3S-GN1 span-class table.
func TestCrossValidateReportsPerSet(t *testing.T) {
	ctx := context.Background()
	pages := smallTraining(t)
	res, err := CrossValidate(ctx, pages, 2, Config{MaxIterations: 5}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Folds) != 2 || res.Overall.Pages != len(pages) {
		t.Fatalf("got %d folds and %d pages, want 2 and %d", len(res.Folds), res.Overall.Pages, len(pages))
	}
	blocks := 0
	for name, ss := range res.Overall.Sets {
		if ss.Accuracy <= 0 || ss.Accuracy > 1 || ss.Content < ss.Accuracy || ss.Content > 1 {
			t.Errorf("%s: accuracy %v, content accuracy %v", name, ss.Accuracy, ss.Content)
		}
		if name != "l3s-gn1" && len(ss.Classes) > 0 {
			t.Errorf("%s has span classes: %v", name, ss.Classes)
		}
	}
	l3s := res.Overall.Sets["l3s-gn1"]
	if l3s == nil || len(l3s.Classes) == 0 {
		t.Fatalf("no span-class table for l3s-gn1: %+v", l3s)
	}
	for _, c := range l3s.Classes {
		if c.Blocks <= 0 || c.Kept < 0 || c.Kept > 1 || c.Name != l3sClassNames[c.Class] {
			t.Errorf("bad class row %+v", c)
		}
		blocks += c.Blocks
	}
	all := 0
	for _, p := range pages {
		if p.Data.Set == "l3s-gn1" {
			all += len(p.Example.Page.Blocks)
		}
	}
	if blocks > all || blocks < all/2 {
		t.Errorf("span classes cover %d of %d l3s blocks", blocks, all)
	}
	// The per-page rows average to each set's macro F1.
	sum, n := map[string]float64{}, map[string]int{}
	for _, ps := range res.Pages {
		sum[ps.Set] += ps.F1
		n[ps.Set]++
	}
	for name, ss := range res.Overall.Sets {
		if n[name] != ss.Main.Pages || math.Abs(sum[name]/float64(n[name])-ss.Main.Macro.F1) > 1e-9 {
			t.Errorf("%s: %d page rows averaging %v; set: %d pages, macro F1 %v", name, n[name], sum[name]/float64(n[name]), ss.Main.Pages, ss.Main.Macro.F1)
		}
	}
	checkMarginalsRoundTrip(t, pages, res)
}

// checkMarginalsRoundTrip writes the held-out marginals of res and reads
// them back (what scripts/replay studies decision rules on): every page,
// its fold and its probabilities, to float32's precision.
func checkMarginalsRoundTrip(t *testing.T, pages []*TrainPage, res *CVResult) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteMarginals(&buf, pages, res); err != nil {
		t.Fatal(err)
	}
	held, err := ReadMarginals(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(held) != len(pages) {
		t.Fatalf("read %d held-out pages, wrote %d", len(held), len(pages))
	}
	for i, h := range held {
		p := pages[i]
		if h.Set != p.Data.Set || h.ID != p.Data.ID || h.Fold != res.Fold[i] || len(h.Blocks) != len(res.Marginals[i]) {
			t.Fatalf("page %d read as %s/%s fold %d with %d blocks; want %s/%s fold %d with %d", i, h.Set, h.ID, h.Fold, len(h.Blocks),
				p.Data.Set, p.Data.ID, res.Fold[i], len(res.Marginals[i]))
		}
		for b, row := range h.Blocks {
			for k, v := range row {
				if math.Abs(float64(v)-res.Marginals[i][b][k]) > 1e-6 {
					t.Fatalf("%s/%s block %d label %d: read %v, wrote %v", h.Set, h.ID, b, k, v, res.Marginals[i][b][k])
				}
			}
		}
	}
	if _, err := ReadMarginals(strings.NewReader(`{"set": "x"`)); err == nil {
		t.Error("a cut line: no error")
	}
}

// TestCrossValidateChoosesThresholds checks the threshold sweep: every
// grid point scored for every set, one threshold chosen per style, from
// the grid, the best of the style's mean.
func TestCrossValidateChoosesThresholds(t *testing.T) {
	ctx := context.Background()
	pages := smallTraining(t)
	for _, p := range pages {
		want := label.MainStyle
		if p.Data.Set == "cleaneval-dev" {
			want = label.CleanEvalStyle
		}
		if p.Example.Style != want {
			t.Fatalf("%s/%s has style %q, want %q", p.Data.Set, p.Data.ID, p.Example.Style, want)
		}
	}
	res, err := CrossValidate(ctx, pages, 2, Config{MaxIterations: 5}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sweep) != len(ThresholdGrid) {
		t.Fatalf("sweep has %d points, want %d", len(res.Sweep), len(ThresholdGrid))
	}
	styleSet := map[string]string{label.MainStyle: "l3s-gn1", label.CleanEvalStyle: "cleaneval-dev"}
	for style, set := range styleSet {
		th, ok := res.Thresholds[style]
		if !ok {
			t.Fatalf("no threshold for style %s: %v", style, res.Thresholds)
		}
		best, at := -1.0, 0.0
		for _, pt := range res.Sweep {
			if len(pt.F1) != 2 {
				t.Fatalf("sweep point %v scores %d sets, want 2", pt.Threshold, len(pt.F1))
			}
			if pt.F1[set] > best {
				best, at = pt.F1[set], pt.Threshold
			}
		}
		if th != at {
			t.Errorf("style %s: threshold %v chosen, but %v scores best (%v)", style, th, at, best)
		}
		if got := res.Overall.Sets[set].Main.Macro.F1; math.Abs(got-best) > 1e-9 {
			t.Errorf("style %s: reported F1 %v is not the sweep's at the chosen threshold (%v)", style, got, best)
		}
	}
}

// smallTraining loads 8 pages each of l3s-gn1 and cleaneval-dev, skipping
// the test without the shared data or with -short.
func smallTraining(t *testing.T) []*TrainPage {
	t.Helper()
	if testing.Short() {
		t.Skip("trains a model")
	}
	for _, s := range []string{"l3s-gn1", "cleaneval-dev"} {
		if _, err := dataset.Open(s); err != nil {
			t.Skipf("no shared data: %v", err)
		}
	}
	pages, _, err := LoadTraining(context.Background(), []string{"l3s-gn1", "cleaneval-dev"}, LoadOptions{Limit: 8})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// TestScoreOnlyPages checks that pages the labeller cannot learn from (no
// gold text, gold not in the page, nothing to segment) are kept as test
// pages: scored by CrossValidate, left out of training.
func TestScoreOnlyPages(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir := t.TempDir()
	write := func(name, data string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	article := func(i int) (string, string) {
		body := fmt.Sprintf("Story %d tells how the river flooded the lower town in spring and how the people rebuilt the mill together.", i)
		return fmt.Sprintf("<html><body><div class=nav><a href=/>Home</a> <a href=/news>News</a></div><div class=story><p>%s</p><p>%s</p></div><div class=footer>Copyright 2024</div></body></html>", body, body), body + "\n\n" + body
	}
	for i := range 4 {
		h, g := article(i)
		write(fmt.Sprintf("html/%d.html", i), h)
		write(fmt.Sprintf("gold/%d.txt", i), g)
	}
	h, _ := article(4)
	write("html/4.html", h)
	write("gold/4.txt", "") // no gold text
	h, _ = article(5)
	write("html/5.html", h)
	write("gold/5.txt", "A text about something else entirely, which this page does not hold anywhere.") // gold not in the page
	write("html/6.html", "")                                                                             // nothing to segment
	write("gold/6.txt", "Some gold text.")

	var scoredReasons int
	pages, skipped, err := LoadTraining(context.Background(), []string{dir}, LoadOptions{Skip: func(_ *dataset.Set, id string, reason error) {
		var se *SkipError
		if !errors.As(reason, &se) || !se.Scored {
			t.Errorf("page %s: reason %v is not a scored skip", id, reason)
		}
		scoredReasons++
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 0 || len(pages) != 7 || scoredReasons != 3 {
		t.Fatalf("%d pages, %d scored-only reasons, skipped %v; want 7, 3, none", len(pages), scoredReasons, skipped)
	}
	want := map[string]string{"4": "no gold text", "5": "the gold aligns with only", "6": ""}
	for _, p := range pages {
		w, scoreOnly := want[p.Data.ID]
		if scoreOnly != (p.ScoreOnly != "") || !strings.HasPrefix(p.ScoreOnly, w) {
			t.Errorf("page %s: ScoreOnly %q", p.Data.ID, p.ScoreOnly)
		}
		if p.ScoreOnly != "" && p.Example.Labels != nil {
			t.Errorf("page %s is scored only but has labels", p.Data.ID)
		}
	}
	if n := len(Examples(pages)); n != 4 {
		t.Fatalf("%d training examples, want 4", n)
	}
	res, err := CrossValidate(context.Background(), pages, 2, Config{MaxIterations: 5, MinCount: 1}, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	ss := res.Overall.Sets[filepath.Base(dir)]
	if res.Overall.Pages != 7 || ss == nil || ss.Main.Pages != 7 {
		t.Fatalf("scored %d pages (%+v), want all 7", res.Overall.Pages, ss)
	}
	if len(res.Pages) != 7 {
		t.Fatalf("%d page scores, want 7", len(res.Pages))
	}
	for i, ps := range res.Pages {
		p := pages[i]
		if ps.ID != p.Data.ID || ps.Set != p.Data.Set || ps.ScoreOnly != p.ScoreOnly || ps.Fold != res.Fold[i] || ps.Metric != evaluate.Main(p.Kind) {
			t.Errorf("page %d: score row %+v for page %s of %s (fold %d)", i, ps, p.Data.ID, p.Data.Set, res.Fold[i])
		}
	}
	// Something of the page with no gold text is kept (the heuristic
	// fallback always keeps text), which scores 0, as the benchmarks
	// score it. The articles' stories are found.
	articles := map[string]bool{"0": true, "1": true, "2": true, "3": true}
	for _, ps := range res.Pages {
		switch {
		case ps.ID == "4" && ps.F1 != 0:
			t.Errorf("page 4 (no gold text) scores %v", ps.F1)
		case articles[ps.ID] && ps.F1 < 0.5:
			t.Errorf("article %s scores %v", ps.ID, ps.F1)
		}
	}
}
