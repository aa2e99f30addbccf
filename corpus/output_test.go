package corpus

import (
	"os"
	"path/filepath"
	"testing"
)

// The sink appends to and cuts back only regular files: a link put in the
// output directory is refused, its target untouched.
func TestOpenRegularRefusesLinks(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	victim := filepath.Join(other, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, corpusName)
	if err := os.Symlink(victim, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if f, err := openRegular(link, os.O_WRONLY|os.O_APPEND); err == nil {
		f.Close()
		t.Error("openRegular opened a link")
	}
	if err := truncateRegular(link, 0); err == nil {
		t.Error("truncateRegular cut a link")
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Errorf("the link's target holds %q", data)
	}
	plain := filepath.Join(dir, "part-00001.jsonl")
	if err := os.WriteFile(plain, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := truncateRegular(plain, 4); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(plain); st.Size() != 4 {
		t.Errorf("cut to %d bytes, want 4", st.Size())
	}
}
