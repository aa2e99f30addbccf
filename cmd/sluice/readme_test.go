package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sluice-project/sluice/warc"
)

// readmeCommands returns the sluice command lines of the README's sh
// blocks, each as its words (quotes removed), with the line they are on:
// comments are cut off, and a line is split at |, && and ; into the
// commands it runs. "go run ./cmd/sluice" counts as "sluice".
func readmeCommands(t *testing.T, readme string) (cmds [][]string, lines []string) {
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
		flush := func() {
			if len(cur) >= 3 && cur[0] == "go" && cur[1] == "run" && cur[2] == "./cmd/sluice" {
				cur = append([]string{"sluice"}, cur[3:]...)
			}
			switch {
			case len(cur) > 1 && cur[0] == "sluice":
				cmds, lines = append(cmds, cur[1:]), append(lines, line)
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
	return cmds, lines
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
// parsed, and nothing is done). TestREADMERunsAsWritten runs them.
func TestREADMEExamples(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds, lines := readmeCommands(t, string(readme))
	if len(cmds) < 30 {
		t.Fatalf("%d sluice commands found in the README; the parser lost some", len(cmds))
	}
	for i, args := range cmds {
		var out, errOut bytes.Buffer
		if code := run(append(append([]string(nil), args...), "--help"), strings.NewReader(""), &out, &errOut); code != exitOK {
			t.Errorf("README: %s\n  sluice %s --help: exit %d: %s", lines[i], strings.Join(args, " "), code, errOut.String())
		}
	}
}

// exampleGold is a CleanEval gold file for testdata/example.html: its
// heading and first paragraph.
const exampleGold = "<h>The mills of the valley\n\n<p>Walk from the upper mill by the bridge to the lower mill by the weir, and you pass seven wheels turning in the race & the sluice.\n"

// readmeFixtures writes into dir the files the README's examples name:
// page.html and pages/ (the example page, six times), myset/ (html/ and an
// empty ann/), site/ (three
// pages of one site), the filter set, the table labels, ce/ (a page and its
// CleanEval gold), crawl.warc.gz, crawl-1.warc.gz and crawls/a.warc.gz
// with the example page as two responses, and old-crawl.arc.gz, the same
// in the ARC format.
func readmeFixtures(t *testing.T, repo, dir string) {
	t.Helper()
	example, err := os.ReadFile(filepath.Join(repo, "testdata", "example.html"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"page.html": example, "myset/html/a.html": example, "testdata/example.html": example,
		"ce/html/a.html": example, "ce/gold/a.txt": []byte(exampleGold),
	}
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		files["pages/"+name+".html"] = example
	}
	for i, topic := range []string{"the upper mill and its wheel", "the weir and the salmon ladder", "the lower mill, now a bakery"} {
		files[fmt.Sprintf("site/%d.html", i+1)] = []byte(sitePage(i+1, topic))
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
	files["old-crawl.arc.gz"] = arcFile(t, example)
	if err := os.MkdirAll(filepath.Join(dir, "myset", "ann"), 0o755); err != nil { // an annotated set, not yet annotated
		t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// sitePage is page n of a small site: the same navigation, sidebar and
// footer on every page, and an article of its own on topic.
func sitePage(n int, topic string) string {
	return fmt.Sprintf(`<html><head><title>Valley mills: %[2]s</title></head><body>
<div id="nav"><a href="/">Home</a> | <a href="/mills">Mills</a> | <a href="/walks">Walks</a> | <a href="/about">About us</a></div>
<div id="main"><h1>Walk %[1]d: %[2]s</h1>
<p>This walk, number %[1]d of the series, takes you to %[2]s. The path follows the river for most of the way, and the stones of the old race still show where the water was led off to turn the wheel.</p>
<p>Allow about %[1]d hours with stops; the ground is wet after rain, and the last stretch to %[2]s is steep in places, so good shoes are worth the trouble.</p></div>
<div id="side"><h3>More walks</h3><ul><li><a href="/w/1">The upper mill</a></li><li><a href="/w/2">The weir</a></li><li><a href="/w/3">The lower mill</a></li></ul></div>
<div id="foot">Copyright the Valley Mills Society. <a href="/privacy">Privacy</a> <a href="/contact">Contact</a></div>
</body></html>`, n, topic)
}

// arcFile is an ARC (version 1) file, gzip-compressed a record a member,
// holding page as one response.
func arcFile(t *testing.T, page []byte) []byte {
	t.Helper()
	vb := "1 0 sluice\nURL IP-address Archive-date Content-type Archive-length\n"
	body := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n%s", page)
	var out bytes.Buffer
	for _, rec := range []string{
		fmt.Sprintf("filedesc://old-crawl.arc 0.0.0.0 20080102030405 text/plain %d\n%s\n", len(vb), vb),
		fmt.Sprintf("http://old.example/mills 198.51.100.7 20080102030406 text/html %d\n%s\n", len(body), body),
	} {
		zw := gzip.NewWriter(&out)
		if _, err := zw.Write([]byte(rec)); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes()
}
