// Package dataset reads the evaluation and training data sets of
// ../shared/data (see its README.md) into one shape: pages with an id, the
// raw HTML and the gold standard.
//
// Each data set folder has its own layout and gold format, its Kind; Open
// recognises it, and Set.Pages streams the pages in a stable natural order
// ("2" before "10"). Each kind is a KindSpec in a file of its own, which
// also tells scoring and training what they need to know of its gold (its
// main metric, default annotation style, alignment). The kinds (Kinds
// lists them in the order Open tries them):
//
//	cleaneval    html/N.html (with the CleanEval <text id=...> wrapper) and gold/N.txt
//	             ("URL: ..." line, segments opened by <p>, <h>, <l>):
//	             cleaneval-dev, cleanportaleval
//	dragnet      html/N.html and gold/N.txt (plain text, user comments after a
//	             "!@#$%^&*()  COMMENTS" line), and an optional meta.tsv
//	             (id, language, site, url columns): dragnet-train,
//	             xmu-news-zh, cwce-zh
//	l3s          original/X.html, annotated/X.html (text blocks wrapped in
//	             <span class="x-nc-selN">) and url-mapping.txt: l3s-gn1
//	wcxb         html/NNNN.html.gz and gold/NNNN.json: wcxb-dev
//	readability  html/N.html and expected/N.txt (the HTML fragment that
//	             Readability.js extracts): readability
//	annotated    html/NAME.html and ann/NAME.ann, pages labelled by hand in
//	             Victor's annotation format (see ReadAnnotation; "sluice
//	             annotate" writes and checks them; a NAME such as
//	             example.com_3 gives the site): your own sets
//
// Whatever the format, Gold.Text is the main content as plain text, one
// segment (paragraph, heading, list item, line) per paragraph, segments
// separated by blank lines, white space within a segment collapsed. Gold.Raw
// keeps the gold file as it is for scorers that want the original.
//
// The package reads files only; it does not depend on the cleaner.
package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/page"
)

// Page is one page of a data set with its gold standard.
type Page struct {
	// Set is the data set's name, the base name of its folder, such as
	// "cleaneval-dev".
	Set string
	// ID is the page's file stem: "12", "bbc.co.uk_news_01", "0001", or the
	// L3S-GN1 uuid.
	ID string
	// Site is the site the page comes from when the data set says it: the
	// file name's prefix in cleanportaleval ("bbc.co.uk_news_01" is
	// "bbc.co.uk"), otherwise the host of URL without "www.". It is meant
	// for grouping cross-validation folds by site. Empty when unknown.
	Site string
	// URL is the page's address when the data set records it: the
	// CleanEval wrapper's id (or the gold's URL: line), the L3S-GN1
	// url-mapping.txt, the WCXB url field. Empty for dragnet-train and
	// readability.
	URL string
	// Charset is the character encoding of HTML when the data set states
	// it from outside the page, as an HTTP Content-Type header would; empty
	// when the page must be sniffed. It is "utf-8" for l3s-gn1, whose
	// pages were stored re-encoded to UTF-8 while their <meta> still names
	// the original charset (often ISO-8859-1). The CleanEval wrapper's
	// encoding attribute stays in HTML, where the cleaner reads it.
	Charset string
	// Lang is the page's language (ISO 639-1, "zh") when the data set
	// records it: the language column of a Dragnet-layout set's meta.tsv
	// (xmu-news-zh, cwce-zh). Empty when unknown.
	Lang string
	// HTML is the page as stored (gunzipped for wcxb).
	HTML []byte
	// Gold is the gold standard.
	Gold Gold
}

// Gold is the gold standard of a page. Text and Raw are set for every
// format; the other fields only where the format has them.
type Gold struct {
	// Text is the main content as plain text: segments separated by blank
	// lines, white space (and control characters) within a segment
	// collapsed to one space, U+FEFF dropped. Empty when the page has no
	// main content. Character references are decoded where the gold is
	// markup (CleanEval, whose gold keeps "&#8217;" from the page source,
	// L3S, Readability); plain-text gold (Dragnet, WCXB) is taken
	// literally.
	//   cleaneval:   the <p>/<h>/<l> segments' texts (the Segments);
	//   dragnet:     the non-blank lines before the comments marker;
	//   l3s:         the visible blocks of classes 1 (headline) and 2 (full
	//                text), SpanText(1, 2); SpanText(1, 2, 3) adds the
	//                supplemental text that some studies count;
	//   wcxb:        the non-blank lines of ground_truth.main_content;
	//   readability: the text of the block elements of the expected HTML
	//                (the Segments);
	//   annotated:   the segments that the annotation's [h], [p], [l] and
	//                [c] blocks make (AnnotationSegments).
	Text string
	// Raw is the gold file decoded to UTF-8 as it is (byte order mark
	// dropped, line ends kept): the CleanEval text with its URL: line and
	// tags, the Dragnet text with its comments, the L3S annotated HTML,
	// the WCXB main_content, the Readability HTML fragment, the annotation.
	Raw string
	// Segments are the labelled segments in order, where the gold labels
	// them: CleanEval's <h> (Heading), <p> (Paragraph) and <l> (ListItem),
	// Readability's headings, list items and other blocks, and the
	// segments of an annotation. Text is their texts joined by blank
	// lines. Nil for other formats.
	Segments []Segment
	// Annotation is, for an annotated set, the annotation's blocks: one
	// per text block of the page, with the label a person gave it
	// (label.ApplyAnnotation maps them onto the segmented page). Nil for
	// other formats.
	Annotation []AnnotatedBlock
	// Spans are the L3S-GN1 annotated text in document order; nil for
	// other formats.
	Spans []Span
	// With and Without are the WCXB snippets that a correct extraction
	// must, and must not, contain.
	With, Without []string
	// Title, Author and Date are the WCXB metadata (ground_truth title,
	// author, publish_date), empty when absent or null.
	Title, Author, Date string
	// PageType is the WCXB page type (_internal.page_type.primary):
	// article, service, product, collection, forum, listing or
	// documentation.
	PageType string
	// Markdown is the WCXB ground_truth.main_content_markdown, when present.
	Markdown string
	// Comments is the Dragnet user-comment text (after the
	// "!@#$%^&*()  COMMENTS" line), laid out like Text and kept out of it.
	Comments string
}

// Segment is one labelled segment of a gold standard: Label is
// page.Heading, page.Paragraph or page.ListItem.
type Segment struct {
	Label page.Label
	Text  string
}

// The L3S-GN1 span classes, the N of class="x-nc-selN".
const (
	ClassBoilerplate  = 0 // not content (also text outside every annotated span)
	ClassHeadline     = 1
	ClassFullText     = 2
	ClassSupplemental = 3 // belongs to the article but is not full text, such as image captions
	ClassRelated      = 4 // links to related content
	ClassComments     = 5 // user comments
)

// Span is one run of L3S-GN1 annotated text: the text of one
// <span class="x-nc-selN"> (the innermost one when they nest) within one
// text block.
type Span struct {
	// Class is the annotation class, ClassBoilerplate to ClassComments.
	Class int
	// Text is the span's text, white space collapsed.
	Text string
	// Hidden reports whether the span lies in an element marked
	// x-nc-invisible (text the reader does not see).
	Hidden bool
	// Block numbers the text blocks (paragraphs, separated by block-level
	// elements and <br>) from 0 in document order; spans of one block
	// share it.
	Block int
	// Glued reports that no white space separates the span from the
	// previous span of its block, as in "<a>Obama</a>'s".
	Glued bool
}

// SpanText returns the text of the L3S spans of the given classes that
// are not hidden, laid out like Text: the spans of one block joined with a
// space (none where Glued), blocks separated by blank lines.
// Gold.Text is SpanText(ClassHeadline, ClassFullText).
func (g *Gold) SpanText(classes ...int) string {
	var paras []string
	var cur strings.Builder
	block, prev := -1, -2
	for i, s := range g.Spans {
		if s.Hidden || s.Text == "" || !slices.Contains(classes, s.Class) {
			continue
		}
		if s.Block != block {
			if cur.Len() > 0 {
				paras = append(paras, cur.String())
				cur.Reset()
			}
			block = s.Block
		} else if !(s.Glued && prev == i-1) {
			cur.WriteByte(' ')
		}
		cur.WriteString(s.Text)
		prev = i
	}
	if cur.Len() > 0 {
		paras = append(paras, cur.String())
	}
	return joinParagraphs(paras)
}

// Set is one data set folder. It is read-only after Open, so its methods
// may be called from several goroutines at once.
type Set struct {
	// Name is the set's name, the base name of Dir.
	Name string
	// Dir is the set's folder.
	Dir string
	// Kind is its layout and gold format; Kind.Spec describes it.
	Kind Kind

	spec KindSpec
	read GoldReader
	ids  []string // page stems in natural order
}

// PageError is the error for one page that could not be read. Iteration
// over the set goes on after it.
type PageError struct {
	Set, ID string
	// Path is the file at fault.
	Path string
	Err  error
}

func (e *PageError) Error() string {
	return fmt.Sprintf("dataset %s: page %s: %s: %v", e.Set, e.ID, e.Path, e.Err)
}

func (e *PageError) Unwrap() error { return e.Err }

// EnvData is the environment variable that, when set, names the data root
// instead of ../shared/data.
const EnvData = "SLUICE_DATA"

// Root returns the folder holding the data sets: $SLUICE_DATA when set,
// otherwise ../shared/data relative to the module root, found by walking
// up from the working directory to the nearest go.mod. It fails when
// neither gives a directory that exists, which callers such as tests take
// as "no data here".
func Root() (string, error) {
	if d := os.Getenv(EnvData); d != "" {
		if !isDir(d) {
			return "", fmt.Errorf("dataset: $%s=%s is not a directory", EnvData, d)
		}
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("dataset: %w", err)
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			root := filepath.Join(dir, "..", "shared", "data")
			if !isDir(root) {
				return "", fmt.Errorf("dataset: no data folder %s (set $%s to use another)", root, EnvData)
			}
			return root, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("dataset: no go.mod above %s to find ../shared/data from (set $%s)", wd, EnvData)
		}
		dir = parent
	}
}

// Sets returns the names of the data sets under Root whose layout Open
// recognises, sorted.
func Sets() ([]string, error) {
	root, err := Root()
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := detectKind(filepath.Join(root, e.Name())); err == nil {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// Open opens a data set: a bare name such as "cleaneval-dev" is a folder
// under Root; anything with a path separator (or ".", "..") is a
// directory path. The kind is recognised from the folder's layout; the
// error for an unknown layout names the folder and the layouts expected.
func Open(nameOrDir string) (*Set, error) {
	dir := nameOrDir
	if !strings.ContainsRune(nameOrDir, '/') && !strings.ContainsRune(nameOrDir, filepath.Separator) &&
		nameOrDir != "." && nameOrDir != ".." {
		// A set of the data folder, else a folder of that name here.
		root, err := Root()
		switch {
		case err == nil && isDir(filepath.Join(root, nameOrDir)):
			dir = filepath.Join(root, nameOrDir)
		case isDir(nameOrDir):
		case err != nil:
			return nil, err
		default:
			dir = filepath.Join(root, nameOrDir)
		}
	}
	if !isDir(dir) {
		return nil, fmt.Errorf("dataset: %s is not a directory", dir)
	}
	spec, err := detectKind(dir)
	if err != nil {
		return nil, err
	}
	s := &Set{Name: filepath.Base(filepath.Clean(dir)), Dir: dir, Kind: spec.Kind(), spec: spec}
	if s.Name == "." || s.Name == ".." || s.Name == string(filepath.Separator) {
		if abs, err := filepath.Abs(dir); err == nil {
			s.Name = filepath.Base(abs)
		}
	}
	l := spec.Layout()
	a, err := stems(filepath.Join(dir, l.HTMLDir), l.HTMLExt)
	if err != nil {
		return nil, err
	}
	b, err := stems(filepath.Join(dir, l.GoldDir), l.GoldExt)
	if err != nil {
		return nil, err
	}
	// The union, so that a page missing one of its files is reported as an
	// error rather than silently left out.
	ids := append(a, b...)
	slices.SortFunc(ids, compareIDs)
	s.ids = slices.Compact(ids)
	if s.read, err = spec.Open(dir); err != nil {
		return nil, err
	}
	return s, nil
}

// Len returns the number of pages in the set.
func (s *Set) Len() int { return len(s.ids) }

// IDs returns the page ids in the order Pages yields them.
func (s *Set) IDs() []string { return slices.Clone(s.ids) }

// Pages yields the pages in natural order of their ids. A page that cannot
// be read (a missing or broken file) yields a nil page and a *PageError
// naming the file, and iteration continues with the next page. Each page
// is read when it is reached, so memory stays at one page.
func (s *Set) Pages() iter.Seq2[*Page, error] {
	return func(yield func(*Page, error) bool) {
		for _, id := range s.ids {
			p, err := s.Page(id)
			if !yield(p, err) {
				return
			}
		}
	}
}

// Page reads the page with the given id. The error for an id the set does
// not have, or for a file that is missing or broken, is a *PageError.
func (s *Set) Page(id string) (*Page, error) {
	if _, ok := slices.BinarySearchFunc(s.ids, id, compareIDs); !ok {
		return nil, &PageError{Set: s.Name, ID: id, Path: s.Dir, Err: errors.New("no such page")}
	}
	p := &Page{Set: s.Name, ID: id}
	htmlPath, goldPath := s.HTMLPath(id), s.GoldPath(id)
	var err error
	if strings.HasSuffix(htmlPath, ".gz") {
		p.HTML, err = readGzip(htmlPath)
	} else {
		p.HTML, err = os.ReadFile(htmlPath)
	}
	if err != nil {
		return nil, &PageError{Set: s.Name, ID: id, Path: htmlPath, Err: unwrapPath(err)}
	}
	goldBytes, err := os.ReadFile(goldPath)
	if err != nil {
		return nil, &PageError{Set: s.Name, ID: id, Path: goldPath, Err: unwrapPath(err)}
	}
	if err := s.read(p, goldBytes); err != nil {
		return nil, &PageError{Set: s.Name, ID: id, Path: goldPath, Err: err}
	}
	if p.Site == "" {
		p.Site = hostOf(p.URL)
	}
	return p, nil
}

// HTMLPath returns the path of the HTML file of the page with the given
// id, as the set's Layout places it.
func (s *Set) HTMLPath(id string) string {
	l := s.layout()
	return filepath.Join(s.Dir, l.HTMLDir, id+l.HTMLExt)
}

// GoldPath returns the path of the gold file of the page with the given
// id, as the set's Layout places it: for an annotated set, its annotation.
func (s *Set) GoldPath(id string) string {
	l := s.layout()
	return filepath.Join(s.Dir, l.GoldDir, id+l.GoldExt)
}

func (s *Set) layout() Layout {
	if s.spec == nil { // a Set not made by Open
		return s.Kind.Spec().Layout()
	}
	return s.spec.Layout()
}

// stems lists the stems of the files in dir whose names end in ext.
func stems(dir, ext string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ext) || len(name) == len(ext) {
			continue
		}
		out = append(out, strings.TrimSuffix(name, ext))
	}
	return out, nil
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, err := f.Read(b)
	if m > 0 {
		err = nil
	}
	return b[:m], err
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// unwrapPath drops the *fs.PathError wrapper, whose path PageError
// already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// hostOf returns the lower-cased host of a URL without a leading "www.",
// or "" when there is none.
func hostOf(u string) string {
	if u == "" {
		return ""
	}
	if !strings.Contains(u, "://") {
		u = "http://" + u
	}
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	h := strings.ToLower(pu.Hostname())
	return strings.TrimPrefix(h, "www.")
}
