package langid

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// readSentences reads testdata/sentences.tsv: a language code, a tab and
// a block written for these tests.
func readSentences(t *testing.T) [][2]string {
	t.Helper()
	f, err := os.Open("testdata/sentences.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][2]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			lang, text, _ := strings.Cut(line, "\t")
			out = append(out, [2]string{lang, text})
		}
	}
	return out
}

// TestDetectSentences checks every language of the sentences: each
// language's blocks are mostly right, and all of them joined are right.
func TestDetectSentences(t *testing.T) {
	byLang := map[string][]string{}
	var order []string
	for _, s := range readSentences(t) {
		if byLang[s[0]] == nil {
			order = append(order, s[0])
		}
		byLang[s[0]] = append(byLang[s[0]], s[1])
	}
	if len(order) < 24 {
		t.Fatalf("%d languages in testdata/sentences.tsv, want at least 24", len(order))
	}
	right, total := 0, 0
	for _, lang := range order {
		for _, s := range byLang[lang] {
			total++
			if got, _, _ := Detect(s); got == lang {
				right++
			} else {
				t.Logf("%s: got %q for %q", lang, got, s)
			}
		}
		joined := strings.Join(byLang[lang], " ")
		if got, conf, reliable := Detect(joined); got != lang || !reliable {
			t.Errorf("%s: the %d blocks together: got %q (confidence %.2f, reliable %v)", lang, len(byLang[lang]), got, conf, reliable)
		}
	}
	// A floor, not the figure (scripts/langidbench measures it).
	if float64(right) < 0.85*float64(total) {
		t.Errorf("%d of %d blocks right, want at least 85%%", right, total)
	}
}

func TestDetectScripts(t *testing.T) {
	for _, c := range []struct {
		text, want string
		reliable   bool
	}{
		{"", "", false},
		{"12345 -- !!! 3.14 €", "", false},
		{"\xff\xfe\x00\x01\x02\x80\x81", "", false},
		{"東京大学の研究チームは新しい電池を開発したと発表しました", "ja", true},
		{"カレーライスとコーヒー", "ja", false}, // kana alone: Japanese, but under MinLetters
		{"国务院新闻办公室今天举行新闻发布会介绍有关情况", "zh", true},
		{"서울시는 내년부터 대중교통 요금을 인상한다고 밝혔다", "ko", true},
		{"日本", "zh", false}, // two Han characters: a guess, unreliable
		{"Ελλάδα και Κύπρος υπέγραψαν νέα συμφωνία συνεργασίας", "el", true},
		{"กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย", "th", true},
	} {
		got, _, reliable := Detect(c.text)
		if got != c.want || reliable != c.reliable {
			t.Errorf("Detect(%q) = %q, reliable %v; want %q, %v", c.text, got, reliable, c.want, c.reliable)
		}
	}
}

// TestDetectBounded: a huge text is read only as far as SampleBytes, and
// a cut in the middle of a character is no error.
func TestDetectBounded(t *testing.T) {
	var german []string
	for _, s := range readSentences(t) {
		if s[0] == "de" {
			german = append(german, s[1])
		}
	}
	para := strings.Join(german, " ") + " "
	big := strings.Repeat(para, 10<<20/len(para)) // 10 MB
	if got, _, reliable := Detect(big); got != "de" || !reliable {
		t.Errorf("10 MB of German: got %q, reliable %v", got, reliable)
	}
	han := strings.Repeat("中", SampleBytes) // 3 bytes each: the sample cuts one
	if s := sample(han); len(s)%3 != 0 || len(s) > SampleBytes {
		t.Errorf("sample cut %d bytes of Han", len(s))
	}
	mixed := strings.Repeat("Москва ", 20) + strings.Repeat("London ", 5)
	if got, _, _ := Detect(mixed); got != "ru" && got != "uk" && got != "bg" {
		t.Errorf("mostly Cyrillic text: got %q", got)
	}
}

func TestDeclared(t *testing.T) {
	for in, want := range map[string]string{
		"en": "en", "en-US": "en", "EN_gb": "en", "zh-Hant-TW": "zh", "pt_BR": "pt", " fr ": "fr",
		"iw": "he", "in": "id", "deu": "de", "cmn": "zh", "ceb": "ceb", "fil": "", "utf-8": "",
		"": "", "und": "", "x-default": "", "english": "", "e1": "", "mul": "",
	} {
		if got := Declared(in); got != want {
			t.Errorf("Declared(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDocument is the rule between the declared language and the text.
func TestDocument(t *testing.T) {
	french := "Le conseil municipal a décidé de planter des arbres le long de l'avenue principale cet automne, " +
		"et les habitants du quartier pourront choisir les espèces lors d'une réunion publique."
	for _, c := range []struct {
		name, text, declared, want string
		detected                   bool
	}{
		{"reliable text beats a wrong declaration", french, "en", "fr", true},
		{"agreeing declaration", french, "fr-FR", "fr", true},
		{"no text: the declaration", "", "de-AT", "de", false},
		{"no text, no declaration", "1234", "", "", false},
		{"short Latin text takes a Latin declaration", "Ok merci", "fr", "fr", false},
		{"Han text declared Japanese elsewhere", "国务院新闻办公室今天举行新闻发布会介绍有关情况", "en", "zh", true},
		{"kanji heading of a Japanese page", "日本", "ja", "ja", false},
		{"short Cyrillic text refuses a Latin declaration", "Да", "en", "", false},
		{"two short sentences, nothing declared: no guess", "Orphan continuation opens a paragraph. Second line.", "", "", false},
	} {
		got, detected := Document(c.text, c.declared)
		if c.want == "" && c.text != "" && c.declared != "" && got != c.declared && detected {
			continue // any language but the declared one
		}
		if got != c.want || detected != c.detected {
			t.Errorf("%s: Document(%.30q, %q) = %q, %v; want %q, %v", c.name, c.text, c.declared, got, detected, c.want, c.detected)
		}
	}
}

func TestBlock(t *testing.T) {
	german := "Wir haben am Wochenende einen langen Spaziergang durch den verschneiten Wald gemacht."
	for _, c := range []struct{ text, doc, want string }{
		{german, "de", ""},                  // the document's
		{german, "en", "de"},                // a German quotation in an English page
		{"Impressum und Kontakt", "en", ""}, // too short: the document's
		{"昨日は雨が降っていたので、家で本を読みながらゆっくり過ごしました。駅の近くに新しいパン屋ができました。", "zh", "ja"},
		{"東京都知事選挙投票東京都知事選挙投票東京都知事選挙投票東京都知事選挙投票東京都知事", "ja", ""}, // kanji alone in Japanese
	} {
		if got := Block(c.text, c.doc); got != c.want {
			t.Errorf("Block(%.30q, %q) = %q, want %q", c.text, c.doc, got, c.want)
		}
	}
}

func BenchmarkDetect(b *testing.B) {
	text := "Le conseil municipal a décidé de planter des arbres le long de l'avenue principale cet automne."
	b.ReportAllocs()
	for b.Loop() {
		Detect(text)
	}
}
