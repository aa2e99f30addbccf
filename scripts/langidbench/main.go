// Command langidbench compares language identification libraries for
// sluice (docs/langid.md): github.com/abadojack/whatlanggo and
// github.com/pemistahl/lingua-go, and sluice's package langid (whatlanggo
// with script rules and, for documents, the declared language). It is a
// module of its own so that sluice does not depend on lingua-go.
//
//	cd scripts/langidbench && go run . -data ../../../shared/data [-v]
//
// Documents: the text sluice keeps of each page of the shared sets, cut
// to langid.SampleBytes (-sample) for every detector, against the language the set
// gives (meta.tsv), English for the English sets, or labels.tsv for
// the pages labels.tsv lists (the readability pages not in English, four
// French pages of wcxb-dev). Blocks: the sentences of
// ../../langid/testdata/sentences.tsv.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/abadojack/whatlanggo"
	"github.com/pemistahl/lingua-go"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/langid"
)

// detector is one way to tell a text's language.
type detector struct {
	name   string
	detect func(text, declared string) string
}

// sample is a text whose language is known.
type sample struct {
	set, id, lang, declared, text string
	// page is langid.Page's answer on the cleaned page: its own sample
	// (longer blocks first), the declaration as evidence.
	page string
}

func main() {
	data := flag.String("data", "../../../shared/data", "the shared data folder")
	sentences := flag.String("sentences", "../../langid/testdata/sentences.tsv", "the short blocks: lang<TAB>text lines")
	labels := flag.String("labels", "labels.tsv", "the languages of the pages not in their set's: set/id<TAB>lang lines ('-' leaves a page out)")
	sampleBytes := flag.Int("sample", langid.SampleBytes, "give the detectors the first `N` bytes of each page's kept text")
	noLingua := flag.Bool("no-lingua", false, "leave lingua-go out (it takes 2 GB and 20 s to load)")
	verbose := flag.Bool("v", false, "list every wrong answer")
	dump := flag.String("dump", "", "list the pages of this set with their label, declared language and text, to check the labels")
	flag.Parse()
	if *dump != "" {
		*labels = ""
	}
	if err := run(*data, *sentences, *labels, *dump, *sampleBytes, !*noLingua, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "langidbench:", err)
		os.Exit(1)
	}
}

func run(data, sentencesPath, labelsPath, dump string, sampleBytes int, withLingua, verbose bool) error {
	blocks, err := readTSV(sentencesPath)
	if err != nil {
		return err
	}
	var labels []sample
	if labelsPath != "" {
		if labels, err = readTSV(labelsPath); err != nil {
			return err
		}
	}
	docs, err := documents(data, labels, sampleBytes)
	if err != nil {
		return err
	}
	if dump != "" {
		for _, d := range docs {
			if d.set == dump {
				l, _, _ := langid.Detect(d.text)
				fmt.Printf("%s\t%s\tdeclared %q\tdetected %s\t%.120q\n", d.id, d.lang, d.declared, l, d.text)
			}
		}
		return nil
	}
	dets := detectors(withLingua)
	fmt.Printf("documents: %d pages; blocks: %d sentences\n\n", len(docs), len(blocks))
	fmt.Println("| detector | documents right | µs/document | blocks right | µs/block |")
	fmt.Println("|---|---:|---:|---:|---:|")
	bySet := make([]map[string][2]int, len(dets))
	for k, d := range dets {
		dr, dt := score(d, docs, verbose)
		br, bt := score(d, blocks, verbose)
		fmt.Printf("| %s | %d/%d (%.1f%%) | %.0f | %d/%d (%.1f%%) | %.0f |\n", d.name, dr, len(docs), pct(dr, len(docs)),
			dt, br, len(blocks), pct(br, len(blocks)), bt)
		bySet[k] = perSet(d, docs)
	}
	printSets(dets, bySet)
	right := 0
	for _, d := range docs {
		if d.page == d.lang {
			right++
		} else if verbose {
			fmt.Fprintf(os.Stderr, "  langid.Page %s/%s: want %s, got %q (declared %q)\n", d.set, d.id, d.lang, d.page, d.declared)
		}
	}
	fmt.Printf("\nlangid.Page (what sluice answers: its own sample of the page, longer blocks first): %d/%d (%.1f%%)\n",
		right, len(docs), pct(right, len(docs)))
	return nil
}

// perSet returns, by set ("readability (not English)" apart), how many
// documents d gets right of how many.
func perSet(d detector, docs []sample) map[string][2]int {
	m := map[string][2]int{}
	for _, s := range docs {
		set := s.set
		if set == "readability" && s.lang != "en" {
			set = "readability (not English)"
		}
		c := m[set]
		c[1]++
		if d.detect(s.text, s.declared) == s.lang {
			c[0]++
		}
		m[set] = c
	}
	return m
}

func printSets(dets []detector, bySet []map[string][2]int) {
	var sets []string
	for set := range bySet[0] {
		sets = append(sets, set)
	}
	sort.Strings(sets)
	fmt.Print("\n| set | pages |")
	for _, d := range dets {
		fmt.Printf(" %s |", d.name)
	}
	fmt.Print("\n|---|---:|" + strings.Repeat("---:|", len(dets)) + "\n")
	for _, set := range sets {
		fmt.Printf("| %s | %d |", set, bySet[0][set][1])
		for k := range dets {
			fmt.Printf(" %d |", bySet[k][set][0])
		}
		fmt.Println()
	}
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }

// score returns how many samples d gets right and the mean microseconds
// it takes on one, the least of three runs.
func score(d detector, samples []sample, verbose bool) (int, float64) {
	right := 0
	var wrong []string
	for _, s := range samples {
		got := d.detect(s.text, s.declared)
		if got == s.lang {
			right++
		} else if verbose {
			wrong = append(wrong, fmt.Sprintf("  %s %s/%s: want %s, got %q (declared %q): %.70q", d.name, s.set, s.id, s.lang, got, s.declared, s.text))
		}
	}
	best := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		for _, s := range samples {
			d.detect(s.text, s.declared)
		}
		best = min(best, time.Since(start))
	}
	us := float64(best.Microseconds()) / float64(max(len(samples), 1))
	for _, w := range wrong {
		fmt.Fprintln(os.Stderr, w)
	}
	return right, us
}

func detectors(withLingua bool) []detector {
	dets := []detector{
		{"whatlanggo v1.0.1", func(text, _ string) string {
			l := whatlanggo.Detect(text).Lang
			if l < 0 {
				return ""
			}
			if c := l.Iso6391(); c != "" {
				return c
			}
			return l.Iso6393()
		}},
		{"langid.Detect (whatlanggo + scripts)", func(text, _ string) string {
			l, _, _ := langid.Detect(text)
			return l
		}},
		{"langid.Document (+ declared)", func(text, declared string) string {
			l, _ := langid.Document(text, declared)
			return l
		}},
		// The declaration taken as truth: the rule Document does not follow.
		{"declared, else langid.Detect", func(text, declared string) string {
			if l := langid.Declared(declared); l != "" {
				return l
			}
			l, _, _ := langid.Detect(text)
			return l
		}},
	}
	if !withLingua {
		return dets
	}
	start := time.Now()
	ld := lingua.NewLanguageDetectorBuilder().FromAllLanguages().WithPreloadedLanguageModels().Build()
	fmt.Fprintf(os.Stderr, "lingua-go: models loaded in %s\n", time.Since(start).Round(time.Millisecond))
	return append(dets, detector{"lingua-go v1.4.0", func(text, _ string) string {
		l, ok := ld.DetectLanguageOf(text)
		if !ok {
			return ""
		}
		return strings.ToLower(l.IsoCode639_1().String())
	}})
}

// documents cleans the pages of the shared sets with sluice's defaults and
// returns their kept text, cut to sampleBytes, with their language.
func documents(data string, labels []sample, sampleBytes int) ([]sample, error) {
	byID := map[string]string{}
	for _, l := range labels {
		byID[l.lang] = l.text // labels.tsv: set/id<TAB>lang
	}
	c, err := sluice.New(sluice.Options{})
	if err != nil {
		return nil, err
	}
	var out []sample
	for _, name := range []string{"cleaneval-dev", "cleanportaleval", "dragnet-train", "l3s-gn1", "wcxb-dev", "readability", "xmu-news-zh", "cwce-zh"} {
		set, err := dataset.Open(filepath.Join(data, name))
		if err != nil {
			return nil, err
		}
		for p, err := range set.Pages() {
			if err != nil {
				return nil, err
			}
			lang := p.Lang
			switch {
			case byID[name+"/"+p.ID] != "":
				lang = byID[name+"/"+p.ID]
			case lang == "":
				lang = "en"
			}
			if lang == "-" {
				continue
			}
			res, err := c.Clean(context.Background(), sluice.Input{Data: p.HTML, ContentType: contentType(p.Charset), URL: p.URL})
			if err != nil {
				continue
			}
			text := res.Text()
			if strings.TrimSpace(text) == "" {
				continue
			}
			text = cut(text, sampleBytes)
			out = append(out, sample{set: name, id: p.ID, lang: lang, declared: res.Page.Meta.Lang, text: text,
				page: langid.Page(res.Page)})
		}
	}
	return out, nil
}

func contentType(charset string) string {
	if charset == "" {
		return ""
	}
	return "text/html; charset=" + charset
}

// cut returns s's first n bytes, cut back to a whole character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// readTSV reads lines "a<TAB>b" as samples with lang a and text b,
// skipping blank lines and "#" comments.
func readTSV(path string) ([]sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a, b, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want two fields separated by a tab", path, n)
		}
		out = append(out, sample{set: "sentences", id: fmt.Sprint(n), lang: a, text: b})
	}
	return out, sc.Err()
}
