package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/train"
)

// TestAnnotateRoundTrip annotates the pages of a data set folder, edits a
// label in one file as a person would, checks the files, trains on the
// folder and cleans with the model; the training labels must be the
// edited annotation's.
func TestAnnotateRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "hand")
	example, err := os.ReadFile("../../testdata/example.html")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"html/example.html": string(example),
		"html/lakes.html": `<html><body><div><a href="/">Home</a> | <a href="/lakes">Lakes</a></div>
<h2>Lakes of the north</h2><p>The lakes are deep and still,<br>and cold all year round.</p><p>Advertisement</p></body></html>`,
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "ann"), 0o755)
	sluice := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := run(args, nil, &stdout, &stderr); code != exitOK {
			t.Fatalf("sluice %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	sluice("annotate", "-q", dir)

	// Edit: the model's first kept block of the example page becomes
	// boilerplate, and the last block of the lakes page a continuation.
	annPath := filepath.Join(dir, "ann", "example.ann")
	data, err := os.ReadFile(annPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	edited := -1
	for i, l := range lines {
		if !strings.HasPrefix(l, "[o] ") {
			lines[i] = "[o] " + l[4:]
			edited = i
			break
		}
	}
	if edited < 0 {
		t.Fatalf("the model kept nothing of the example page:\n%s", data)
	}
	os.WriteFile(annPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	lakes := "[o] Home | Lakes\n[h] Lakes of the north\n[p] The lakes are deep and still,\n[c] and cold all year round.\n[o] Advertisement\n"
	os.WriteFile(filepath.Join(dir, "ann", "lakes.ann"), []byte(lakes), 0o644)

	if out := sluice("annotate", "--check", dir); strings.Count(out, ": ok, ") != 2 {
		t.Errorf("check: %s", out)
	}

	pages, skipped, err := train.LoadTraining(context.Background(), []string{dir}, train.LoadOptions{})
	if err != nil || len(pages) != 2 || skipped["hand"] != 0 {
		t.Fatalf("LoadTraining: %d pages, skipped %v, %v", len(pages), skipped, err)
	}
	for _, p := range pages {
		switch p.Data.ID {
		case "example":
			if l := p.Example.Labels[edited]; l != page.Other {
				t.Errorf("example: block %d is %v, want the edited label other", edited, l)
			}
		case "lakes":
			want := []page.Label{page.Other, page.Heading, page.Paragraph, page.Continuation, page.Other}
			if got := p.Example.Labels; !slices.Equal(got, want) {
				t.Errorf("lakes: labels %v, want %v", got, want)
			}
		}
	}

	model := filepath.Join(t.TempDir(), "hand.model")
	out := sluice("train", "--data", dir, "--iterations", "5", "--min-count", "1", "--cv", "2", "-o", model)
	if !strings.Contains(out, "hand             cleaneval") {
		t.Errorf("train output does not score the set with CleanEval F1:\n%s", out)
	}
	if out := sluice("clean", "--model", model, filepath.Join(dir, "html", "lakes.html")); strings.TrimSpace(out) == "" {
		t.Error("the model trained on the annotations kept nothing")
	}
}
