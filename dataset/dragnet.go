package dataset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Dragnet is the kind of html/N.html with plain-text gold/N.txt, the user
// comments (where kept) after a "!@#$%^&*()  COMMENTS" line: dragnet-train,
// and the Chinese sets xmu-news-zh and cwce-zh.
const Dragnet Kind = "dragnet"

// dragnetKind is the Dragnet kind, the plainest: text gold, measured with
// bag-of-words F1 (the token F1 of the Dragnet paper).
type dragnetKind struct{}

func (dragnetKind) Kind() Kind                 { return Dragnet }
func (dragnetKind) Layout() Layout             { return Layout{"html", ".html", "gold", ".txt"} }
func (dragnetKind) MainMetric() string         { return "bow" }
func (dragnetKind) DefaultStyle(string) string { return "main" }
func (dragnetKind) Alignment() Alignment       { return AlignText }
func (dragnetKind) Annotated() bool            { return false }

// Detect reports whether gold/ holds .txt files. It comes after
// cleanEvalKind, whose gold files are .txt too.
func (dragnetKind) Detect(dir string) bool {
	txt, _ := stems(filepath.Join(dir, "gold"), ".txt")
	return len(txt) > 0
}

// Open reads the language, site and address of the pages from meta.tsv,
// where the set has one (a tab-separated table whose header names an "id"
// column and any of "language", "site" and "url", as the Chinese sets
// have): the site groups the pages in cross-validation folds.
func (dragnetKind) Open(dir string) (GoldReader, error) {
	meta, err := readMeta(filepath.Join(dir, "meta.tsv"))
	if err != nil {
		return nil, err
	}
	return func(p *Page, gold []byte) error {
		readDragnet(p, gold)
		m := meta[p.ID]
		p.Lang, p.URL = m.lang, m.url
		if m.site != "" {
			p.Site = m.site
		}
		return nil
	}, nil
}

// metaRow is what meta.tsv says of a page.
type metaRow struct{ lang, site, url string }

// readMeta returns the language, site and url columns of a meta.tsv by
// id: nil when the file is missing or has no id column.
func readMeta(path string) (map[string]metaRow, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	header := strings.Split(lines[0], "\t")
	id := slices.Index(header, "id")
	if id < 0 {
		return nil, nil
	}
	cols := [3]int{slices.Index(header, "language"), slices.Index(header, "site"), slices.Index(header, "url")}
	out := map[string]metaRow{}
	for n, line := range lines[1:] {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) <= max(id, cols[0], cols[1], cols[2]) {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", path, n+2, len(f), len(header))
		}
		var v [3]string
		for k, c := range cols {
			if c >= 0 {
				v[k] = f[c]
			}
		}
		out[f[id]] = metaRow{lang: v[0], site: v[1], url: v[2]}
	}
	return out, nil
}

// dragnetMarker finds the line that separates the Dragnet main content
// from the user comments and returns its byte span in s. The intended
// marker is "!@#$%^&*()  COMMENTS", but the gold files were typed by hand
// and carry variants: "!@ $%^&*()  COMMENTS", "!@#$%^&*   COMMENTS", a tab
// or one space before the word, doubled characters, the word misspelt
// ("COMMNENTS", "CORRECTED") or missing. So the marker is a line made of a
// run of those punctuation characters and blanks, holding at least six
// different ones (a "*****" rule is not a marker), optionally followed by
// one word of letters.
func dragnetMarker(s string) (start, end int, ok bool) {
	for pos := 0; pos < len(s); {
		line := s[pos:]
		next := len(s)
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], pos+i+1
		}
		if isDragnetMarker(line) {
			return pos, pos + len(line), true
		}
		pos = next
	}
	return 0, 0, false
}

func isDragnetMarker(line string) bool {
	line = strings.TrimSpace(line)
	run := strings.TrimRight(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	var seen [10]bool
	distinct := 0
	for i := 0; i < len(run); i++ {
		c := run[i]
		if c == ' ' || c == '\t' {
			continue
		}
		k := strings.IndexByte("!@#$%^&*()", c)
		if k < 0 {
			return false
		}
		if !seen[k] {
			seen[k] = true
			distinct++
		}
	}
	return distinct >= 6
}

// readDragnet fills p's gold from a Dragnet gold file: plain text, one
// block per line, blank lines between some of them, the user comments (if
// kept) after the marker line. The files are UTF-8, windows-1252 (26 of
// dragnet-train) or UTF-16LE with a byte order mark (4 of them), with LF
// or CRLF line ends. Every non-blank line becomes one paragraph of Text
// (and of Comments).
func readDragnet(p *Page, gold []byte) {
	p.Gold.Raw = decodeText(gold)
	main, comments := p.Gold.Raw, ""
	if start, end, ok := dragnetMarker(main); ok {
		main, comments = main[:start], main[end:]
	}
	p.Gold.Text = joinParagraphs(lineParagraphs(strings.ReplaceAll(main, "\r", "\n")))
	p.Gold.Comments = joinParagraphs(lineParagraphs(strings.ReplaceAll(comments, "\r", "\n")))
}
