// Package evaluate scores cleaned pages against gold standards: it ties the
// data set readers (package dataset), the scorers (package score) and the
// cleaner together for the eval and bench commands, and gives package
// train the metric of each set.
package evaluate

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/score"
)

// Output is one cleaned page in the two shapes the metrics read.
type Output struct {
	// CleanEval is the page in CleanEval format: segments opened by <p>,
	// <h> or <l>.
	CleanEval string
	// Text is the plain text: segments separated by blank lines.
	Text string
}

// Metric scores one output against its gold standard.
type Metric struct {
	Name  string
	About string
	// CJK is how the word-based metrics (bow, lcs, shingle, cleaneval)
	// cut Han, kana, Thai... text: score.CJKChars, every character a token
	// (Lookup's), or score.CJKRuns, the published scorers' tokens.
	CJK   score.CJK
	count func(out *Output, gold *dataset.Gold, cjk score.CJK) score.Counts
}

// Score returns the counts of the comparison.
func (m Metric) Score(out *Output, gold *dataset.Gold) score.Counts {
	return m.count(out, gold, m.CJK)
}

// Label is the metric's name, with ", cjk-words" when it keeps the
// published scorers' tokens on Chinese text.
func (m Metric) Label() string {
	if m.CJK == score.CJKRuns {
		return m.Name + ", " + m.CJK.String()
	}
	return m.Name
}

// metrics is the registry, in the order Names lists it.
var metrics = []Metric{
	{"cleaneval", "CleanEval, Evert's cleaneval.py alignment, text only (tags removed)", 0, ceMetric(score.TextOnly)},
	{"cleaneval-labelled", "CleanEval, Evert's alignment with <p>/<h>/<l> tags as tokens", 0, ceMetric(score.Labelled)},
	{"cleaneval-unlabelled", "CleanEval, Evert's alignment with every tag as <p>", 0, ceMetric(score.Unlabelled)},
	{"bow", "bag-of-words F1 over lowercased \\w+ tokens (WCXB), a Han, kana or Thai character a token", 0, func(o *Output, g *dataset.Gold, cjk score.CJK) score.Counts {
		return score.BagOfWordsAs(o.Text, g.Text, cjk)
	}},
	{"bow-cjk", "bow with every Han, kana or Thai character a token even with --cjk-words (bow's default)", 0, func(o *Output, g *dataset.Gold, _ score.CJK) score.Counts {
		return score.BagOfWords(o.Text, g.Text)
	}},
	{"lcs", "word longest-common-subsequence P/R/F (Gottron; CombinE)", 0, func(o *Output, g *dataset.Gold, cjk score.CJK) score.Counts {
		return score.LCSAs(o.Text, g.Text, cjk)
	}},
	{"shingle", "4-word-shingle F1 (Scrapinghub/Zyte article extraction benchmark)", 0, func(o *Output, g *dataset.Gold, cjk score.CJK) score.Counts {
		return score.ShinglesAs(o.Text, g.Text, score.ShingleSize, cjk)
	}},
	{"snippets", "with/without snippets found as WCXB checks them (pages that have snippets)", 0, func(o *Output, g *dataset.Gold, _ score.CJK) score.Counts {
		return score.Snippets(o.Text, g.With, g.Without, score.SnippetsWCXB).Counts()
	}},
	{"rouge-lsum", "ROUGE-LSum (Bevendorff et al. 2023)", 0, func(o *Output, g *dataset.Gold, _ score.CJK) score.Counts {
		return score.RougeLSum(o.Text, g.Text)
	}},
}

// Names returns the metric names.
func Names() []string {
	out := make([]string, len(metrics))
	for i, m := range metrics {
		out[i] = m.Name
	}
	return out
}

// Lookup returns the metric called name.
func Lookup(name string) (Metric, error) {
	for _, m := range metrics {
		if m.Name == name {
			return m, nil
		}
	}
	return Metric{}, fmt.Errorf("unknown metric %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Main returns the name of the main metric of a data set of the given kind,
// as its dataset.KindSpec says: CleanEval text-only F1 for the CleanEval
// sets (the field's measure on them) and for annotated sets (whose
// annotation is a CleanEval gold: see dataset.AnnotationSegments),
// bag-of-words F1 for the others (WCXB's measure, and the token F1 of the
// Dragnet paper).
func Main(kind dataset.Kind) string { return kind.Spec().MainMetric() }

func ceMetric(mode score.CEMode) func(*Output, *dataset.Gold, score.CJK) score.Counts {
	return func(o *Output, g *dataset.Gold, cjk score.CJK) score.Counts {
		return score.CleanEvalAs(o.CleanEval, GoldCleanEval(g), mode, cjk)
	}
}

// GoldCleanEval returns a gold standard in CleanEval format: the file
// itself for CleanEval sets (one with segments, or only its "URL:" line:
// cleaneval.py scores the file as it is, line breaks and all), otherwise
// built from the labelled segments or the paragraphs of the text.
func GoldCleanEval(g *dataset.Gold) string {
	if looksCleanEval(g.Raw) || strings.HasPrefix(g.Raw, "URL:") {
		return g.Raw
	}
	var sb strings.Builder
	if len(g.Segments) > 0 {
		for _, s := range g.Segments {
			sb.WriteString(segTag(s.Label))
			sb.WriteString(s.Text)
			sb.WriteString("\n")
		}
		return sb.String()
	}
	return FromText(g.Text).CleanEval
}

func segTag(l page.Label) string {
	if t := l.Tag(); t != "" {
		return t + " "
	}
	return "<p> "
}

var ceTag = regexp.MustCompile(`(?m)^\s*<[phl]>`)

// looksCleanEval reports whether s is in CleanEval format.
func looksCleanEval(s string) bool {
	return ceTag.MatchString(s)
}

// FromText makes an Output of plain text whose paragraphs are separated by
// blank lines (every paragraph becomes a <p> segment).
func FromText(text string) *Output {
	var sb strings.Builder
	for _, para := range splitParagraphs(text) {
		sb.WriteString("<p> ")
		sb.WriteString(para)
		sb.WriteString("\n")
	}
	return &Output{CleanEval: sb.String(), Text: text}
}

// FromFile makes an Output of a file written by a cleaner: CleanEval format
// when it has <p>/<h>/<l> segments (the tags and URL line are removed for
// the text metrics), plain text otherwise.
func FromFile(content string) *Output {
	if !looksCleanEval(content) {
		return FromText(content)
	}
	var paras []string
	open := false // the last paragraph takes more lines
	for _, line := range strings.Split(content, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "URL:") || t == "<doc>" {
			continue
		}
		if len(t) >= 3 && t[0] == '<' && strings.ContainsRune("phl", rune(t[1])) && t[2] == '>' {
			open = false
			t = strings.TrimSpace(t[3:])
		}
		switch {
		case t == "":
		case open:
			paras[len(paras)-1] += " " + t
		default:
			paras = append(paras, t)
			open = true
		}
	}
	return &Output{CleanEval: content, Text: strings.Join(paras, "\n\n")}
}

// splitParagraphs splits text at blank lines into paragraphs, each with
// its white space runs made one space. White space is ASCII's, as
// cleaneval.py's byte-level split has it: a no-break space (U+00A0, byte
// 0xA0 in Latin-1) stays inside its word.
func splitParagraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if p = strings.Join(strings.FieldsFunc(p, isASCIISpace), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// isASCIISpace reports whether r is a control character or a space, the
// bytes at which cleaneval.py splits words.
func isASCIISpace(r rune) bool { return r <= ' ' }
