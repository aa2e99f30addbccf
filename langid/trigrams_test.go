package langid

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/abadojack/whatlanggo"
)

// agree fails t when detectTrigrams and whatlanggo disagree on text.
// Where whatlanggo's two nearest candidates tie, its choice between them
// follows map order and its confidence is 0; only the confidence is
// compared there.
func agree(t *testing.T, text string) {
	t.Helper()
	want := whatlanggo.DetectWithOptions(text, webLanguages)
	lang, conf := detectTrigrams(text)
	if conf != want.Confidence || (lang != want.Lang && want.Confidence != 0) {
		t.Errorf("%.60q: got %v %.4f, whatlanggo %v %.4f", text, lang, conf, want.Lang, want.Confidence)
	}
}

// TestTrigramsAgreeWithWhatlanggo holds detectTrigrams to whatlanggo's
// verdicts: on the written sentences in 24 languages, alone, cut short and
// joined; on odd texts; and on windows of the shared sets' gold text when
// ../shared/data is there.
func TestTrigramsAgreeWithWhatlanggo(t *testing.T) {
	var all []string
	for _, s := range readSentences(t) {
		all = append(all, s[1])
		for n := 1; n < len(s[1]); n += 7 {
			all = append(all, strings.ToValidUTF8(s[1][:n], ""))
		}
	}
	for i := 0; i+4 <= len(all); i += 4 {
		agree(t, strings.Join(all[i:i+4], " "))
	}
	for _, s := range all {
		agree(t, s)
	}
	for _, s := range []string{"", " ", "a", "ab", "1234 ,.;", "a b c d", "x\xffy\xfez", "ÀÉÎÕÜ ÀÉÎÕÜ", "Привет мир", "שלום עולם", "नमस्ते दुनिया", "ሰላም ዓለም", "مرحبا بالعالم", "Ǆemal ǅemal ǆemal"} {
		agree(t, s)
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "data", "*", "gold", "*"))
	if len(files) == 0 {
		t.Log("no shared data: gold windows skipped")
		return
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, f := range files {
		if i%7 != 0 {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{40, 150, SampleBytes} {
			if len(data) <= n {
				continue
			}
			at := rng.IntN(len(data) - n)
			agree(t, strings.ToValidUTF8(string(data[at:at+n]), ""))
		}
	}
}

// FuzzTrigramsAgree feeds both detectors the same bytes.
func FuzzTrigramsAgree(f *testing.F) {
	for _, s := range []string{"The river was too high to cross.", "Le conseil municipal a décidé", "Привет мир, как дела", "x\xffy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > SampleBytes || !utf8.ValidString(s) && len(s) > 64 {
			return
		}
		agree(t, s)
	})
}

func BenchmarkDetectDocument(b *testing.B) {
	var texts []string
	for _, s := range readSentences(&testing.T{}) {
		texts = append(texts, s[1])
	}
	doc := sample(strings.Join(texts[:30], " "))
	b.Run("trigrams", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			detectTrigrams(doc)
		}
	})
	b.Run("whatlanggo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			whatlanggo.DetectWithOptions(doc, webLanguages)
		}
	})
}
