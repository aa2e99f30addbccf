package score

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCleanEvalWords(t *testing.T) {
	tests := []struct {
		text string
		mode CEMode
		want []string
	}{
		{"URL: http://example.com/\n<p>Text here", Labelled, []string{"<p>", "Text", "here"}},
		{"<h>Title\n<p>Body\ttext.\r\n<l>item", Labelled, []string{"<h>", "Title", "<p>", "Body", "text.", "<l>", "item"}},
		{"<h>Title\n<p>Body text.\n<l>item", Unlabelled, []string{"<p>", "Title", "<p>", "Body", "text.", "<p>", "item"}},
		{"<h>Title\n<p>Body text.\n<l>item", TextOnly, []string{"Title", "Body", "text.", "item"}},
		// Tags anywhere, any case; labelled keeps the case.
		{"foo<P>bar <x> <pp>", Labelled, []string{"foo", "<P>", "bar", "<x>", "<pp>"}},
		// Every line starting with "URL" goes, also later ones and without colon.
		{"<p>a\n  URLs are gone\nb URL stays", Labelled, []string{"<p>", "a", "b", "URL", "stays"}},
		// Blank lines before a URL line; control characters split words.
		{"\n\n \tURL: x\n<p>a\x01b\x7fc", Labelled, []string{"<p>", "a", "b\x7fc"}},
		// Only ASCII whitespace splits (as cleaneval.py on bytes).
		{"a\u00a0b c", TextOnly, []string{"a\u00a0b", "c"}},
		{"", Labelled, nil},
		{"URL: only", Labelled, nil},
	}
	for _, tt := range tests {
		got := CleanEvalWords(tt.text, tt.mode)
		if !slices.Equal(got, tt.want) {
			t.Errorf("CleanEvalWords(%q, %v) = %q, want %q", tt.text, tt.mode, got, tt.want)
		}
	}
}

func TestCleanEvalModes(t *testing.T) {
	gold := "URL: http://example.com/\n<h>Title here\n<p>Some text."
	output := "<p>Title here\n<p>Some text. Extra"
	// output words: <p> Title here <p> Some text. Extra
	// gold words:   <h> Title here <p> Some text.
	tests := []struct {
		mode        CEMode
		words, tags Counts
	}{
		// "Title here <p> Some text." aligns; <p> (output) and <h> (gold) do not.
		{Labelled, Counts{5, 2, 1}, Counts{1, 1, 1}},
		// Everything but "Extra" aligns.
		{Unlabelled, Counts{6, 1, 0}, Counts{2, 0, 0}},
		{TextOnly, Counts{4, 1, 0}, Counts{}},
	}
	for _, tt := range tests {
		w, g := CleanEvalDetail(output, gold, tt.mode)
		if w != tt.words || g != tt.tags {
			t.Errorf("%v: words %+v tags %+v, want %+v %+v", tt.mode, w, g, tt.words, tt.tags)
		}
		if c := CleanEval(output, gold, tt.mode); c != tt.words {
			t.Errorf("CleanEval(%v) = %+v, want %+v", tt.mode, c, tt.words)
		}
	}
	if c := CleanEvalTags(output, gold); c != (Counts{1, 1, 1}) {
		t.Errorf("CleanEvalTags = %+v", c)
	}
	w := CleanEval(output, gold, Labelled)
	if p, r, f := w.Precision(), w.Recall(), w.F1(); p != 5.0/7 || r != 5.0/6 || f != 10.0/13 {
		t.Errorf("P/R/F = %v %v %v", p, r, f)
	}
}

func TestCleanEvalCases(t *testing.T) {
	tests := []struct {
		name         string
		output, gold string
		mode         CEMode
		want         Counts
		wantP, wantR float64
		wantF1       float64
	}{
		{"identical", "<p>a b c", "URL: u\n<p>a b c", Labelled, Counts{4, 0, 0}, 1, 1, 1},
		{"no space after tag", "<p> a b", "<p>a b", Labelled, Counts{3, 0, 0}, 1, 1, 1},
		{"case of tags", "<P>a", "<p>a", Labelled, Counts{1, 1, 1}, 0.5, 0.5, 0.5},
		{"case of tags unlabelled", "<P>a", "<p>a", Unlabelled, Counts{2, 0, 0}, 1, 1, 1},
		{"both empty", "", "URL: x\n", Labelled, Counts{}, 1, 1, 1},
		{"empty output", "", "<p>a b", Labelled, Counts{0, 0, 3}, 0, 0, 0},
		{"empty gold", "<p>a", "", Labelled, Counts{0, 2, 0}, 0, 0, 0},
		{"disjoint", "x y", "a b", TextOnly, Counts{0, 2, 2}, 0, 0, 0},
		// Alignment is difflib's: "b a" vs "a b" keeps the first longest match.
		{"crossing", "b a", "a b", TextOnly, Counts{1, 1, 1}, 0.5, 0.5, 0.5},
	}
	for _, tt := range tests {
		c := CleanEval(tt.output, tt.gold, tt.mode)
		if c != tt.want || c.Precision() != tt.wantP || c.Recall() != tt.wantR || c.F1() != tt.wantF1 {
			t.Errorf("%s: %+v P=%v R=%v F=%v, want %+v %v %v %v", tt.name, c,
				c.Precision(), c.Recall(), c.F1(), tt.want, tt.wantP, tt.wantR, tt.wantF1)
		}
	}
}

func TestReadGold(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"\xef\xbb\xbfURL: x\r\n<p>caf\xc3\xa9\r\nend\r", "URL: x\n<p>café\nend\n"},
		{"<p>caf\xe9 \xb7 na\xefve", "<p>café · naïve"},              // ISO-8859-1
		{"S\xc3\xb8ren vis-\xc3 -vis\r\r\n", "Søren vis-Ã -vis\n\n"}, // mixed
		{"\xe2\x82", "â\u0082"}, // truncated sequence: bytes as Latin-1
		{"", ""},
	}
	for _, tt := range tests {
		if got := ReadGold([]byte(tt.in)); got != tt.want {
			t.Errorf("ReadGold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// A BOM file's URL line is still recognised.
	gold := ReadGold([]byte("\xef\xbb\xbfURL: http://x/\r\n<p>Caf\xe9 ok\r\n"))
	if c := CleanEval("<p>Café ok", gold, Labelled); c != (Counts{3, 0, 0}) {
		t.Errorf("BOM/CRLF/Latin-1 gold: %+v", c)
	}
}

func TestCountsZero(t *testing.T) {
	tests := []struct {
		c       Counts
		p, r, f float64
	}{
		{Counts{}, 1, 1, 1},
		{Counts{0, 0, 5}, 0, 0, 0},
		{Counts{0, 5, 0}, 0, 0, 0},
		{Counts{2, 2, 0}, 0.5, 1, 2.0 / 3},
	}
	for _, tt := range tests {
		if tt.c.Precision() != tt.p || tt.c.Recall() != tt.r || tt.c.F1() != tt.f {
			t.Errorf("%+v: %v %v %v", tt.c, tt.c.Precision(), tt.c.Recall(), tt.c.F1())
		}
	}
	if s := (Counts{1, 2, 3}).Add(Counts{10, 20, 30}); s != (Counts{11, 22, 33}) {
		t.Errorf("Add = %+v", s)
	}
}

// ceBoiler and perturbGold must stay identical to BOILER and perturb in
// scripts/gen_difflib_vectors.py.
var ceBoiler = []string{"Home", "|", "About", "us", "|", "Contact", "<l>", "Copyright", "(c)", "2007"}

// perturbGold is a deterministic fake cleaner output made from the labelled
// gold words: every 37th position gets a growing prefix of ceBoiler inserted
// before it, every 113th repeats the 5 words before it, every 7th word is
// dropped.
func perturbGold(toks []string) string {
	var out []string
	for i, t := range toks {
		if i%37 == 0 {
			out = append(out, ceBoiler[:1+(i/37)%len(ceBoiler)]...)
		}
		if i%113 == 112 {
			out = append(out, toks[max(0, i-5):i]...)
		}
		if i%7 == 6 {
			continue
		}
		out = append(out, t)
	}
	return strings.Join(out, " ")
}

type ceDevCounts struct {
	TP    int `json:"tp"`
	FP    int `json:"fp"`
	FN    int `json:"fn"`
	TagTP int `json:"tag_tp"`
	TagFP int `json:"tag_fp"`
	TagFN int `json:"tag_fn"`
}

// cleanEvalDev is the shared CleanEval development set, relative to the
// package directory (see ../../shared/data/README.md).
var cleanEvalDev = filepath.Join("..", "..", "shared", "data", "cleaneval-dev")

// TestCleanEvalDev scores every CleanEval dev gold file against a perturbed
// copy of itself and requires exactly the counts that CPython's difflib gave
// (testdata/difflib/cleaneval_dev.json, from scripts/gen_difflib_vectors.py).
func TestCleanEvalDev(t *testing.T) {
	goldDir := filepath.Join(cleanEvalDev, "gold")
	if _, err := os.Stat(goldDir); err != nil {
		t.Skipf("CleanEval dev set not present: %v", err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "difflib", "cleaneval_dev.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Files []struct {
			File       string      `json:"file"`
			Labelled   ceDevCounts `json:"labelled"`
			Unlabelled ceDevCounts `json:"unlabelled"`
			TextOnly   ceDevCounts `json:"textonly"`
		} `json:"files"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if len(want.Files) == 0 {
		t.Fatal("no files in cleaneval_dev.json")
	}
	var total Counts
	for _, f := range want.Files {
		b, err := os.ReadFile(filepath.Join(goldDir, f.File))
		if err != nil {
			t.Error(err)
			continue
		}
		gold := ReadGold(b)
		output := perturbGold(CleanEvalWords(gold, Labelled))
		for _, m := range []struct {
			mode CEMode
			want ceDevCounts
		}{{Labelled, f.Labelled}, {Unlabelled, f.Unlabelled}, {TextOnly, f.TextOnly}} {
			w, g := CleanEvalDetail(output, gold, m.mode)
			got := ceDevCounts{w.TP, w.FP, w.FN, g.TP, g.FP, g.FN}
			if got != m.want {
				t.Errorf("%s %v: got %+v, want %+v", f.File, m.mode, got, m.want)
			}
			if m.mode == Labelled {
				total = total.Add(w)
			}
		}
	}
	t.Logf("%d files, labelled micro P=%.4f R=%.4f F=%.4f", len(want.Files), total.Precision(), total.Recall(), total.F1())
}

// benchText is a deterministic CleanEval-format text of n words drawn from a
// Zipf-distributed vocabulary, with a marker every 40 words or so.
func benchText(r *rand.Rand, n int) string {
	z := rand.NewZipf(r, 1.2, 1, 5000)
	var sb strings.Builder
	tags := []string{"<p>", "<h>", "<l>"}
	for i := 0; i < n; i++ {
		if r.IntN(40) == 0 {
			sb.WriteString("\n" + tags[r.IntN(3)])
		} else {
			sb.WriteByte(' ')
		}
		sb.WriteString("w")
		sb.WriteString(strconv.FormatUint(z.Uint64(), 36))
	}
	return sb.String()
}

func BenchmarkCleanEval(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 7))
	gold := "URL: http://example.com/\n" + benchText(r, 5000)
	output := perturbGold(CleanEvalWords(gold, Labelled)) + benchText(r, 300)
	b.SetBytes(int64(len(gold) + len(output)))
	b.ReportAllocs()
	for b.Loop() {
		CleanEvalDetail(output, gold, Labelled)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

func FuzzCleanEval(f *testing.F) {
	f.Add("<p>a b c", "URL: x\n<h>a b\n<p>c")
	f.Add("\xef\xbb\xbfURL\r\n<l>x", "<P>x<p>")
	f.Fuzz(func(t *testing.T, output, gold string) {
		for _, mode := range []CEMode{Labelled, Unlabelled, TextOnly} {
			w, g := CleanEvalDetail(output, gold, mode)
			no, ng := len(CleanEvalWords(output, mode)), len(CleanEvalWords(gold, mode))
			if w.TP+w.FP != no || w.TP+w.FN != ng || w.TP < 0 || w.FP < 0 || w.FN < 0 {
				t.Fatalf("%v: %+v for %d and %d words", mode, w, no, ng)
			}
			if g.TP > w.TP || g.FP > w.FP || g.FN > w.FN || g.TP < 0 || g.FP < 0 || g.FN < 0 {
				t.Fatalf("%v: tags %+v words %+v", mode, g, w)
			}
		}
		_ = ReadGold([]byte(gold))
	})
}
