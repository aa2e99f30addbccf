package sluice_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/score"
	"github.com/sluice-project/sluice/train"
)

// floorMargin is how far, in points of F1, a set's figure may fall below
// the one recorded in accuracyFloors before TestAccuracyFloor fails: room
// for the noise of an unrelated change (one page of 58 moving by 17 points
// moves cleaneval-dev's mean by 0.3), not for a real loss.
const floorMargin = 0.3

// The sample of -short runs: every shortStride-th page of a set of more
// than shortWhole pages, in the set's natural order of page ids starting
// with the first; the whole of a smaller set, whose sample would be too
// small for its mean to be steady (in a sample of six, one page is a
// sixth of the mean).
const (
	shortStride = 10
	shortWhole  = 200
)

// accuracyFloors holds, for each shared data set, the embedded model's
// figure as measured on the main line when the floor was set: the macro
// mean over pages of the per-page F1 of the set's metric, in percent, as
// "sluice eval" reports it in its F1 column, on the whole set (full) and on
// the -short sample (short, the whole set too for the small sets). The
// floor is that figure minus floorMargin.
//
// Measured with the model retrained on 2026-12-02 (see below) with
//
//	go test -run TestAccuracyFloor -v .          # full
//	go test -short -run TestAccuracyFloor -v .   # short
//
// and, for the full figures, the same to the hundredth with
//
//	go build -o sluice ./cmd/sluice
//	./sluice clean -q [--style cleaneval] -f cleaneval -o out/SET ../shared/data/SET/html   # original/ for l3s-gn1
//	./sluice eval --gold SET out/SET
//
// (the exact commands for a set are in the test's failure message). When a
// change raises a figure for good, raise it here too, so that the floor
// keeps guarding the new level; when a change lowers one on purpose, lower
// it and say why in the commit message.
var accuracyFloors = []struct {
	set    string
	metric string  // the evaluate metric: the set's main one
	pages  int     // pages in the set when measured; another count means the data changed
	full   float64 // today's figure on the whole set
	short  float64 // today's figure on the -short sample
}{
	// set, metric, pages, full, short; the floors are 0.3 below
	// The model retrained on 2026-12-02 (the consent panels, alt, UUID
	// and empty-body changes of the week in its training pages), against
	// the figures recorded before it, lost 0.37 in-sample on
	// cleaneval-dev, 0.79 on the -short l3s-gn1 sample and 0.62 on the
	// -short dragnet-train one, and gained 1.31 on wcxb-dev (+0.30
	// against the old file on the same pipeline); held out, the
	// configuration's cross-validation is the README's
	// (docs/experiments.md, "The model retrained"). Deciding the pages
	// the labeller is unsure of everywhere (label.UnsureContent), the
	// same model: l3s-gn1 +0.12 (+1.17 on the -short sample, one page),
	// cwce-zh +0.38, wcxb-dev -0.01 (one empty-gold page now keeps text,
	// two gain).
	{"cleaneval-dev", "cleaneval", 58, 95.95, 95.95},   // 96.32 before that retrain
	{"cleanportaleval", "cleaneval", 71, 90.43, 90.43}, // 89.88 before it
	{"dragnet-train", "bow", 966, 95.49, 96.94},        // 95.30, 97.56 before it
	{"l3s-gn1", "bow", 621, 97.60, 97.88},              // 97.48, 96.71 before unsure pages were decided; 97.66, 97.50 before the retrain
	{"readability", "bow", 116, 97.33, 97.33},          // 97.63 before it
	{"wcxb-dev", "bow", 1497, 89.80, 89.49},            // 89.81 before unsure pages were decided; 88.50, 88.30 before the retrain
	{"xmu-news-zh", "bow", 150, 98.30, 98.30},          // 98.34 before it; 91.27 before the model counted Chinese by characters and trained on it
	{"cwce-zh", "bow", 69, 95.52, 95.52},               // 95.14 before unsure pages were decided; 94.73 before the retrain; 88.87 before the model counted Chinese by characters
}

// TestAccuracyFloor guards the embedded model's accuracy: it cleans every
// page of each shared data set (../shared/data) with the default Cleaner,
// in the annotation style the set was trained in (train.DefaultStyle:
// cleaneval for cleaneval-dev, main for the others), scores each page with
// the set's metric against its gold, and fails when a set's macro F1 falls
// more than floorMargin points below the figure recorded in accuracyFloors.
// With -short it scores a fixed sample (see shortStride) against figures
// measured on that sample.
//
// The embedded model was trained on these very pages, so its figures here
// are higher than the held-out cross-validation figures of the README
// (sluice train --cv): they do not say how well sluice generalises, but a
// drop still says that a change made the model, its features or the
// pipeline around it worse. The test skips when ../shared/data is absent
// (a fresh clone); CI always has it.
func TestAccuracyFloor(t *testing.T) {
	root, err := dataset.Root()
	if err != nil {
		t.Skipf("accuracy floors not checked: no shared data sets (%v); CI has them in ../shared/data", err)
	}
	for _, fl := range accuracyFloors {
		t.Run(fl.set, func(t *testing.T) {
			t.Parallel()
			set, err := dataset.Open(fl.set)
			if err != nil {
				t.Skipf("accuracy floor of %s not checked: the set is not in %s (%v)", fl.set, root, err)
			}
			if set.Len() != fl.pages {
				t.Fatalf("%s has %d pages, but its figures were measured on %d: the data set changed; re-measure them (see accuracyFloors in accuracy_test.go)",
					fl.set, set.Len(), fl.pages)
			}
			ids, today, sample := set.IDs(), fl.full, "all pages"
			if testing.Short() {
				today = fl.short
				if len(ids) > shortWhole {
					ids = shortSample(ids)
					sample = fmt.Sprintf("every %dth page (-short)", shortStride)
				}
			}
			style := train.DefaultStyle(set)
			start := time.Now()
			sum, rejected := scoreSet(t, set, ids, style, fl.metric)
			f1 := 100 * sum.Macro().F1
			floor := today - floorMargin
			t.Logf("%s: %s F1 %.2f on %d pages, %s (recorded %.2f, floor %.2f; %d rejected by the cleaner), %v",
				fl.set, fl.metric, f1, sum.Pages(), sample, today, floor, rejected, time.Since(start).Round(time.Millisecond))
			switch {
			case f1 < floor:
				t.Errorf("%s: the embedded model's %s F1 is %.2f on %s, below its floor %.2f (recorded %.2f minus %.1f): a drop of %.2f points.\n"+
					"Reproduce on the whole set and see which pages lost (compare with the same commands on the main line):\n\t%s\n"+
					"If the loss is meant, lower the figure in accuracyFloors (accuracy_test.go) and say why in the commit message.",
					fl.set, fl.metric, f1, sample, floor, today, floorMargin, today-f1, reproduce(set, style, fl.metric))
			case f1 > today+floorMargin:
				t.Logf("%s: the figure rose %.2f points above the recorded one: raise it in accuracyFloors so that the floor guards the new level", fl.set, f1-today)
			}
		})
	}
}

// shortSample returns every shortStride-th id, starting with the first.
func shortSample(ids []string) []string {
	var out []string
	for i := 0; i < len(ids); i += shortStride {
		out = append(out, ids[i])
	}
	return out
}

// scoreSet cleans the pages ids of set on all cores and scores them with
// metric, in the order of ids, as "sluice eval" scores the files that
// "sluice clean" writes: a page the cleaner rejects scores as an empty
// output.
func scoreSet(t *testing.T, set *dataset.Set, ids []string, style, metricName string) (sum score.Summary, failed int) {
	metric, err := evaluate.Lookup(metricName)
	if err != nil {
		t.Fatal(err)
	}
	if style == label.MainStyle {
		style = "" // the default Cleaner itself
	}
	c, err := sluice.New(sluice.Options{Style: style})
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]score.Counts, len(ids))
	rejected := make([]bool, len(ids))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				p, err := set.Page(ids[i])
				if err != nil {
					t.Error(err)
					continue
				}
				out := &evaluate.Output{}
				if res, err := c.Clean(context.Background(), sluice.Input{Data: p.HTML}); err == nil {
					out = evaluate.OutputOf(res.Page)
				} else {
					rejected[i] = true
				}
				counts[i] = metric.Score(out, &p.Gold)
			}
		}()
	}
	for i := range ids {
		work <- i
	}
	close(work)
	wg.Wait()
	for i, c := range counts {
		sum.Add(c)
		if rejected[i] {
			failed++
		}
	}
	return sum, failed
}

// reproduce returns the commands that measure a set's figure with the
// sluice binary, page by page.
func reproduce(set *dataset.Set, style, metric string) string {
	in := "html"
	if set.Kind == dataset.L3S {
		in = "original"
	}
	var clean strings.Builder
	clean.WriteString("go run ./cmd/sluice clean -q")
	if style != "" && style != label.MainStyle {
		fmt.Fprintf(&clean, " --style %s", style)
	}
	// CleanEval format for every metric: "sluice eval" reads a plain-text
	// output with a line starting "<p>" (a page about HTML) as CleanEval
	// format, and would score it a little differently from this test.
	clean.WriteString(" -f cleaneval")
	out := filepath.Join("/tmp/sluice-floor", set.Name)
	fmt.Fprintf(&clean, " -o %s %s", out, filepath.Join(set.Dir, in))
	eval := fmt.Sprintf("go run ./cmd/sluice eval --gold %s --metric %s --per-file %s", set.Name, metric, out)
	return clean.String() + "\n\t" + eval
}
