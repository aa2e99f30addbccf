package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpTexts: every command's --help prints its text from help/ (usage
// line first, examples) and then its flags; a help file no command reads
// is refused too.
func TestHelpTexts(t *testing.T) {
	commands := []string{"annotate", "bench", "clean", "corpus", "eval", "filters", "normalize", "serve", "sort", "tables", "train"}
	for _, name := range commands {
		var out, errOut bytes.Buffer
		if code := run([]string{name, "--help"}, strings.NewReader(""), &out, &errOut); code != exitOK {
			t.Errorf("sluice %s --help: exit %d: %s", name, code, errOut.String())
			continue
		}
		text := out.String() + errOut.String()
		if !strings.HasPrefix(text, "Usage: sluice "+name) || !strings.Contains(text, "Example") || !strings.Contains(text, "\nFlags:") {
			t.Errorf("sluice %s --help does not start with its usage line, or lacks examples or flags:\n%.300s", name, text)
		}
	}
	files, err := helpFiles.ReadDir("help")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(commands) {
		t.Errorf("%d help files for %d commands", len(files), len(commands))
	}
}
