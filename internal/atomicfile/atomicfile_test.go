package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A write replaces the file whole; a failed one leaves the old file and
// no temporary file.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	boom := errors.New("disk full")
	err = Write(root, "out.txt", 0o644, func(w io.Writer) error {
		io.WriteString(w, "tw")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if data, _ := os.ReadFile(path); string(data) != "one" {
		t.Errorf("after a failed write the file holds %q, want the old %q", data, "one")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1: a temporary file was left", len(entries))
	}
	if err := WriteFile(path, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "two" {
		t.Errorf("file holds %q, want %q", data, "two")
	}
}

// A symbolic link at the target's name is replaced, its target untouched;
// a name leading out of the root through a link is refused.
func TestWriteNotThroughLinks(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	victim := filepath.Join(other, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "out.txt")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Symlink(other, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "out.txt"), []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Errorf("the link's target holds %q: written through the link", data)
	}
	if st, err := os.Lstat(filepath.Join(dir, "out.txt")); err != nil || !st.Mode().IsRegular() {
		t.Errorf("out.txt is not a regular file after the write: %v %v", st, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	err = Write(root, "sub/victim.txt", 0o644, func(w io.Writer) error { return nil })
	if err == nil {
		t.Error("a write through a link out of the root succeeded")
	}
	if data, _ := os.ReadFile(victim); string(data) != "keep me" {
		t.Errorf("the file out of the root holds %q", data)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{".out.txt.tmp-0a1b2c": true, "out.txt": false, "out.tmp-1": false} {
		if IsTemp(name) != want {
			t.Errorf("IsTemp(%q) = %v", name, !want)
		}
	}
}

// WriteDeferred replaces files whole as Write does, in subdirectories
// too, leaves nothing behind when it fails, and SyncFS then succeeds.
func TestWriteDeferred(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"a.txt", filepath.Join("sub", "b.txt"), "a.txt"} {
		if err := WriteDeferred(root, name, 0o644, func(w io.Writer) error {
			_, err := io.WriteString(w, "text of "+name)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	boom := errors.New("disk full")
	if err := WriteDeferred(root, "a.txt", 0o644, func(w io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if err := SyncFS(root); err != nil {
		t.Fatalf("SyncFS: %v", err)
	}
	for name, want := range map[string]string{"a.txt": "text of a.txt", "sub/b.txt": "text of " + filepath.Join("sub", "b.txt")} {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != want {
			t.Errorf("%s: %q, %v; want %q", name, data, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d entries in the directory, want a.txt and sub: a temporary file was left", len(entries))
	}
}
