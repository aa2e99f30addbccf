package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func bodyText(d *Document) string {
	var sb strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				sb.WriteString(c.Data + " ")
			}
			walk(c)
		}
	}
	walk(ContentRoot(d.Root))
	return strings.Join(strings.Fields(sb.String()), " ")
}

func mustParse(t *testing.T, src string) *Document {
	t.Helper()
	d, err := Parse([]byte(src), DefaultOptions())
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}

func TestParseErrors(t *testing.T) {
	for name, src := range map[string][]byte{
		"empty":      nil,
		"blank":      []byte(" \n\t "),
		"binary":     {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R'},
		"elf":        append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 64)...),
		"control":    bytes.Repeat([]byte{1, 2, 3, 'a'}, 100),
		"zip-header": []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"),
		// Signatures of files whose first KB reads as text.
		"pdf":  []byte("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"),
		"jpeg": []byte("\xff\xd8\xff\xe1\x10\x00http://ns.adobe.com/xap/1.0/<x:xmpmeta><p>photo</p></x:xmpmeta>"),
		// Compressed data without a signature: about one byte in ten is a
		// control character.
		"random": randomBytes(4096),
		"gzip":   gzipped(strings.Repeat("<p>a page</p>", 100)),
	} {
		_, err := Parse(src, DefaultOptions())
		want := ErrBinary
		if name == "empty" || name == "blank" {
			want = ErrEmpty
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: err = %v, want %v", name, err, want)
		}
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func gzipped(s string) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(s))
	w.Close()
	return buf.Bytes()
}

// A NUL byte or a few in the first KB used to reject the page as binary.
func TestStrayNULIsText(t *testing.T) {
	for _, src := range []string{
		"<html><head><title>T\x00itle</title></head><body><p>The article\x00 text.</p></body></html>",
		"\x00<html><body><p>The article text.</p>" + strings.Repeat("<p>More\x00 text.</p>", 4),
		// Zero padding where a download was damaged.
		"<p>The article text.</p>" + strings.Repeat("\x00", 2000) + "<p>Cut short.</p>",
	} {
		d := mustParse(t, src)
		got := bodyText(d)
		if !strings.Contains(got, "The article text.") || strings.ContainsAny(got, "\x00") {
			t.Errorf("Parse(%.40q): body text = %q", src, got)
		}
		for _, sp := range d.TextSpans {
			if sp.Start < 0 || sp.End < sp.Start || sp.End > len(d.Text) {
				t.Errorf("Parse(%.40q): span %v outside the text", src, sp)
			}
		}
	}
}

// UTF-16 without BOM or declaration is read as such, not rejected as
// binary for its NUL bytes.
func TestUTF16WithoutBOM(t *testing.T) {
	const page = "<html><body><p>Привет, the article text.</p></body></html>"
	for _, tc := range []struct {
		b    []byte
		want string
	}{{utf16LE(page), "utf-16le"}, {utf16BE(page), "utf-16be"}} {
		d, err := Parse(tc.b, DefaultOptions())
		if err != nil {
			t.Fatalf("%s: %v", tc.want, err)
		}
		if got := bodyText(d); d.Meta.Encoding != tc.want || got != "Привет, the article text." {
			t.Errorf("%s: encoding %s, body text %q", tc.want, d.Meta.Encoding, got)
		}
	}
}

func TestPrecleanDropsNonContent(t *testing.T) {
	d := mustParse(t, `<html><head><style>x{}</style></head><body>
<script>var a = "<p>not text</p>";</script><noscript>enable js</noscript>
<p>kept <!-- a comment --> text</p><form><input value="v"><button>Go</button><select><option>opt</option></select></form>
<div style="display: none">hidden menu</div><div hidden>also hidden</div><svg><text>drawing</text></svg>
<iframe src="x">frame</iframe><template><p>tpl</p></template><p>end</p></body></html>`)
	if got := bodyText(d); got != "kept text end" {
		t.Errorf("body text = %q", got)
	}
}

// A browser without the plugin an <object> or <applet> asks for (every
// browser today, for Flash and Java) shows the element's children instead:
// the video's caption below, which the page's gold text holds. <embed> and
// <param> have no children; <video> and <audio> fallbacks are read only by
// browsers too old to play them and stay dropped.
func TestObjectFallbackKept(t *testing.T) {
	d := mustParse(t, `<body><object type="application/x-shockwave-flash" data="player.swf"><param name="movie" value="player.swf">
<embed src="player.swf"><div class="caption-box"><p class="caption">The panel talks about campaign money.</p></div></object>
<applet code="Clock.class"><p>Your clock.</p></applet><video src="v.mp4"><p>Your browser cannot play this video.</p></video></body>`)
	if got := bodyText(d); got != "The panel talks about campaign money. Your clock." {
		t.Errorf("body text = %q", got)
	}
}

func TestHiddenOrNoscriptKeptWhenItHoldsThePage(t *testing.T) {
	long := strings.Repeat("The forum post says something worth keeping. ", 20)
	d := mustParse(t, `<body><div style="visibility:hidden"><nav>Menu</nav><p>`+long+`</p></div><p>tiny</p></body>`)
	if !strings.Contains(bodyText(d), "worth keeping") {
		t.Errorf("content hidden until a script shows it was dropped")
	}
	d = mustParse(t, `<body><div id="app">Loading</div><noscript><article><p>`+long+`</p></article></noscript></body>`)
	if !strings.Contains(bodyText(d), "worth keeping") {
		t.Errorf("content served in noscript was dropped")
	}
	d = mustParse(t, `<body><p>`+long+`</p><noscript><img src=pixel.gif>Please enable JavaScript.</noscript></body>`)
	if strings.Contains(bodyText(d), "enable JavaScript") {
		t.Errorf("a small noscript notice was kept")
	}
}

// TestScriptNotice: a <noscript> notice that the page needs JavaScript is
// dropped even when it is all the text the page has, in any language; a
// <noscript> that serves the page's content, which names JavaScript too,
// is kept.
func TestScriptNotice(t *testing.T) {
	for _, notice := range []string{
		"You need to enable JavaScript to run this app.",
		"<p>Bitte aktivieren Sie <b>JavaScript</b> in Ihrem Browser.</p>",
		"请启用 JavaScript 以继续。",
	} {
		d := mustParse(t, `<body><div id="root"></div><noscript>`+notice+`</noscript><script>app()</script></body>`)
		if text := strings.TrimSpace(bodyText(d)); text != "" {
			t.Errorf("%q: kept %q, want nothing", notice, text)
		}
	}
	post := strings.Repeat("Our guide explains how JavaScript modules load in the browser. ", 8)
	d := mustParse(t, `<body><div id="app"></div><noscript><article><p>`+post+`</p></article></noscript></body>`)
	if !strings.Contains(bodyText(d), "modules load") {
		t.Errorf("content served in noscript that names JavaScript was dropped")
	}
	d = mustParse(t, `<body><noscript><img src=pixel.gif></noscript><p>The only text.</p></body>`)
	if !strings.Contains(bodyText(d), "The only text.") {
		t.Errorf("the page's text was dropped with a tracking pixel's noscript")
	}
}

func TestWrapper(t *testing.T) {
	d := mustParse(t, "<text id=\"http://example.org/a?b=1&amp;c=2\" title=\"A &quot;title&quot;\" encoding=\"unset\">\n<html><head><title>Other</title></head><body><p>Body text</p></body></html>\n</text>\n")
	if d.Meta.URL != "http://example.org/a?b=1&c=2" || d.Meta.Title != `A "title"` {
		t.Errorf("meta = %+v", d.Meta)
	}
	if got := bodyText(d); got != "Body text" {
		t.Errorf("body text = %q", got)
	}
}

func TestTitleFallback(t *testing.T) {
	d := mustParse(t, "<html><head><title>  The\n title </title></head><body>x</body></html>")
	if d.Meta.Title != "The title" {
		t.Errorf("title = %q", d.Meta.Title)
	}
}

func TestDeepNestingFlattened(t *testing.T) {
	src := "<body>" + strings.Repeat("<div><span>", 5000) + "deep" + strings.Repeat("</span></div>", 5000) + "<p>after</p></body>"
	d := mustParse(t, src)
	if got := bodyText(d); got != "deep after" {
		t.Errorf("body text = %q", got)
	}
	if len(d.Warnings) == 0 {
		t.Errorf("no warning about flattening")
	}
}

func TestUnclosedTitleRepaired(t *testing.T) {
	d := mustParse(t, "<html><head><title>Cut title\n<body><p>The article text survives.</p></body></html>")
	if !strings.Contains(bodyText(d), "The article text survives.") {
		t.Errorf("body text = %q", bodyText(d))
	}
	// A closed title is left alone.
	d = mustParse(t, "<html><head><title>T</title><script>if (a < b) {}</script></head><body><p>x</p></body></html>")
	if len(d.Warnings) != 0 || d.Meta.Title != "T" {
		t.Errorf("warnings %v, title %q", d.Warnings, d.Meta.Title)
	}
}

func TestTruncatedAndInvalidInput(t *testing.T) {
	d := mustParse(t, "<html><body><p>First paragraph.</p><p>Second, cut in the mid")
	if got := bodyText(d); got != "First paragraph. Second, cut in the mid" {
		t.Errorf("body text = %q", got)
	}
	d = mustParse(t, "<p>bad \xff\xfe bytes and caf\xe9</p>")
	if !strings.Contains(bodyText(d), "bad") {
		t.Errorf("body text = %q", bodyText(d))
	}
}

func TestMaxBytes(t *testing.T) {
	opts := DefaultOptions()
	opts.MaxBytes = 1000
	src := "<body>" + strings.Repeat("<p>paragraph text</p>", 200) + "</body>"
	d, err := Parse([]byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "cut") {
		t.Errorf("warnings = %v", d.Warnings)
	}
	if n := strings.Count(bodyText(d), "paragraph text"); n == 0 || n > 60 {
		t.Errorf("%d paragraphs kept from a 1000-byte cut", n)
	}
}

func TestTextSpans(t *testing.T) {
	src := "<html><body><p>one &amp; two</p><table>stray<tr><td>cell</td></tr></table><pre>\nline</pre></body></html>"
	d := mustParse(t, src)
	var got []string
	for _, sp := range d.TextSpans {
		if sp.End > sp.Start {
			got = append(got, src[sp.Start:sp.End])
		}
	}
	want := []string{"one &amp; two", "stray", "cell", "line"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("spans = %q, want %q", got, want)
	}
}

func TestHiddenTabPanelsKept(t *testing.T) {
	d := mustParse(t, `<body><h1>Kettle</h1>
<div role="tabpanel" id="description"><p>A steel kettle.</p></div>
<div role="tabpanel" hidden><p>Specifications: 1.7 litres.</p></div>
<div class="accordion-body" style="display:none"><p>Answer to a question.</p></div>
<div class="navbar-collapse" style="display:none"><a href="/">Home</a></div>
<div class="dropdown-menu collapse" hidden><a href="/x">Other</a></div>
<div class="modal" aria-hidden="true">Sign up now</div>
</body>`)
	got := bodyText(d)
	for _, want := range []string{"Specifications", "Answer to a question"} {
		if !strings.Contains(got, want) {
			t.Errorf("hidden panel %q dropped: %q", want, got)
		}
	}
	for _, not := range []string{"Home", "Other", "Sign up"} {
		if strings.Contains(got, not) {
			t.Errorf("hidden menu or dialog %q kept: %q", not, got)
		}
	}
}

// Kitten's rule (3.3): a div whose id contains "menu" goes, with what it
// holds; the pattern is matched against the id and each class name of
// div elements only.
func TestDropPattern(t *testing.T) {
	src := `<body><div id="mainmenu"><a href="/">Home</a></div><div class="nav top-menu x"><ul><li>Cite</li></ul></div>
<div class="menus-are-fine-elsewhere"><p>kept one</p></div><ul id="menu"><li>list kept</li></ul>
<div id="content"><p>body text</p><div class="submenu">sub</div></div></body>`
	opts := DefaultOptions()
	if got := bodyText(mustParseWith(t, src, opts)); got != "Home Cite kept one list kept body text sub" {
		t.Errorf("no pattern: %q", got)
	}
	opts.DropPattern = regexp.MustCompile(`menu$`)
	if got := bodyText(mustParseWith(t, src, opts)); got != "kept one list kept body text" {
		t.Errorf("pattern menu$: %q", got)
	}
	opts.DropPattern = regexp.MustCompile(`menu`)
	if got := bodyText(mustParseWith(t, src, opts)); got != "list kept body text" {
		t.Errorf("pattern menu: %q", got)
	}
}

func mustParseWith(t *testing.T, src string, opts Options) *Document {
	t.Helper()
	d, err := Parse([]byte(src), opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}
