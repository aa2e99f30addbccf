//go:build unix

package corpus

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/sluice-project/sluice/inputs"
)

// TestSkippedSpecialFile: a named pipe with an HTML name below a directory
// is listed as skipped, never opened (which would wait for a writer).
func TestSkippedSpecialFile(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "pages")
	os.Mkdir(in, 0o755)
	os.WriteFile(filepath.Join(in, "a.html"), []byte(testPage(1)), 0o644)
	pipe := filepath.Join(in, "pipe.html")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
	out := filepath.Join(dir, "out")
	sum, _ := runCorpus(t, out, []string{in}, Options{})
	want := []SkippedFile{{pipe, inputs.SkipSpecial}}
	if !slices.Equal(sum.SkippedFiles, want) || sum.Records != 1 || sum.Cleaned != 1 || len(sum.InputErrors) != 0 {
		t.Errorf("skipped files %+v, counts %+v, input errors %v; want the pipe skipped, a.html cleaned", sum.SkippedFiles, sum.Counts, sum.InputErrors)
	}
	if s := readSummary(t, out); !slices.Equal(s.SkippedFiles, want) {
		t.Errorf("%s: skipped files %+v", summaryName, s.SkippedFiles)
	}
}
