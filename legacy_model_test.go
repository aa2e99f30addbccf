package sluice

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/label"
)

// TestLegacyModels loads model files in each layout that sluice wrote
// before model files listed their stages (testdata/legacy-models: mN.slm.gz
// is a small model of layout SLUICEMN, m3s the two-stage one of SLUICEM3),
// cleans testdata/example.html with each in both styles and checks every block's label
// and score against what the version that wrote them gave (the .golden
// files: "label score" a block, from sluice clean --format json
// --include-dropped). Each is then saved in the current layout, loaded
// again, and must give the same scores. When the features change what
// they read, the old models' scores change with them: go test
// -update-legacy -run TestLegacyModels rewrites the .golden files from the
// files as read (issue 22 did, when block words became word-equivalents).
// The page is read with its cookie banner kept (KeepConsent), as the
// versions that wrote the files read it.
func TestLegacyModels(t *testing.T) {
	dir := filepath.Join("testdata", "legacy-models")
	html, err := os.ReadFile(filepath.Join("testdata", "example.html"))
	if err != nil {
		t.Fatal(err)
	}
	wantStages := map[string]string{
		"m1":  "crf,smooth,region",
		"m2":  "crf,stack,smooth,region",
		"m3":  "trees,crf,blend,smooth,region",
		"m3s": "trees,crf,stack,blend,smooth,region",
		"m4":  "trees,crf,context,smooth,region",
	}
	for name, stages := range wantStages {
		model := readGzip(t, filepath.Join(dir, name+".slm.gz"))
		lab, err := label.Load(model)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Join(lab.StageNames(), ","); got != stages {
			t.Errorf("%s: stages %s, want %s", name, got, stages)
		}
		resaved, err := lab.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		for _, style := range []string{label.MainStyle, label.CleanEvalStyle} {
			golden := filepath.Join(dir, name+"."+style+".golden")
			if *updateLegacy {
				writeGolden(t, golden, model, style, html)
			}
			want := readGolden(t, golden)
			for i, m := range [][]byte{model, resaved} {
				c, err := New(Options{Model: m, Style: style, KeepConsent: true})
				if err != nil {
					t.Fatalf("%s (file %d): %v", name, i, err)
				}
				res, err := c.Clean(context.Background(), Input{Data: html})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Page.Blocks) != len(want) {
					t.Fatalf("%s %s: %d blocks, want %d", name, style, len(res.Page.Blocks), len(want))
				}
				for k, b := range res.Page.Blocks {
					if b.Label.String() != want[k].label || b.Score != want[k].score {
						t.Errorf("%s %s (file %d): block %d: %v %v, want %s %v", name, style, i, k, b.Label, b.Score, want[k].label, want[k].score)
					}
				}
			}
		}
	}
}

var updateLegacy = flag.Bool("update-legacy", false, "rewrite testdata/legacy-models/*.golden from the models as read")

// writeGolden writes what model gives on html in style to path, one
// "label score" line a block.
func writeGolden(t *testing.T, path string, model []byte, style string, html []byte) {
	t.Helper()
	c, err := New(Options{Model: model, Style: style, KeepConsent: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), Input{Data: html})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, blk := range res.Page.Blocks {
		b.WriteString(blk.Label.String() + " " + strconv.FormatFloat(blk.Score, 'g', -1, 64) + "\n")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

type goldenBlock struct {
	label string
	score float64
}

func readGolden(t *testing.T, path string) []goldenBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []goldenBlock
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lab, v, _ := strings.Cut(sc.Text(), " ")
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, goldenBlock{lab, f})
	}
	return out
}

func readGzip(t *testing.T, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
