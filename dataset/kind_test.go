package dataset

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestKindsRegistered checks the registry: names unique, Spec finds each
// kind, and a name that is not registered gets the plain-text kind.
func TestKindsRegistered(t *testing.T) {
	seen := map[Kind]bool{}
	for _, k := range Kinds() {
		name := k.Kind()
		if name == "" || seen[name] {
			t.Errorf("kind %q: empty or registered twice", name)
		}
		seen[name] = true
		if got := name.Spec(); got != k {
			t.Errorf("Kind(%q).Spec() = %v, want the registered kind", name, got)
		}
		l := k.Layout()
		if l.HTMLDir == "" || l.GoldDir == "" || l.HTMLDir == l.GoldDir || l.GoldExt == "" {
			t.Errorf("kind %q: layout %+v", name, l)
		}
	}
	for _, name := range []Kind{CleanEval, Dragnet, L3S, WCXB, Readability, Annotated} {
		if !seen[name] {
			t.Errorf("kind %q is not registered", name)
		}
	}
	u := Kind("no-such-kind").Spec()
	if u.Kind() != "no-such-kind" || u.MainMetric() != "bow" || u.DefaultStyle("x") != "main" ||
		u.Alignment() != AlignText || u.Annotated() || u.Detect(".") {
		t.Errorf("unregistered kind: %v %q %q %v %v", u.Kind(), u.MainMetric(), u.DefaultStyle("x"), u.Alignment(), u.Annotated())
	}
	if _, err := u.Open("."); err == nil {
		t.Error("unregistered kind: Open succeeded")
	}
}

// TestKindsDetected checks that every registered kind is detected, with
// the other kinds tried in their order, from its fixture folder
// testdata/NAME and from a folder of one page made from its Layout (the
// page's gold copied from the fixture's first gold file, since some kinds
// are told apart by their gold's content).
func TestKindsDetected(t *testing.T) {
	for _, k := range Kinds() {
		name := string(k.Kind())
		fixture := filepath.Join("testdata", name)
		if !isDir(fixture) {
			t.Errorf("kind %q has no fixture folder %s: add a small set of that kind", name, fixture)
			continue
		}
		s, err := Open(fixture)
		if err != nil || s.Kind != k.Kind() {
			t.Errorf("Open(%s) = %v, %v; want kind %q", fixture, s, err, name)
			continue
		}
		l := k.Layout()
		gold, _ := stems(filepath.Join(fixture, l.GoldDir), l.GoldExt)
		if len(gold) == 0 || s.Len() == 0 {
			t.Errorf("%s: no pages", fixture)
			continue
		}
		id := s.IDs()[0]
		if got, want := s.GoldPath(id), filepath.Join(fixture, l.GoldDir, id+l.GoldExt); got != want {
			t.Errorf("%s: GoldPath(%q) = %q, want %q", name, id, got, want)
		}
		if got, want := s.HTMLPath(id), filepath.Join(fixture, l.HTMLDir, id+l.HTMLExt); got != want {
			t.Errorf("%s: HTMLPath(%q) = %q, want %q", name, id, got, want)
		}

		// One page, laid out as the kind says.
		slices.SortFunc(gold, compareIDs)
		goldBytes, err := os.ReadFile(filepath.Join(fixture, l.GoldDir, gold[0]+l.GoldExt))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		html := []byte("<html><body><p>A page.</p></body></html>")
		if strings.HasSuffix(l.HTMLExt, ".gz") {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(html)
			zw.Close()
			html = b.Bytes()
		}
		write(t, filepath.Join(dir, l.HTMLDir, "1"+l.HTMLExt), html)
		write(t, filepath.Join(dir, l.GoldDir, "1"+l.GoldExt), goldBytes)
		got, err := detectKind(dir)
		if err != nil || got != k {
			t.Errorf("kind %q: a folder of its layout is detected as %v, %v", name, got, err)
		}
	}
}

func write(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDetectErrors checks the errors for a folder of no registered layout,
// which lists them all, and for one whose gold folder holds no gold files.
func TestDetectErrors(t *testing.T) {
	_, err := detectKind(filepath.Join("testdata", "unknown"))
	if err == nil {
		t.Fatal("unknown layout detected")
	}
	for _, k := range Kinds() {
		l := k.Layout()
		want := l.HTMLDir + "/ with " + l.GoldDir + "/ ("
		if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "*"+l.GoldExt) {
			t.Errorf("error %q does not give the layout of %q (%s...*%s)", err, k.Kind(), want, l.GoldExt)
		}
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "html", "1.html"), []byte("<p>x</p>"))
	write(t, filepath.Join(dir, "gold", "1.md"), []byte("x"))
	_, err = detectKind(dir)
	if err == nil || !strings.HasSuffix(err.Error(), "gold/ holds neither .json nor .txt files") {
		t.Errorf("detectKind(gold/ without gold files) = %v", err)
	}
}

// TestKindValues pins what each kind tells scoring and training, which
// callers read instead of switching on the kind's name.
func TestKindValues(t *testing.T) {
	cases := []struct {
		kind      Kind
		metric    string
		align     Alignment
		annotated bool
		layout    Layout
	}{
		{CleanEval, "cleaneval", AlignSegments, false, Layout{"html", ".html", "gold", ".txt"}},
		{Dragnet, "bow", AlignText, false, Layout{"html", ".html", "gold", ".txt"}},
		{L3S, "bow", AlignSpans, false, Layout{"original", ".html", "annotated", ".html"}},
		{WCXB, "bow", AlignText, false, Layout{"html", ".html.gz", "gold", ".json"}},
		{Readability, "bow", AlignText, false, Layout{"html", ".html", "expected", ".txt"}},
		{Annotated, "cleaneval", AlignSegments, true, Layout{"html", ".html", "ann", ".ann"}},
	}
	if len(cases) != len(Kinds()) {
		t.Errorf("%d kinds registered, %d tested", len(Kinds()), len(cases))
	}
	for _, c := range cases {
		k := c.kind.Spec()
		if k.MainMetric() != c.metric || k.Alignment() != c.align || k.Annotated() != c.annotated || k.Layout() != c.layout {
			t.Errorf("%s: metric %q, alignment %v, annotated %v, layout %+v; want %q, %v, %v, %+v",
				c.kind, k.MainMetric(), k.Alignment(), k.Annotated(), k.Layout(), c.metric, c.align, c.annotated, c.layout)
		}
		// The CleanEval task's own sets are annotated in its style; every
		// other set, CleanPortalEval included, keeps the main content.
		for _, name := range []string{"cleaneval-dev", "cleaneval", "cleanportaleval", "my-set"} {
			want := "main"
			if c.kind == CleanEval && strings.HasPrefix(name, "cleaneval") {
				want = "cleaneval"
			}
			if got := k.DefaultStyle(name); got != want {
				t.Errorf("%s: DefaultStyle(%q) = %q, want %q", c.kind, name, got, want)
			}
		}
	}
	if AlignSpans.String() != "spans" || Alignment(9).String() != "Alignment(9)" {
		t.Errorf("Alignment.String: %v, %v", AlignSpans, Alignment(9))
	}
}
