package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/sluice-project/sluice/dom"
	"github.com/sluice-project/sluice/htmltree"
	"github.com/sluice-project/sluice/page"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Options configures ingestion. The zero value is not useful; start from
// DefaultOptions.
type Options struct {
	// Drop lists the elements removed with their content before
	// segmentation. "#comment" stands for comments.
	Drop []string
	// DropHidden removes elements with the hidden attribute, aria-hidden
	//="true", or an inline style of display:none or visibility:hidden.
	DropHidden bool
	// DropConsent removes the panels of cookie-consent managers, told by
	// their id and class names (consentPanel), unless one holds a third
	// of the page's text or more.
	DropConsent bool
	// MaxBytes caps the input size; a longer input is cut at the cap (at a
	// tag boundary where possible) and a warning recorded. 0 means no cap.
	MaxBytes int
	// ContentType is the HTTP Content-Type of the input, when known.
	ContentType string
	// DropPattern, when set, removes with their content the div elements
	// whose id, or one of whose class names, it matches (anywhere in the
	// value: "menu" matches id="mainmenu"), as Kitten removes the divs
	// whose id contains "menu" (3.3). Nil drops none.
	DropPattern *regexp.Regexp
	// Inspect, when set, is called with the parsed tree and the page's
	// metadata before precleaning removes scripts, the head and the
	// rest, so that a later stage can read them: sluice passes
	// metadata.ExtractNode. It must not change the tree.
	Inspect func(root dom.Node, m *page.Meta)
	// Parser is the HTML parser: ParserHTML (x/net/html's html.Parse,
	// the default, also for "") or ParserArena (package htmltree).
	Parser string
	// Builder, when set, builds the tree of ParserArena reusing its
	// memory: the tree, and the strings read from it (Meta's), are then
	// valid until it builds again (segment.Segment copies what the page
	// keeps). Nil builds a tree of its own.
	Builder *htmltree.Builder
}

// The parsers of Options.Parser.
const (
	ParserHTML  = "html"
	ParserArena = "arena"
)

// DefaultDrop is the default list of elements removed before segmentation.
var DefaultDrop = []string{
	"script", "style", "noscript", "template", "iframe", "embed",
	"svg", "math", "canvas", "audio", "video", "map",
	"input", "select", "option", "optgroup", "textarea", "button", "datalist",
	"#comment",
}

// DefaultOptions returns the default ingestion options.
func DefaultOptions() Options {
	return Options{
		Drop:        DefaultDrop,
		DropHidden:  true,
		DropConsent: true,
		MaxBytes:    16 << 20,
	}
}

// ErrEmpty is returned for an input with no bytes or only white space.
var ErrEmpty = errors.New("empty input")

// ErrBinary is returned for an input that is not text.
var ErrBinary = errors.New("input is binary, not HTML or text")

// ErrUnparseable is wrapped by the error Parse returns when the HTML parser
// refuses the input even after its nesting was flattened.
var ErrUnparseable = errors.New("parsing HTML")

// maxDepth is the nesting depth beyond which tags are flattened before
// parsing; x/net/html refuses trees with more than 512 open elements.
const maxDepth = 400

// Parse decodes, parses and precleans one page. It fails only for empty and
// binary input; anything else yields a best-effort tree (if the HTML parser
// refuses it even so, the error wraps ErrUnparseable).
func Parse(src []byte, opts Options) (*Document, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, ErrEmpty
	}
	d := &Document{Source: src}
	if opts.MaxBytes > 0 && len(src) > opts.MaxBytes {
		src = cutAt(src, opts.MaxBytes)
		d.Warnings = append(d.Warnings, fmt.Sprintf("input of %d bytes cut to the first %d", len(d.Source), len(src)))
	}
	w, wrapped := FindWrapper(src)
	cs := DetectCharset(src, opts.ContentType, w.Encoding)
	if isBinary(src, cs) {
		return nil, ErrBinary
	}
	d.Text, d.offsets = cs.Decode(src)
	d.Meta.Encoding, d.Meta.EncodingSource = cs.Name, cs.Source

	body := d.Text
	base := 0
	if wrapped || cs.Source == "bom" || strings.HasPrefix(cs.Name, "utf-16") {
		// The wrapper is ASCII: look for it again in the decoded text,
		// where a byte order mark or UTF-16 no longer hides it.
		if tw, ok := FindWrapper(d.Text); ok {
			d.Meta.URL, d.Meta.Title = tw.URL, tw.Title
			base = tw.Open[1]
			end := len(d.Text)
			if tw.Close[1] > 0 {
				end = tw.Close[0]
			}
			body = d.Text[base:end]
		}
	}

	body, fixes := repairUnclosed(body)
	for _, f := range fixes {
		d.Warnings = append(d.Warnings, f.warning(func(off int) int { return d.Original(base + off) }))
	}
	root, err := d.parse(body, opts.Parser, opts.Builder)
	if err != nil {
		return nil, err
	}
	title, desc, ogType := headMeta(root)
	if d.Meta.Title == "" {
		d.Meta.Title = title
	}
	d.Meta.Description = desc
	d.Meta.Types = declaredTypes(body)
	if t := typeName([]byte(ogType)); len(t) > 0 && len(d.Meta.Types) < maxTypes {
		d.Meta.Types = append(d.Meta.Types, "og:"+strings.ToLower(string(t)))
	}
	d.Meta.Lang = rootLang(root)
	if opts.Inspect != nil {
		opts.Inspect(root, &d.Meta)
	}
	if !preclean(root, opts) {
		// Markup in <noframes> or <noembed>, which only html.Parse
		// parses as a fragment: the old path cleans the page.
		opts.Parser = ParserHTML
		return Parse(src, opts)
	}
	d.TextSpans = locateText(root, body, base)
	return d, nil
}

// parse parses body with the parser named, setting d.Root or d.Tree.
func (d *Document) parse(body []byte, parser string, b *htmltree.Builder) (dom.Node, error) {
	if parser == ParserArena {
		if b == nil {
			b = new(htmltree.Builder)
		}
		d.Tree = b.Build(body)
		d.Warnings = append(d.Warnings, d.Tree.Warnings...)
		return d.Node(), nil
	}
	root, err := parseHTML(body)
	if err != nil {
		// Too deep: flatten the excess and try again, lower each time.
		for depth := maxDepth; err != nil && depth >= 32; depth /= 2 {
			root, err = parseHTML(flatten(body, depth))
		}
		if err != nil {
			return dom.Node{}, fmt.Errorf("%w: %w", ErrUnparseable, err)
		}
		d.Warnings = append(d.Warnings, "nesting deeper than the parser allows was flattened")
	}
	d.Root = root
	return d.Node(), nil
}

// parseHTML parses with scripting disabled, so that the content of
// <noscript> is parsed as markup (preclean decides whether to keep it).
func parseHTML(b []byte) (*html.Node, error) {
	return html.ParseWithOptions(bytes.NewReader(b), html.ParseOptionEnableScripting(false))
}

// cutAt cuts b to at most n bytes, preferring to end just before a '<'.
func cutAt(b []byte, n int) []byte {
	if k := bytes.LastIndexByte(b[:n], '<'); k > n-4096 && k > 0 {
		return b[:k]
	}
	return b[:n]
}

// binaryMagic are the signatures of binary formats common in crawls
// (images, PDF, archives, compressed streams, executables, office files),
// some of which can read as text for their first KB (a JPEG's XMP
// metadata, a PDF's first objects).
var binaryMagic = []string{
	"\x89PNG\r\n\x1a\n", "GIF87a", "GIF89a", "\xff\xd8\xff", "%PDF-", "PK\x03\x04", "PK\x05\x06",
	"\x1f\x8b", "\xfd7zXZ\x00", "7z\xbc\xaf\x27\x1c", "\x28\xb5\x2f\xfd", "Rar!\x1a\x07", "\x7fELF",
	"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
}

// isBinary reports whether b looks like a binary file: it opens with the
// signature of a binary format, or, unless the charset is UTF-16, more than
// one byte in sixteen of its first 4 KB is a control character (white space
// and the escape of ISO-2022 encodings are not; a run of NULs, such as the
// zero padding of a damaged download, counts once). Text with stray NUL
// bytes is text: the HTML parser drops them. Random bytes (compressed data)
// have about one control in ten.
func isBinary(b []byte, cs Charset) bool {
	for _, m := range binaryMagic {
		if bytes.HasPrefix(b, []byte(m)) {
			return true
		}
	}
	if strings.HasPrefix(cs.Name, "utf-16") {
		return false
	}
	n := min(len(b), 4096)
	ctl := 0
	for i, c := range b[:n] {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\v' && c != '\f' && c != '\r' && c != 0x1b &&
			(c != 0 || i == 0 || b[i-1] != 0) {
			ctl++
		}
	}
	return ctl*16 > n
}

// flatten blanks the start and end tags nested deeper than depth, replacing
// them with spaces so that byte offsets stay as they are. Depth is counted
// on the token stream (void elements do not nest), which overestimates the
// parser's stack and so stays on the safe side.
func flatten(b []byte, depth int) []byte {
	out := bytes.Clone(b)
	z := html.NewTokenizer(bytes.NewReader(b))
	pos, level := 0, 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		n := len(z.Raw())
		switch tt {
		case html.StartTagToken:
			name, _ := z.TagName()
			if !VoidElement(atom.Lookup(name)) {
				level++
				if level > depth {
					blank(out[pos : pos+n])
				}
			}
		case html.EndTagToken:
			if level > depth {
				blank(out[pos : pos+n])
			}
			if level > 0 {
				level--
			}
		}
		pos += n
	}
}

func blank(b []byte) {
	for i := range b {
		b[i] = ' '
	}
}

// VoidElement reports whether an element has no end tag (br, img, ...).
func VoidElement(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img,
		atom.Input, atom.Link, atom.Meta, atom.Source, atom.Track, atom.Wbr,
		atom.Param, atom.Keygen:
		return true
	}
	return false
}

// headMeta returns the text of the first <title> element, the page's
// description (<meta name="description">, else og:description or
// twitter:description) and its og:type, looking outside <body> only.
func headMeta(doc dom.Node) (title, desc, ogType string) {
	var other string
	var walk func(dom.Node)
	walk = func(n dom.Node) {
		for c := n.FirstChild(); !c.Nil(); c = c.NextSibling() {
			if c.Type() != html.ElementNode {
				continue
			}
			switch c.Atom() {
			case atom.Body, atom.Frameset:
				continue
			case atom.Title:
				if title == "" {
					var sb strings.Builder
					for t := c.FirstChild(); !t.Nil(); t = t.NextSibling() {
						if t.Type() == html.TextNode {
							sb.WriteString(t.Data())
						}
					}
					title = strings.Join(strings.Fields(sb.String()), " ")
				}
			case atom.Meta:
				var name, content string
				for i := range c.NumAttr() {
					switch k, v, _ := c.AttrAt(i); k {
					case "name", "property":
						name = strings.ToLower(v)
					case "content":
						content = v
					}
				}
				content = strings.Join(strings.Fields(content), " ")
				switch name {
				case "description":
					if desc == "" {
						desc = content
					}
				case "og:description", "twitter:description":
					if other == "" {
						other = content
					}
				case "og:type":
					if ogType == "" {
						ogType = content
					}
				}
			}
			walk(c)
		}
	}
	walk(doc)
	if desc == "" {
		desc = other
	}
	return title, desc, ogType
}

func rootLang(doc dom.Node) string {
	for c := doc.FirstChild(); !c.Nil(); c = c.NextSibling() {
		if c.Type() == html.ElementNode && c.Atom() == atom.Html {
			return strings.TrimSpace(c.Attr("lang"))
		}
	}
	return ""
}
