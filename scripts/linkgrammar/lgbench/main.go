// Command lgbench is the Go half of scripts/linkgrammar/run, the
// benchmark that measures how well Link Grammar's parser (link-parser)
// parses the text sluice keeps, in its text and parser formats. It is
// not part of go test. Subcommands:
//
//	lgbench pages [-per-set N] DATA        pick pages with tables or lists
//	lgbench prepare -format F -out DIR IN  split sluice output into sentences
//	lgbench score -format F DIR            read link-parser's answers, tally
//	lgbench diff DIR1 DIR2                 the sentences only one format has
//	lgbench rows DIR                       every sentence and its answer, TSV
//
// pages prints "SET<TAB>PATH" for up to N pages of each English set of
// DATA whose HTML holds a table with at least 2 rows or a ul/ol with at
// least 3 items (a dl: 3 dt or dd), in a fixed order (FNV-1a hash of
// SET/NAME). prepare reads the files sluice wrote to IN and splits them
// into sentences: the parser format is one sentence a line already; for
// the text format, each line (a paragraph, or a line of preformatted
// text) is split with parsertext.Split, the splitter of the parser
// format, so that only the formatting differs. It writes DIR/all.tsv
// (one row a sentence: page, whitespace tokens, what is done with it,
// text) and DIR/chunk-NNNN.txt, the sentences to send to link-parser.
// score reads DIR/chunk-NNNN.out, link-parser's output for each chunk
// (run with echo on, so that each answer follows its sentence), and
// prints one Markdown table row.
package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/sluice-project/sluice/parsertext"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "pages":
		err = pages(os.Args[2:])
	case "prepare":
		err = prepare(os.Args[2:])
	case "score":
		err = score(os.Args[2:])
	case "diff":
		err = diff(os.Args[2:])
	case "rows":
		err = listRows(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lgbench:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: lgbench pages|prepare|score|diff|rows [flags] ARGS (see the package comment)")
	os.Exit(2)
}

// sets are the English sets of the shared data and their HTML folders.
var sets = []struct{ name, dir string }{
	{"cleaneval-dev", "html"},
	{"cleanportaleval", "html"},
	{"dragnet-train", "html"},
	{"l3s-gn1", "original"},
	{"readability", "html"},
	{"wcxb-dev", "html"},
}

func pages(args []string) error {
	fs := flag.NewFlagSet("pages", flag.ExitOnError)
	perSet := fs.Int("per-set", 60, "at most this many pages of each set")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("pages: want the data folder")
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, s := range sets {
		dir := filepath.Join(fs.Arg(0), s.name, s.dir)
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		type cand struct {
			key  uint64
			path string
		}
		var cs []cand
		for _, e := range ents {
			if e.IsDir() {
				continue
			}
			h := fnv.New64a()
			io.WriteString(h, s.name+"/"+e.Name())
			cs = append(cs, cand{h.Sum64(), filepath.Join(dir, e.Name())})
		}
		slices.SortFunc(cs, func(a, b cand) int {
			if a.key != b.key {
				return compareU64(a.key, b.key)
			}
			return strings.Compare(a.path, b.path)
		})
		n := 0
		for _, c := range cs {
			if n == *perSet {
				break
			}
			ok, err := structured(c.path)
			if err != nil {
				return err
			}
			if ok {
				fmt.Fprintf(w, "%s\t%s\n", s.name, c.path)
				n++
			}
		}
	}
	return nil
}

func compareU64(a, b uint64) int {
	if a < b {
		return -1
	}
	return 1
}

// structured reports whether the page at path holds a table with at least
// two rows or a list with at least three items, counting rows and items
// in the innermost open table or list.
func structured(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return false, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	type open struct {
		tag   string
		count int
	}
	var stack []open
	// innermost returns the innermost open element among tags, or nil.
	innermost := func(tags ...string) *open {
		for i := len(stack) - 1; i >= 0; i-- {
			if slices.Contains(tags, stack[i].tag) {
				return &stack[i]
			}
		}
		return nil
	}
	z := html.NewTokenizer(r)
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return false, nil
			}
			return false, fmt.Errorf("%s: %w", path, z.Err())
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case tt == html.StartTagToken && (tag == "table" || tag == "ul" || tag == "ol" || tag == "dl"):
				stack = append(stack, open{tag: tag})
			case tt == html.EndTagToken && (tag == "table" || tag == "ul" || tag == "ol" || tag == "dl"):
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i].tag == tag {
						stack = stack[:i]
						break
					}
				}
			case tt == html.StartTagToken && tag == "tr":
				if o := innermost("table"); o != nil {
					if o.count++; o.count >= 2 {
						return true, nil
					}
				}
			case tt == html.StartTagToken && tag == "li":
				if o := innermost("ul", "ol"); o != nil {
					if o.count++; o.count >= 3 {
						return true, nil
					}
				}
			case tt == html.StartTagToken && (tag == "dt" || tag == "dd"):
				if o := innermost("dl"); o != nil {
					if o.count++; o.count >= 3 {
						return true, nil
					}
				}
			}
		}
	}
}

// What is done with a sentence.
const (
	doParse = "parse"  // sent to link-parser
	doLong  = "long"   // over -max-tokens: not sent, counts as no linkage
	doBytes = "bytes"  // over -max-bytes (link-parser stops at 2046): not sent
	doEmpty = "empty"  // nothing left to parse: not sent
	doSkip  = "sample" // left out of the sample: not sent, not counted
)

func prepare(args []string) error {
	fs := flag.NewFlagSet("prepare", flag.ExitOnError)
	format := fs.String("format", "", "the sluice format of the files: text or parser")
	out := fs.String("out", "", "folder to write all.tsv and the chunks to")
	maxTokens := fs.Int("max-tokens", 80, "do not parse sentences with more whitespace tokens")
	maxBytes := fs.Int("max-bytes", 2000, "do not parse sentences with more bytes")
	chunk := fs.Int("chunk", 250, "sentences per chunk")
	sample := fs.Int("sample", 0, "when above 0, parse a uniform sample of this many sentences")
	seed := fs.Uint64("seed", 1, "seed of the sample")
	fs.Parse(args)
	if fs.NArg() != 1 || *out == "" || (*format != "text" && *format != "parser") || *chunk < 1 {
		return errors.New("prepare: want -format text|parser -out DIR and the folder of sluice's output")
	}
	rows, err := readSentences(fs.Arg(0), *format)
	if err != nil {
		return err
	}
	chosen := sampleMask(len(rows), *sample, *seed)
	for i := range rows {
		r := &rows[i]
		r.text = sanitise(r.text)
		switch {
		case !chosen[i]:
			r.do = doSkip
		case r.tokens > *maxTokens:
			r.do = doLong
		case len(r.text) > *maxBytes:
			r.do = doBytes
		case r.text == "":
			r.do = doEmpty
		default:
			r.do = doParse
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	return writeSentences(*out, rows, *chunk)
}

// readSentences reads the files sluice wrote below dir (every .txt, in
// name order) and splits them into sentences. Tokens are counted before
// sanitise.
func readSentences(dir, format string) ([]row, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var rows []row
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		page, _ := filepath.Rel(dir, f)
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			ss := []string{line}
			if format == "text" {
				ss = parsertext.Split(line, "en")
			}
			for _, s := range ss {
				rows = append(rows, row{page: page, text: s, tokens: len(strings.Fields(s))})
			}
		}
	}
	return rows, nil
}

// sampleMask returns which of n sentences are in a uniform sample of
// size sample (all when sample is 0 or at least n).
func sampleMask(n, sample int, seed uint64) []bool {
	chosen := make([]bool, n)
	if sample <= 0 || sample >= n {
		for i := range chosen {
			chosen[i] = true
		}
		return chosen
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	for _, i := range rng.Perm(n)[:sample] {
		chosen[i] = true
	}
	return chosen
}

// writeSentences writes out/all.tsv (every row) and the rows to parse
// in chunks of size chunk, out/chunk-NNNN.txt.
func writeSentences(out string, rows []row, chunk int) error {
	tsv, err := os.Create(filepath.Join(out, "all.tsv"))
	if err != nil {
		return err
	}
	tw := bufio.NewWriter(tsv)
	var cw *bufio.Writer
	var cf *os.File
	nsent, nchunk := 0, 0
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", r.page, r.tokens, r.do, r.text)
		if r.do != doParse {
			continue
		}
		if nsent%chunk == 0 {
			if cf != nil {
				if err := closeChunk(cw, cf); err != nil {
					return err
				}
			}
			cf, err = os.Create(filepath.Join(out, fmt.Sprintf("chunk-%04d.txt", nchunk)))
			if err != nil {
				return err
			}
			cw = bufio.NewWriter(cf)
			nchunk++
		}
		cw.WriteString(r.text)
		cw.WriteByte('\n')
		nsent++
	}
	if cf != nil {
		if err := closeChunk(cw, cf); err != nil {
			return err
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return tsv.Close()
}

func closeChunk(w *bufio.Writer, f *os.File) error {
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// sanitise makes s one line that link-parser reads as a sentence: valid
// UTF-8, control characters and runs of white space as one space, and no
// leading '!' (a link-parser command) or '%' (a comment).
func sanitise(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimLeft(s, "!% ")
}

// Link-parser's answers (with verbosity=1 and echo on).
var (
	foundRE = regexp.MustCompile(`^Found (\d+) linkages? \((\d+)(?: of \d+ random linkages)? had no P\.P\. violations\)(.*)$`)
	noneMsg = "No complete linkages found."
	timeMsg = "Timer is expired!"
)

// row is one sentence of all.tsv with link-parser's answer.
type row struct {
	page, text string // text as sent to link-parser
	tokens     int
	do         string
	answer
}

// load reads DIR/all.tsv and link-parser's answers in DIR.
func load(dir string) ([]row, error) {
	data, err := os.ReadFile(filepath.Join(dir, "all.tsv"))
	if err != nil {
		return nil, err
	}
	var rows []row
	var toParse []int // rows sent to link-parser, in order
	for line := range strings.Lines(string(data)) {
		f := strings.SplitN(strings.TrimSuffix(line, "\n"), "\t", 4)
		if len(f) != 4 {
			return nil, fmt.Errorf("all.tsv: bad row %q", line)
		}
		n, _ := strconv.Atoi(f[1])
		if f[2] == doParse {
			toParse = append(toParse, len(rows))
		}
		rows = append(rows, row{page: f[0], text: f[3], tokens: n, do: f[2]})
	}
	chunks, _ := filepath.Glob(filepath.Join(dir, "chunk-*.txt"))
	slices.Sort(chunks)
	next := 0 // index in toParse of the chunk's first sentence
	for _, c := range chunks {
		in, err := os.ReadFile(c)
		if err != nil {
			return nil, err
		}
		want := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
		if next+len(want) > len(toParse) {
			return nil, fmt.Errorf("%s: more sentences than all.tsv", c)
		}
		for k, w := range want {
			if rows[toParse[next+k]].text != w {
				return nil, fmt.Errorf("%s: does not match all.tsv", c)
			}
		}
		got, err := answers(strings.TrimSuffix(c, ".txt")+".out", want)
		if err != nil {
			return nil, err
		}
		for k, a := range got {
			rows[toParse[next+k]].answer = a
		}
		next += len(want)
	}
	if next != len(toParse) {
		return nil, fmt.Errorf("%d sentences to parse in all.tsv, %d in chunks", len(toParse), next)
	}
	return rows, nil
}

func score(args []string) error {
	fs := flag.NewFlagSet("score", flag.ExitOnError)
	format := fs.String("format", "", "the format's name, for the table")
	pagesN := fs.Int("pages", 0, "the number of pages, for the table")
	longN := fs.Int("long", 80, "count sentences with more whitespace tokens")
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("score: want the folder prepare wrote")
	}
	rows, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	var long, counted, notSent, parsed int
	var complete, incomplete, ppOnly, timeouts, lost int
	for _, r := range rows {
		if r.tokens > *longN {
			long++
		}
		if r.do == doSkip {
			continue
		}
		switch r.status() {
		case "lost":
			lost++
		case "timeout":
			timeouts++
		case "complete":
			complete++
		case "pp-only":
			ppOnly++
		case "none":
			incomplete++
		default:
			notSent++
		}
		if r.do == doParse {
			parsed++
		}
		counted++
	}
	fmt.Printf("| %s | %d | %d | %d | %.1f%% (%d) | %d (%.1f%%) | %d | %d | %d |\n",
		*format, *pagesN, len(rows), counted, pct(complete, counted), complete,
		long, pct(long, len(rows)), timeouts, notSent, lost)
	fmt.Fprintf(os.Stderr, "%s: %d parsed: %d complete, %d only with P.P. violations, %d no complete linkage, %d timeouts, %d lost; %d not sent (too many tokens or bytes, or empty)\n",
		*format, parsed, complete, ppOnly, incomplete, timeouts, lost, notSent)
	return nil
}

// diff prints, for each of two formats, the sentences (page and text)
// that the other format does not have, and their share of complete
// linkages: the sentences where the formats differ. Sentences left out
// of a sample are skipped, so diff is meant for runs without SAMPLE.
func diff(args []string) error {
	fs := flag.NewFlagSet("diff", flag.ExitOnError)
	fs.Parse(args)
	if fs.NArg() != 2 {
		return errors.New("diff: want two folders prepare wrote (and score could read)")
	}
	a, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	b, err := load(fs.Arg(1))
	if err != nil {
		return err
	}
	sides := []struct {
		name        string
		mine, other []row
	}{{fs.Arg(0), a, b}, {fs.Arg(1), b, a}}
	for _, sd := range sides {
		other := map[[2]string]int{}
		for _, r := range sd.other {
			if r.do != doSkip {
				other[[2]string{r.page, r.text}]++
			}
		}
		n, ok := 0, 0
		for _, r := range sd.mine {
			k := [2]string{r.page, r.text}
			if r.do == doSkip {
				continue
			}
			if other[k] > 0 {
				other[k]--
				continue
			}
			n++
			if r.do == doParse && r.complete && !r.timeout {
				ok++
			}
		}
		fmt.Printf("%s: %d sentences the other format has not, %.1f%% (%d) with a complete linkage\n",
			strings.TrimSuffix(filepath.Base(sd.name), ".lg"), n, pct(ok, n), ok)
	}
	return nil
}

// status says what came of a sentence that was not skipped: not-sent,
// lost, timeout, complete, pp-only (linkages without null links, all
// violating post-processing rules) or none.
func (r *row) status() string {
	switch {
	case r.do != doParse:
		return "not-sent"
	case r.lost:
		return "lost"
	case r.timeout:
		return "timeout"
	case r.complete:
		return "complete"
	case r.ppOnly:
		return "pp-only"
	}
	return "none"
}

// listRows prints every sentence of a folder prepare wrote, one a line:
// page, whitespace tokens, what came of it (complete, pp-only, none,
// timeout, lost, or not-sent) and the text, tab-separated, for analysis.
func listRows(args []string) error {
	fs := flag.NewFlagSet("rows", flag.ExitOnError)
	fs.Parse(args)
	if fs.NArg() != 1 {
		return errors.New("rows: want the folder prepare wrote")
	}
	rows, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	for _, r := range rows {
		if r.do == doSkip {
			continue
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", r.page, r.tokens, r.status(), r.text)
	}
	return w.Flush()
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// answer is what link-parser said about one sentence.
type answer struct {
	complete bool // a linkage with no null links and no P.P. violations
	ppOnly   bool // linkages with no null links, all with P.P. violations
	timeout  bool // the timer expired
	lost     bool // no answer found (link-parser stopped early?)
}

// answers reads link-parser's output for the sentences want, in order:
// each sentence is echoed, then answered.
func answers(path string, want []string) ([]answer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := make([]answer, len(want))
	seen := make([]bool, len(want))
	cur, next := -1, 0
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		if next < len(want) && line == want[next] {
			cur, next = next, next+1
			continue
		}
		if cur < 0 {
			continue
		}
		a := &out[cur]
		switch {
		case line == timeMsg || strings.HasSuffix(line, timeMsg):
			a.timeout = true
		case line == noneMsg:
			seen[cur] = true
		default:
			// "No complete linkages found." may come with a "Found"
			// line whose linkages all violate post-processing rules.
			if m := foundRE.FindStringSubmatch(line); m != nil {
				seen[cur] = true
				good, _ := strconv.Atoi(m[2])
				nulls := strings.Contains(m[3], "null count")
				a.complete = a.complete || (good > 0 && !nulls)
				a.ppOnly = a.ppOnly || (good == 0 && !nulls)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if !seen[i] && !out[i].timeout {
			out[i].lost = true
		}
	}
	return out, nil
}
