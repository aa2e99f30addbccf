package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
			if len(cur) > 1 && cur[0] == "sluice" {
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
// parsed, and nothing is done), and the examples that need only the
// repository's files and write nothing run as written and succeed.
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
	ran := 0
	for i, args := range cmds {
		var out, errOut bytes.Buffer
		if code := run(append(append([]string(nil), args...), "--help"), strings.NewReader(""), &out, &errOut); code != exitOK {
			t.Errorf("README: %s\n  sluice %s --help: exit %d: %s", lines[i], strings.Join(args, " "), code, errOut.String())
			continue
		}
		if !runnable(args) {
			continue
		}
		out.Reset()
		errOut.Reset()
		if code := run(args, strings.NewReader(""), &out, &errOut); code != exitOK || out.Len() == 0 {
			t.Errorf("README: %s\n  exit %d, %d bytes out: %s", lines[i], code, out.Len(), errOut.String())
		}
		ran++
	}
	t.Logf("%d README commands parse; %d ran as written", len(cmds), ran)
	if ran < 3 {
		t.Errorf("only %d README examples ran as written", ran)
	}
}

// runnable reports whether a README command can run as written in a test:
// its file arguments are files of the repository, and it writes no files,
// fetches nothing, needs no data set and starts no server.
func runnable(args []string) bool {
	switch args[0] {
	case "clean", "filters", "version", "normalize":
	case "train":
		return len(args) == 2 && args[1] == "--print-template"
	default:
		return false
	}
	for _, a := range args[1:] {
		switch {
		case a == "-o" || strings.HasPrefix(a, "http"):
			return false
		case strings.Contains(a, "/") || strings.HasSuffix(a, ".html") || strings.HasSuffix(a, ".toml"):
			if _, err := os.Stat(a); err != nil {
				return false
			}
		}
	}
	return true
}
