package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/warc"
)

// readmeCommands returns the sluice command lines of the README's sh
// blocks, each as its words (quotes removed), with the line they are on:
// comments are cut off, and a line is split at |, && and ; into the
// commands it runs. "go run ./cmd/sluice" counts as "sluice".
func readmeCommands(t *testing.T, readme string) (cmds [][]string, lines []string, alone []bool) {
	t.Helper()
	in := false
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			in = true
			continue
		case strings.HasPrefix(line, "```"):
			in = false
			continue
		case !in:
			continue
		}
		words, err := shellWords(line)
		if err != nil {
			t.Errorf("README: %q: %v", line, err)
			continue
		}
		var cur []string
		others := false // a command before this one in the line is not sluice's
		flush := func() {
			if len(cur) >= 3 && cur[0] == "go" && cur[1] == "run" && cur[2] == "./cmd/sluice" {
				cur = append([]string{"sluice"}, cur[3:]...)
			}
			switch {
			case len(cur) > 1 && cur[0] == "sluice":
				cmds, lines, alone = append(cmds, cur[1:]), append(lines, line), append(alone, !others)
			case len(cur) > 0 && cur[0] != "redirect":
				others = true
			}
			cur = nil
		}
		for _, w := range words {
			switch w {
			case "|", "&&", ";", ">", "<":
				flush()
				if w == ">" || w == "<" {
					cur = []string{"redirect"} // the file name that follows is no command
				}
			default:
				cur = append(cur, w)
			}
		}
		flush()
	}
	return cmds, lines, alone
}

// shellWords splits a line as sh would, for the README's simple lines:
// words separated by blanks, single and double quotes, a # starting a
// comment, and | & ; > < as words of their own.
func shellWords(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			end()
		case c == '#' && !inWord:
			end()
			return words, nil
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, os.ErrInvalid
			}
			w.WriteString(line[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case strings.IndexByte("|&;><", c) >= 0:
			end()
			op := string(c)
			if c == '&' && i+1 < len(line) && line[i+1] == '&' {
				op, i = "&&", i+1
			}
			words = append(words, op)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, nil
}

// TestREADMEExamples: every sluice command line in the README names a
// command and flags that exist (run with --help appended: the flags are
// parsed, and nothing is done), and the examples that need no data set,
// network, server or long training run as written, each in a directory
// of its own holding the files they name (readmeFixtures), and succeed.
func TestREADMEExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds, lines, alone := readmeCommands(t, string(readme))
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) < 30 {
		t.Fatalf("%d sluice commands found in the README; the parser lost some", len(cmds))
	}
	haveData := false
	if root, err := dataset.Root(); err == nil {
		if abs, err := filepath.Abs(root); err == nil {
			t.Setenv(dataset.EnvData, abs) // the examples run in a folder of their own
			haveData = true
		}
	}
	ran := 0
	dir, dirLine := "", ""
	for i, args := range cmds {
		var out, errOut bytes.Buffer
		if code := run(append(append([]string(nil), args...), "--help"), strings.NewReader(""), &out, &errOut); code != exitOK {
			t.Errorf("README: %s\n  sluice %s --help: exit %d: %s", lines[i], strings.Join(args, " "), code, errOut.String())
			continue
		}
		if !alone[i] {
			continue
		}
		if dir == "" || lines[i] != dirLine {
			// The commands of one line share a folder: "sluice sort -o
			// sorted/ crawls/ && sluice corpus ... sorted/".
			dir, dirLine = readmeFixtures(t, repo), lines[i]
		}
		args = expandGlobs(dir, args)
		if !runnable(dir, args, haveData) {
			continue
		}
		out.Reset()
		errOut.Reset()
		t.Chdir(dir)
		code := run(args, strings.NewReader(""), &out, &errOut)
		t.Chdir(repo)
		if code != exitOK {
			t.Errorf("README: %s\n  exit %d: %s", lines[i], code, errOut.String())
		}
		t.Logf("ran as written: sluice %s", strings.Join(args, " "))
		ran++
	}
	t.Logf("%d README commands parse; %d ran as written", len(cmds), ran)
	if ran < 10 {
		t.Errorf("only %d README examples ran as written", ran)
	}
}

// runnable reports whether a README command can run as written in dir
// (see readmeFixtures): every file it names is there, and it needs no
// network, server, standard input or long training, nor a data set
// unless haveData (the table-label commands read the shared pages).
func runnable(dir string, args []string, haveData bool) bool {
	switch args[0] {
	case "clean", "filters", "version", "annotate", "corpus", "normalize", "sort":
	case "train":
		return len(args) == 2 && args[1] == "--print-template"
	case "tables":
		if !haveData {
			return false
		}
	default:
		return false // eval and bench score output written from ../shared/data; train takes minutes; serve runs until stopped
	}
	for k, a := range args[1:] {
		switch {
		case a == "-" || strings.HasPrefix(a, "http"):
			return false
		case k > 0 && (args[k] == "-o" || args[k] == "--json"):
			// an output, made by the command
		case !strings.HasPrefix(a, "-") && (strings.Contains(a, "/") || fileEnding(a)):
			if _, err := os.Stat(filepath.Join(dir, a)); err != nil {
				return false
			}
		}
	}
	return true
}

// fileEnding reports whether a word ends like a file the examples name.
func fileEnding(a string) bool {
	for _, e := range []string{".html", ".htm", ".gz", ".toml", ".tsv", ".model", ".slm", ".tmpl"} {
		if strings.HasSuffix(a, e) {
			return true
		}
	}
	return false
}

// exampleGold is a CleanEval gold file for testdata/example.html: its
// heading and first paragraph.
const exampleGold = "<h>The mills of the valley\n\n<p>Walk from the upper mill by the bridge to the lower mill by the weir, and you pass seven wheels turning in the race & the sluice.\n"

// readmeFixtures makes a directory holding the files the README's
// examples name: page.html and pages/ (the example page), myset/, the
// filter set, the table labels, ce/ (a page and its CleanEval gold), and
// crawl.warc.gz, crawl-1.warc.gz and crawls/a.warc.gz with the example
// page as two responses.
func readmeFixtures(t *testing.T, repo string) string {
	t.Helper()
	dir := t.TempDir()
	example, err := os.ReadFile(filepath.Join(repo, "testdata", "example.html"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"page.html": example, "pages/a.html": example, "pages/b/c.html": example,
		"myset/a.html": example, "testdata/example.html": example,
		"ce/html/a.html": example, "ce/gold/a.txt": []byte(exampleGold),
	}
	for _, f := range []string{"docs/filter-sets/news-strict.toml", "tableset/labels/tables.tsv", "tableset/labels/cells.tsv"} {
		if files[f], err = os.ReadFile(filepath.Join(repo, f)); err != nil {
			t.Fatal(err)
		}
	}
	var crawl bytes.Buffer
	w := warc.NewWriter(&crawl, true)
	for i, host := range []string{"a.example", "b.example"} {
		body := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(example), example)
		rec := &warc.Record{Type: warc.TypeResponse, TargetURI: fmt.Sprintf("http://%s/page%d", host, i), Date: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			Header: warc.Header{{Name: warc.FieldContentType, Value: "application/http; msgtype=response"}}, Content: []byte(body)}
		if err := w.WriteRecord(rec); err != nil {
			t.Fatal(err)
		}
	}
	files["crawl.warc.gz"], files["crawl-1.warc.gz"], files["crawls/a.warc.gz"] = crawl.Bytes(), crawl.Bytes(), crawl.Bytes()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// expandGlobs replaces the words with * in them by the files of dir they
// match, as the shell would.
func expandGlobs(dir string, args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.Contains(a, "*") {
			out = append(out, a)
			continue
		}
		m, _ := filepath.Glob(filepath.Join(dir, a))
		if len(m) == 0 {
			out = append(out, a)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(dir, f)
			out = append(out, rel)
		}
	}
	return out
}
