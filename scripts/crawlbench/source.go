package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/textunit"
)

// maxBodyBytes leaves out the shared pages whose body (scripts and styles
// dropped) is larger: a few huge listings would dominate the crawl's size.
const maxBodyBytes = 512 << 10

// piece is a stretch of a page's body: markup kept as it is, or text
// (unescaped), which the generator changes.
type piece struct {
	text bool
	s    string
}

// source is a shared page reduced to what the generator uses: its title,
// its body as pieces, and the words and characters of its text, from
// which substitutions are drawn.
type source struct {
	name   string // set/id
	zh     bool   // Chinese: the page's text is mostly characters
	title  string
	body   []piece
	words  []string // Word units of the text, repeated as they occur
	chars  []string // Char units (Han...)
	units  int      // Word and Char units of the text
	weight float64  // word-equivalents of the text
}

// loadSources reads every page of the named shared sets (all of them when
// names is empty) and keeps those with a body of text.
func loadSources(names []string, limit int) ([]*source, error) {
	if len(names) == 0 {
		all, err := dataset.Sets()
		if err != nil {
			return nil, err
		}
		names = all
	}
	var out []*source
	for _, name := range names {
		set, err := dataset.Open(name)
		if err != nil {
			return nil, err
		}
		n := 0
		for p, err := range set.Pages() {
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if s := newSource(p); s != nil {
				out = append(out, s)
				n++
			}
			if limit > 0 && n >= limit {
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no usable page in the sets %v", names)
	}
	return out, nil
}

// newSource decodes p to UTF-8 and keeps its title and body, without
// scripts, styles and comments; nil for a page without text or too large.
func newSource(p *dataset.Page) *source {
	text, _ := ingest.DetectCharset(p.HTML, contentTypeOf(p.Charset), "").Decode(p.HTML)
	s := &source{name: p.Set + "/" + p.ID}
	if !s.readBody(text) {
		return nil
	}
	size := 0
	for _, pc := range s.body {
		size += len(pc.s)
		if !pc.text {
			continue
		}
		textunit.Units(pc.s, func(u textunit.Unit) bool {
			switch u.Kind {
			case textunit.Word:
				s.words = append(s.words, u.Text)
			case textunit.Char:
				s.chars = append(s.chars, u.Text)
			}
			return true
		})
		s.weight += textunit.WordEquivalents(pc.s)
	}
	s.units = len(s.words) + len(s.chars)
	s.zh = len(s.chars) > len(s.words)
	if size > maxBodyBytes || s.units < 20 {
		return nil
	}
	return s
}

func contentTypeOf(charset string) string {
	if charset == "" {
		return ""
	}
	return "text/html; charset=" + charset
}

// readBody tokenizes the page: the title's text, and the tokens inside
// body (everything after the head when the page has no body tag), scripts,
// styles, noscript, templates and comments left out. It reports whether
// the body holds any text.
func (s *source) readBody(page []byte) bool {
	z := html.NewTokenizer(bytes.NewReader(page))
	inBody, inTitle, skip, sawText := false, false, atom.Atom(0), false
	var title strings.Builder
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				return false
			}
			break
		}
		tok := z.Token()
		if skip != 0 {
			if tt == html.EndTagToken && tok.DataAtom == skip {
				skip = 0
			}
			continue
		}
		switch tt {
		case html.StartTagToken:
			switch tok.DataAtom {
			case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Iframe, atom.Svg:
				skip = tok.DataAtom
				continue
			case atom.Title:
				inTitle = true
			case atom.Body:
				inBody = true
				continue
			case atom.Html, atom.Head, atom.Meta, atom.Link, atom.Base:
				continue
			default:
				if tok.Data == "text" { // the CleanEval wrapper
					continue
				}
				inBody = true
			}
		case html.EndTagToken:
			switch tok.DataAtom {
			case atom.Title:
				inTitle = false
			case atom.Head:
				inBody = true
				continue
			case atom.Body, atom.Html:
				continue
			default:
				if tok.Data == "text" {
					continue
				}
			}
		case html.TextToken:
			if inTitle {
				title.WriteString(tok.Data)
				continue
			}
		case html.CommentToken, html.DoctypeToken:
			continue
		}
		if !inBody || inTitle || tok.DataAtom == atom.Title {
			continue
		}
		if tt == html.TextToken {
			s.body = append(s.body, piece{text: true, s: tok.Data})
			sawText = sawText || strings.TrimSpace(tok.Data) != ""
		} else {
			s.body = append(s.body, piece{s: tok.String()})
		}
	}
	s.title = strings.Join(strings.Fields(title.String()), " ")
	return sawText
}
