package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/structure"
)

// millsHTML has what the xml and tei formats write: headings at two
// levels, links and images, an ordered and an unordered list, a data table
// with a caption and header cells, and preformatted lines.
const millsHTML = `<html><head><title>Mills | Valley News</title></head><body>
<h1>The <a href="/mills">mills</a> of the valley</h1>
<p>Walk from <a href="/mills/upper">the upper mill</a> to the weir, where <img src="/img/wheel.jpg" alt="the wheel"> turns all day &amp; night.</p>
<h2>Getting there</h2>
<ol><li>Take the bus to the bridge.</li><li>Follow the river <a href="javascript:alert(1)">north</a>.</li></ol>
<ul><li>Boots</li><li>A <a href="/maps?a=1&amp;b=2">map</a></li></ul>
<table><caption>Opening hours</caption>
<tr><th>Mill</th><th>Opens</th><th>Closes</th></tr>
<tr><th>Upper</th><td>9:00</td><td>17:00</td></tr>
<tr><th>Lower</th><td>10:00</td><td>16:00</td></tr>
<tr><th>Old</th><td>11:00</td><td>15:00</td></tr></table>
<pre>grind(grain)
  &lt;flour&gt;</pre>
</body></html>`

// millsPage is millsHTML segmented with its links and images, every block
// kept and labelled by structure, with metadata needing escapes.
func millsPage(tb testing.TB) *page.Page {
	tb.Helper()
	doc, err := ingest.Parse([]byte(millsHTML), ingest.DefaultOptions())
	if err != nil {
		tb.Fatal(err)
	}
	opts := segment.DefaultOptions()
	opts.Links, opts.Images = true, true
	p := segment.Segment(doc, opts)
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
	}
	structure.Label(p, structure.Threshold)
	p.Meta = page.Meta{
		URL: "http://example.com/mills?a=1&b=2", Title: "Mills | Valley News", Headline: "Mills",
		Author: "Ann Miller & Bob <Jones>", Published: "2024-03-05", Modified: "March 7, 2024",
		SiteName: "Valley News", Description: `The "mills" of the valley.`, Lang: "en_GB",
		Image: "/img/wheel.jpg", License: "CC BY 4.0", Categories: []string{"Local", "Rivers"},
		Tags: []string{"mills", "water;power"},
	}
	return p
}

// xmlOutputs are the golden files of the xml and tei formats beside
// fish.* and stream.*: the mills page in each table mode and the links
// page.
var xmlOutputs = []struct {
	file, format string
	mode         Tables
	page         func(testing.TB) *page.Page
}{
	{"mills.xml", "xml", TablesDefault, millsPage},
	{"mills.tei", "tei", TablesDefault, millsPage},
	{"mills-linear.xml", "xml", TablesLinear, millsPage},
	{"mills-blocks.tei", "tei", TablesBlocks, millsPage},
	{"links.xml", "xml", TablesDefault, func(testing.TB) *page.Page { return linksPage() }},
	{"links.tei", "tei", TablesDefault, func(testing.TB) *page.Page { return linksPage() }},
}

func TestXMLGolden(t *testing.T) {
	for _, c := range xmlOutputs {
		t.Run(c.file, func(t *testing.T) {
			out := renderString(t, c.format, c.mode, c.page(t))
			golden(t, c.file, []byte(out))
			checkXML(t, c.format, []byte(out))
		})
	}
}

// TestXMLTables checks the table modes: a <table> by default, a <p> per
// row clause in linear mode, a <p> per cell in blocks mode.
func TestXMLTables(t *testing.T) {
	p := millsPage(t)
	for _, f := range []string{"xml", "tei"} {
		grid := renderString(t, f, TablesGrid, p)
		if grid != renderString(t, f, TablesDefault, p) || !strings.Contains(grid, "<table>\n<head>Opening hours</head>\n<row>") {
			t.Errorf("%s grid:\n%s", f, grid)
		}
		linear := renderString(t, f, TablesLinear, p)
		if strings.Contains(linear, "<table") || !strings.Contains(linear, "<p>Opening hours ;; Opens ; Upper: 9:00 / Closes ; Upper: 17:00.</p>") {
			t.Errorf("%s linear:\n%s", f, linear)
		}
		blocks := renderString(t, f, TablesBlocks, p)
		if strings.Contains(blocks, "<table") || !strings.Contains(blocks, "<p>9:00</p>") {
			t.Errorf("%s blocks:\n%s", f, blocks)
		}
	}
}

// TestXMLTableSpans: spans become cols and rows, header cells get their
// role, and a row that a rowspan covers whole is left out and not counted.
func TestXMLTableSpans(t *testing.T) {
	p := keepAll(t, spansPage)
	got := renderString(t, "xml", TablesDefault, p)
	want := `<table>
<head>Tea prices</head>
<row><cell role="head">Tea</cell><cell role="head">Size</cell><cell role="head">Price</cell></row>
<row><cell role="head" rows="2">Green</cell><cell>small</cell><cell>2.00</cell></row>
<row><cell>large</cell><cell>3.50</cell></row>
<row><cell>Black</cell><cell cols="2">sold out | back soon</cell></row>
</table>
`
	if !strings.Contains(got, want) {
		t.Errorf("xml:\n%s\nwant it to hold\n%s", got, want)
	}
	p = keepAll(t, `<html><body><table>
<tr><th>Name</th><th>Size</th><th>Price</th></tr>
<tr><td rowspan=3>Green tea</td><td rowspan=2>small</td><td rowspan=2>2.00</td></tr>
<tr></tr>
<tr><td>large</td><td>3.50</td></tr>
<tr><td>Black tea</td><td>small</td></tr>
</table></body></html>`)
	got = renderString(t, "tei", TablesDefault, p)
	want = `<row><cell role="label">Name</cell><cell role="label">Size</cell><cell role="label">Price</cell></row>
<row><cell rows="2">Green tea</cell><cell>small</cell><cell>2.00</cell></row>
<row><cell>large</cell><cell>3.50</cell></row>
<row><cell>Black tea</cell><cell>small</cell><cell/></row>
</table>`
	if !strings.Contains(got, want) {
		t.Errorf("tei:\n%s\nwant it to hold\n%s", got, want)
	}
	checkXML(t, "tei", []byte(got))
}

// TestXMLParsesBack reads the xml output back: the text of each element
// of <main> is the text of its segment, whatever the escapes.
func TestXMLParsesBack(t *testing.T) {
	p := fishPage()
	p.Blocks[1].Text = "Tab\tand \"quotes\" & <tags> ]]> é"
	var buf bytes.Buffer
	if err := (XML{}).Render(&buf, p); err != nil {
		t.Fatal(err)
	}
	root := parseXML(t, buf.Bytes())
	var got []string
	for _, n := range root.kids[0].kids {
		if n.name == "list" {
			for _, it := range n.kids {
				got = append(got, it.text)
			}
			continue
		}
		got = append(got, n.text)
	}
	var want []string
	segs := Segments(p)
	for k := 0; k < len(segs); k++ {
		s := segs[k].Text
		for segs[k].Pre && k+1 < len(segs) && segs[k+1].Pre {
			k++
			s += "\n" + segs[k].Text
		}
		want = append(want, s)
	}
	if !slices.Equal(got, want) {
		t.Errorf("texts:\n%q\nwant\n%q", got, want)
	}
	if root.attrs["title"] != p.Meta.Title || root.attrs["url"] != p.Meta.URL || root.attrs["hostname"] != "example.com" {
		t.Errorf("attributes: %v", root.attrs)
	}
}

func TestXMLEscape(t *testing.T) {
	cases := []struct{ in, text, attr string }{
		{"plain é 中", "plain é 中", "plain é 中"},
		{`a<b>&"c'`, `a&lt;b&gt;&amp;"c'`, `a&lt;b&gt;&amp;&quot;c'`},
		{"t\tn\nr\r", "t\tn\nr&#13;", "t&#9;n&#10;r&#13;"},
		{"\x00nul\x01\x1f\x7f", "nul\x7f", "nul\x7f"},
		{"bad \xff\xfe utf8 \xed\xa0\x80", "bad \uFFFD\uFFFD utf8 \uFFFD\uFFFD\uFFFD", "bad \uFFFD\uFFFD utf8 \uFFFD\uFFFD\uFFFD"},
		{"non\uFFFEchar\uFFFF \uFFFD", "nonchar \uFFFD", "nonchar \uFFFD"},
		{"]]>", "]]&gt;", "]]&gt;"},
	}
	for _, c := range cases {
		for _, attr := range []bool{false, true} {
			var buf bytes.Buffer
			w := newTestWriter(&buf)
			xmlEscape(w, c.in, attr)
			w.Flush()
			want := c.text
			if attr {
				want = c.attr
			}
			if buf.String() != want {
				t.Errorf("xmlEscape(%q, %v) = %q, want %q", c.in, attr, buf.String(), want)
			}
		}
	}
}

func TestXMLURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/a/b?c=d&e=f", "/a/b?c=d&amp;e=f"},
		{"/a b\tc\nd", "/a%20b%09c%0Ad"},
		{`/"q"<x>`, "/&quot;q&quot;&lt;x&gt;"},
		{"/ü\x7f\xff\uFFFE", "/ü%7F%FF%EF%BF%BE"},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		w := newTestWriter(&buf)
		xmlURL(w, c.in)
		w.Flush()
		if buf.String() != c.want {
			t.Errorf("xmlURL(%q) = %q, want %q", c.in, buf.String(), c.want)
		}
	}
}

func TestTEIHeaderValues(t *testing.T) {
	for in, want := range map[string]string{"en": "en", " en_GB ": "en-GB", "zh-Hant-TW": "zh-Hant-TW", "de-1996": "de-1996",
		"english language": "", "1en": "", "en--gb": "", "x-toolongsubtag": "", "": "", "fr-": ""} {
		if got := langTag(in); got != want {
			t.Errorf("langTag(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]bool{"2024": true, "2024-03": true, "2024-03-05": true, "2024-3-5": false,
		"2024-03-05T10:00": false, "March 2024": false, "": false, "abcd": false} {
		if got := isoDate(in); got != want {
			t.Errorf("isoDate(%q) = %v", in, got)
		}
	}
}

// TestXMLStreams: a stream is one well-formed document, also when empty
// or when a page is empty; one page alone is a document of its own.
func TestXMLStreams(t *testing.T) {
	for _, f := range []string{"xml", "tei"} {
		for _, pages := range [][]*page.Page{nil, {{}}, {fishPage(), {}, millsPage(t), linksPage()}} {
			r, _ := Lookup(f, Options{})
			buf := bytes.NewBuffer(streamBytes(t, r, pages))
			var root *xmlNode
			if len(pages) == 0 {
				root = parseXML(t, buf.Bytes()) // a teiCorpus with no TEI is not valid TEI
			} else {
				root = checkXML(t, f, buf.Bytes())
			}
			if want := map[string]string{"xml": "docs", "tei": "teiCorpus"}[f]; root.name != want {
				t.Errorf("%s stream: root %s, want %s", f, root.name, want)
			}
		}
		var buf bytes.Buffer
		r, _ := Lookup(f, Options{})
		if err := r.Render(&buf, &page.Page{}); err != nil {
			t.Fatal(err)
		}
		checkXML(t, f, buf.Bytes())
		if !strings.HasPrefix(buf.String(), xmlDecl) {
			t.Errorf("%s: no XML declaration: %q", f, buf.String())
		}
	}
}

// TestXMLLint checks the outputs with xmllint, when it is installed.
func TestXMLLint(t *testing.T) {
	lint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed")
	}
	dir := t.TempDir()
	outs := map[string][]byte{}
	for _, c := range xmlOutputs {
		outs[c.file] = []byte(renderString(t, c.format, c.mode, c.page(t)))
	}
	for _, f := range []string{"xml", "tei"} {
		outs["fish."+f] = []byte(renderString(t, f, TablesDefault, fishPage()))
		outs["hostile."+f] = []byte(renderString(t, f, TablesDefault, hostilePage("\x01<&\"]]>\r\n\xff\uFFFE\x00'", "/a b\x01\xff\"<>")))
		for _, n := range []int{0, 2} {
			r, _ := Lookup(f, Options{})
			var buf bytes.Buffer
			s := NewStream(&buf, r)
			for range n {
				s.WritePage(millsPage(t))
			}
			s.Close()
			outs[fmt.Sprintf("stream%d.%s", n, f)] = buf.Bytes()
		}
	}
	for name, data := range outs {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(lint, "--noout", path).CombinedOutput(); err != nil {
			t.Errorf("xmllint %s: %v\n%s", name, err, out)
		}
	}
}

// hostilePage has s in every text and metadata field, and href as the
// address of every link and image.
func hostilePage(s, href string) *page.Page {
	p := &page.Page{
		Nodes: []page.Node{node("body", -1), node("h1", 0), node("ol", 0), node("li", 2), node("pre", 0)},
		Meta: page.Meta{URL: s, Title: s, Headline: s, Author: s, Published: s, Modified: s, SiteName: s,
			Description: s, Lang: s, Canonical: s, Image: s, License: s, Categories: []string{s, s}, Tags: []string{s}},
		Blocks: []page.Block{
			block(s, 1, page.Heading), block(s+" x", 0, page.Paragraph), block(s, 0, page.Continuation),
			block(s, 3, page.ListItem), preBlock(s, 4, page.Paragraph), preBlock(s, 4, page.Continuation),
		},
	}
	for b := range p.Blocks {
		p.Links = append(p.Links, page.Link{Block: int32(b), Text: s, Href: href})
		p.Images = append(p.Images, page.Image{Block: int32(b), After: 1, Src: href, Alt: s, InText: b%2 == 0})
	}
	return p
}

// FuzzXML renders pages whose texts, metadata and addresses are anything
// in the xml and tei formats, alone and in a stream: the output is always
// well-formed XML, and the tei output keeps to the TEI structure.
func FuzzXML(f *testing.F) {
	f.Add("Fish & <chips>", "/a?b=1&c", uint8(0))
	f.Add("\x00\x01\r\n\xff\xfe\uFFFE]]>\"'", "javascript:x", uint8(7))
	f.Add("en_GB", "data:image/png,x y", uint8(130))
	f.Fuzz(func(t *testing.T, s, href string, bits uint8) {
		p := hostilePage(s, href)
		p.Blocks[1].Label = page.Label(1 + bits%3)
		if bits&8 != 0 {
			p.Blocks[0].Label = page.Other
		}
		if bits&16 != 0 {
			p.Links = nil
		}
		for _, f := range []string{"xml", "tei"} {
			r, _ := Lookup(f, Options{})
			var one bytes.Buffer
			if err := r.Render(&one, p); err != nil {
				t.Fatal(err)
			}
			checkXML(t, f, one.Bytes())
			if bits&128 != 0 {
				var buf bytes.Buffer
				st := NewStream(&buf, r)
				st.WritePage(p)
				st.WritePage(p)
				if err := st.Close(); err != nil {
					t.Fatal(err)
				}
				checkXML(t, f, buf.Bytes())
			}
		}
	})
}

// xmlNode is an element of a parsed document: its local name, its
// attributes by local name (xml:lang as "xml:lang"), its child elements
// and the character data directly inside it.
type xmlNode struct {
	name, space string
	attrs       map[string]string
	kids        []*xmlNode
	text        string
}

// parseXML parses a whole document with encoding/xml, which checks the
// nesting, the escapes and the characters, and checks that it has one root
// element and no text outside it.
func parseXML(tb testing.TB, data []byte) *xmlNode {
	tb.Helper()
	root, err := readXML(data)
	if err != nil {
		tb.Fatalf("not well-formed XML: %v\n%s", err, data)
	}
	return root
}

func readXML(data []byte) (*xmlNode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var root *xmlNode
	var stack []*xmlNode
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: tok.Name.Local, space: tok.Name.Space, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				key := a.Name.Local
				if a.Name.Space == "xmlns" || a.Name.Space == "http://www.w3.org/XML/1998/namespace" {
					key = "xml:" + key
				}
				n.attrs[key] = a.Value
			}
			switch {
			case len(stack) > 0:
				top := stack[len(stack)-1]
				top.kids = append(top.kids, n)
			case root != nil:
				return nil, errors.New("a second root element")
			default:
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				if len(bytes.TrimSpace(tok)) > 0 {
					return nil, fmt.Errorf("text outside the root: %q", tok)
				}
				continue
			}
			stack[len(stack)-1].text += string(tok)
		case xml.ProcInst:
			if root != nil || tok.Target != "xml" {
				return nil, fmt.Errorf("processing instruction %s", tok.Target)
			}
		default:
			return nil, fmt.Errorf("unexpected %T", tok)
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, errors.New("no root element, or one left open")
	}
	return root, nil
}

// checkXML parses data, checks the structure of format f (see xmlRules),
// and returns the root.
func checkXML(tb testing.TB, f string, data []byte) *xmlNode {
	tb.Helper()
	root := parseXML(tb, data)
	rules, ns := xmlRules, ""
	if f == "tei" {
		rules, ns = teiRules, teiNS
	}
	if _, ok := rules[root.name]; !ok || !slices.Contains([]string{"doc", "docs", "TEI", "teiCorpus"}, root.name) {
		tb.Fatalf("%s: root element %s", f, root.name)
	}
	var check func(n *xmlNode)
	check = func(n *xmlNode) {
		if n.space != ns {
			tb.Errorf("%s: element %s in namespace %q", f, n.name, n.space)
		}
		r, ok := rules[n.name]
		if !ok {
			tb.Errorf("%s: unexpected element %s", f, n.name)
			return
		}
		if err := r.check(n); err != nil {
			tb.Errorf("%s: %v\n%s", f, err, data)
		}
		for _, k := range n.kids {
			check(k)
		}
	}
	check(root)
	return root
}

// xmlRule is the content model of an element, as far as the formats use
// it: the children it may hold in this order (a name may repeat when "*"
// follows it, else it comes at most once), then any number of the
// children after, in any order; the children it must hold, whether it
// may hold text, and the attributes it must have.
type xmlRule struct {
	kids  string // "a b* c": the order
	after []string
	need  []string
	text  bool
	attrs []string
}

func (r xmlRule) check(n *xmlNode) error {
	if !r.text && strings.TrimSpace(n.text) != "" {
		return fmt.Errorf("text %q directly in <%s>", n.text, n.name)
	}
	for _, a := range r.attrs {
		if _, ok := n.attrs[a]; !ok {
			return fmt.Errorf("<%s> without its %s attribute", n.name, a)
		}
	}
	for _, k := range r.need {
		if !slices.ContainsFunc(n.kids, func(c *xmlNode) bool { return c.name == k }) {
			return fmt.Errorf("<%s> without a <%s>", n.name, k)
		}
	}
	order := strings.Fields(r.kids)
	at, count, free := 0, 0, false
	for _, k := range n.kids {
		if !free {
			for at < len(order) && strings.TrimSuffix(order[at], "*") != k.name {
				at, count = at+1, 0
			}
			free = at == len(order)
		}
		if free {
			if !slices.Contains(r.after, k.name) {
				return fmt.Errorf("<%s> in <%s> out of order or not allowed (%s, then %v)", k.name, n.name, r.kids, r.after)
			}
			continue
		}
		if count++; count > 1 && !strings.HasSuffix(order[at], "*") {
			return fmt.Errorf("more than one <%s> in <%s>", k.name, n.name)
		}
	}
	return nil
}

// xmlRules is the shape of the xml format.
var xmlRules = map[string]xmlRule{
	"docs": {kids: "doc*"},
	"doc":  {kids: "main", need: []string{"main"}},
	"main": {after: []string{"head", "p", "list", "code", "table"}},
	"head": xmlPhrase, "p": xmlPhrase, "item": xmlPhrase, "cell": xmlPhrase,
	"ref":     {after: []string{"graphic"}, text: true},
	"list":    {kids: "item*", need: []string{"item"}, attrs: []string{"rend"}},
	"code":    {text: true},
	"table":   {kids: "head row*", need: []string{"row"}},
	"row":     {kids: "cell*", need: []string{"cell"}},
	"graphic": {attrs: []string{"src", "alt"}},
}

// xmlPhrase is what a <p>, <head>, <item> or <cell> holds.
var xmlPhrase = xmlRule{after: []string{"ref", "graphic"}, text: true}

// teiRules is the TEI P5 content model of the elements the tei format
// writes, narrowed to how it uses them (from the specifications of each
// in the P5 guidelines: teiCorpus, fileDesc, publicationStmt, div,
// table...). A <head> comes only at the start of a division.
var teiRules = map[string]xmlRule{
	"teiCorpus":       {kids: "teiHeader TEI*", need: []string{"teiHeader", "TEI"}},
	"TEI":             {kids: "teiHeader text", need: []string{"teiHeader", "text"}},
	"teiHeader":       {kids: "fileDesc profileDesc", need: []string{"fileDesc"}},
	"fileDesc":        {kids: "titleStmt publicationStmt sourceDesc", need: []string{"titleStmt", "publicationStmt", "sourceDesc"}},
	"titleStmt":       {kids: "title author", need: []string{"title"}},
	"publicationStmt": {kids: "publisher availability p*"},
	"availability":    {kids: "p", need: []string{"p"}},
	"sourceDesc":      {kids: "bibl p"},
	"bibl":            {kids: "title author publisher date* ptr", text: true},
	"ptr":             {attrs: []string{"type", "target"}},
	"date":            {text: true, attrs: []string{"type"}},
	"title":           {text: true},
	"author":          {text: true},
	"publisher":       {text: true},
	"profileDesc":     {kids: "abstract langUsage textClass"},
	"abstract":        {kids: "p", need: []string{"p"}},
	"langUsage":       {kids: "language", need: []string{"language"}},
	"language":        {attrs: []string{"ident"}},
	"textClass":       {kids: "keywords", need: []string{"keywords"}},
	"keywords":        {kids: "term*", need: []string{"term"}},
	"term":            {text: true, attrs: []string{"type"}},
	"text":            {kids: "body", need: []string{"body"}},
	"body":            {kids: "div*", need: []string{"div"}},
	"div":             {kids: "head*", after: []string{"p", "list", "table", "ab"}},
	"head":            teiPhrase, "p": teiPhrase, "item": teiPhrase, "cell": teiPhrase,
	"ref":     {after: []string{"graphic"}, text: true},
	"list":    {kids: "item*", need: []string{"item"}},
	"ab":      {kids: "code", need: []string{"code"}, attrs: []string{"type"}},
	"code":    {text: true},
	"table":   {kids: "head row*", need: []string{"row"}},
	"row":     {kids: "cell*", need: []string{"cell"}},
	"graphic": {kids: "desc", attrs: []string{"url"}},
	"desc":    {text: true},
}

// teiPhrase is what a <p>, <head>, <item> or <cell> holds.
var teiPhrase = xmlRule{after: []string{"ref", "graphic"}, text: true}
