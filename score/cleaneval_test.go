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
		// A gold with no words: the script's split leaves an empty word for
		// an empty text ([""]), one for a leading and one for a trailing
		// space of the normalised text (a tag makes one: "<p>a" is
		// ["", "<p>", "a"]), and those empty words align with each other.
		// Values as cleaneval.py v1.0 gives them (run with Python 2.7).
		{"both empty", "", "", Labelled, Counts{1, 0, 0}, 1, 1, 1},
		{"both empty, gold URL line", "", "URL: x\n", Labelled, Counts{1, 0, 1}, 1, 0.5, 2.0 / 3},
		{"empty gold", "<p>a", "", Labelled, Counts{1, 2, 0}, 1.0 / 3, 1, 0.5},
		{"empty gold, URL line", "<p> Hello world\n", "URL: x\n", TextOnly, Counts{2, 2, 0}, 0.5, 1, 2.0 / 3},
		{"empty gold, no end spaces", "Hello world", "URL: x\n", Labelled, Counts{0, 2, 2}, 0, 0, 0},
		// An empty output against a gold with words scores 0 (the script:
		// TP 1, from its empty words; see the top of cleaneval.go).
		{"empty output", "", "<p>a b", Labelled, Counts{0, 0, 3}, 0, 0, 0},
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

// TestCleanEvalScript checks the explicit cases of
// testdata/difflib/cleaneval_script.json. scripts/gen_difflib_vectors.py
// wrote them with a port of cleaneval.py's normalize(), re_WS.split() and
// evaluate() to Python 3 bytes patterns (\s of a bytes pattern is ASCII white
// space, as in the script's Python 2 byte strings), checked against the script
// itself run by Python 2.7. The texts are bytes, stored as Latin-1 code
// points, and are scored here unchanged, as the script reads them. The cases:
//
//   - The gold has no words: an empty gold file or one holding only its URL
//     line, against an output or an empty output. The script's counts then
//     come from the empty words of its split alone, and sluice counts them
//     too (ceCountEmpty): the counts must be the script's.
//   - An empty output against a gold with words: sluice's counts are the
//     script's without its empty words (TP 0, so F 0).
//   - No-break spaces, as the Latin-1 byte A0 and as UTF-8's C2 A0: neither
//     is white space for the script, so "a\xa0b" is one word, and a Latin-1
//     word differs from the same word in UTF-8. Both sides have words, so
//     sluice drops the split's empty words: the counts are the script's
//     without them.
//
// In every case the words are the script's without the empty ones, and the
// counts the file's "sluice" ones (the script's where the gold has no words).
func TestCleanEvalScript(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "difflib", "cleaneval_script.json"))
	if err != nil {
		t.Fatal(err)
	}
	type modeCase struct {
		OutputWords []string    `json:"output_words"`
		GoldWords   []string    `json:"gold_words"`
		Script      ceDevCounts `json:"script"`
		Sluice      ceDevCounts `json:"sluice"`
	}
	var file struct {
		Cases []struct {
			Name   string              `json:"name"`
			Output string              `json:"output"`
			Gold   string              `json:"gold"`
			Modes  map[string]modeCase `json:"modes"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &file); err != nil || len(file.Cases) == 0 {
		t.Fatalf("cleaneval_script.json: %d cases, error %v", len(file.Cases), err)
	}
	modes := map[string]CEMode{"labelled": Labelled, "unlabelled": Unlabelled, "textonly": TextOnly}
	for _, c := range file.Cases {
		output, gold := latin1Bytes(c.Output), latin1Bytes(c.Gold)
		if len(c.Modes) != len(modes) {
			t.Fatalf("%s: %d modes, want %d", c.Name, len(c.Modes), len(modes))
		}
		for name, want := range c.Modes {
			mode := modes[name]
			ow, gw := CleanEvalWords(output, mode), CleanEvalWords(gold, mode)
			if w := nonEmpty(want.OutputWords); !slices.Equal(ow, w) {
				t.Errorf("%s %v: output words %q, want %q", c.Name, mode, ow, w)
			}
			if w := nonEmpty(want.GoldWords); !slices.Equal(gw, w) {
				t.Errorf("%s %v: gold words %q, want %q", c.Name, mode, gw, w)
			}
			if n, w := ceEmptyWords(output), len(want.OutputWords)-len(ow); n != w {
				t.Errorf("%s %v: ceEmptyWords(output) = %d, want %d", c.Name, mode, n, w)
			}
			if n, w := ceEmptyWords(gold), len(want.GoldWords)-len(gw); n != w {
				t.Errorf("%s %v: ceEmptyWords(gold) = %d, want %d", c.Name, mode, n, w)
			}
			w, g := CleanEvalDetail(output, gold, mode)
			got := ceDevCounts{w.TP, w.FP, w.FN, g.TP, g.FP, g.FN}
			if got != want.Sluice {
				t.Errorf("%s %v: got %+v, want %+v", c.Name, mode, got, want.Sluice)
			}
			if len(gw) == 0 && got != want.Script {
				t.Errorf("%s %v: a gold without words: got %+v, want the script's %+v", c.Name, mode, got, want.Script)
			}
		}
	}
}

// latin1Bytes returns the bytes whose values are the code points of s (all
// below 256).
func latin1Bytes(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		b = append(b, byte(r))
	}
	return string(b)
}

func nonEmpty(words []string) []string {
	var out []string
	for _, w := range words {
		if w != "" {
			out = append(out, latin1Bytes(w))
		}
	}
	return out
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
	// A Latin-1 no-break space decodes to U+00A0 and stays inside its word,
	// which then equals the UTF-8 spelling (the script, on the bytes, keeps
	// it inside the word too, but would not match the two spellings).
	out := ReadGold([]byte("<p>a\xa0b c\n"))
	if w := CleanEvalWords(out, TextOnly); !slices.Equal(w, []string{"a\u00a0b", "c"}) {
		t.Errorf("Latin-1 no-break space: words %q", w)
	}
	if c := CleanEval(out, "<p>a\u00a0b c", Labelled); c != (Counts{3, 0, 0}) {
		t.Errorf("Latin-1 against UTF-8 no-break space: %+v", c)
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
			if ng == 0 {
				// The script's empty words take part (ceCountEmpty).
				no += ceEmptyWords(output)
				ng += ceEmptyWords(gold)
			}
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

func TestCleanEvalCJK(t *testing.T) {
	out, gold := "<p> 新闻：东京 today\n", "<p> 东京。 today\n"
	// Characters: 新 闻 ： 东 京 today against 东 京 。 today.
	if got, want := CleanEval(out, gold, TextOnly), (Counts{TP: 3, FP: 3, FN: 1}); got != want {
		t.Errorf("CleanEval = %+v, want %+v", got, want)
	}
	// The script's words: "新闻：东京" and "东京。" differ.
	if got, want := CleanEvalAs(out, gold, TextOnly, CJKRuns), (Counts{TP: 1, FP: 1, FN: 1}); got != want {
		t.Errorf("CleanEvalAs(CJKRuns) = %+v, want %+v", got, want)
	}
	if got, want := CleanEvalAs(out, gold, Labelled, CJKRuns), (Counts{TP: 2, FP: 1, FN: 1}); got != want {
		t.Errorf("CleanEvalAs(Labelled, CJKRuns) = %+v, want %+v", got, want)
	}
}
