package xhtml_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/xhtml"
)

// normalize normalises src and fails the test unless the result parses as
// strict XML.
func normalize(t testing.TB, src string) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := xhtml.Normalize(&b, []byte(src), xhtml.Options{}); err != nil {
		t.Fatalf("xhtml.Normalize(%q): %v", src, err)
	}
	if err := strictParse(b.Bytes()); err != nil {
		t.Fatalf("xhtml.Normalize(%q) is not strict XML: %v\n%s", src, err, b.String())
	}
	return b.String()
}

// strictParse reads x to the end with a strict XML decoder: no automatic
// closing, no HTML entities.
func strictParse(x []byte) error {
	d := xml.NewDecoder(bytes.NewReader(x))
	d.Strict = true
	d.AutoClose = nil
	d.Entity = nil
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := checkNamespaces(tok); err != nil {
			return err
		}
	}
}

// checkNamespaces fails for a prefix that no xmlns:PREFIX declares
// (encoding/xml leaves it in Name.Space instead of a namespace URI).
func checkNamespaces(tok xml.Token) error {
	se, ok := tok.(xml.StartElement)
	if !ok {
		return nil
	}
	if !strings.Contains(se.Name.Space, "://") {
		return fmt.Errorf("element %s:%s: namespace not declared", se.Name.Space, se.Name.Local)
	}
	for _, a := range se.Attr {
		if a.Name.Space != "" && a.Name.Space != "xmlns" && !strings.Contains(a.Name.Space, "://") {
			return fmt.Errorf("attribute %s:%s: prefix not declared", a.Name.Space, a.Name.Local)
		}
	}
	return nil
}

// body returns the part of out between <body> and </body>.
func body(out string) string {
	i := strings.Index(out, "<body>")
	j := strings.LastIndex(out, "</body>")
	if i < 0 || j < i {
		return out
	}
	return out[i+len("<body>") : j]
}

func TestRules(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"lower case, closed", `<P>one<P>two<DIV>x</div>`, `<p>one</p><p>two</p><div>x</div>`},
		{"misnested", `<b><i>x</b>y</i>`, `<b><i>x</i></b><i>y</i>`},
		{"void", `a<br>b<IMG SRC=x.png><hr>`, `a<br />b<img src="x.png" /><hr />`},
		{"quoted, escaped", `<a href=a?b=1&c=2 title='say "hi" <now>'>x</a>`, `<a href="a?b=1&amp;c=2" title="say &quot;hi&quot; &lt;now&gt;">x</a>`},
		{"duplicate attributes", `<p class=a CLASS=b id=x>t</p>`, `<p class="a" id="x">t</p>`},
		{"invalid attribute names", `<p a"b=1 1x=2 ok=3 x:y=4 xmlns:fb=u xmlfoo=5>t</p>`, `<p ok="3">t</p>`},
		{"windows-1252 references", `<p>&#128;&#150;&#153;&#x81;&#159;</p>`, "<p>€–™Ÿ</p>"},
		{"C1 characters", "<meta charset=utf-8><p>\u0080\u0093x\u0094\u008d</p>", "<p>€“x”</p>"},
		{"named entities", `<p>&eacute;&nbsp;&permil;&apos;&amp;&lt;&copy &hellip</p>`, "<p>é\u00a0‰'&amp;&lt;© &amp;hellip</p>"},
		{"script in CDATA", `<script>if (a < b && c) x = "]]>";</script>`, `<script><![CDATA[if (a < b && c) x = "]]]]><![CDATA[>";]]></script>`},
		{"style in CDATA", `<style>p > a { }</style><p>x</p>`, `<style><![CDATA[p > a { }]]></style></head><body><p>x</p>`},
		{"comments", `<!-- a -- b --><!--x-->-<!---->`, "<!-- a - - b -->\n<!--x-->\n<html"},
		{"comments in body", `<p>x<!-- a -- b -->-<!---->`, `<p>x<!-- a - - b -->-<!----></p>`},
		{"comment ending in -", `<!--a--->`, `<!--a- -->`},
		{"control characters", "<p title=\"a\x01b\">c\x0bd\x00e and enough text that it is not taken for binary</p>", `<p title="ab">cde and`},
		{"invalid element name", `<o:p>x</o:p><a<b>y<Xmlns>z</xmlns>`, `xyz`},
		{"text kept as is", "<p>a\n   b\tc</p>\n<pre>\n  x\n</pre>", "<p>a\n   b\tc</p>\n<pre>  x\n</pre>"},
		{"empty elements", `<div></div><p></p><td>`, `<div></div><p></p>`},
		{"textarea", `<textarea>a <b> & c</textarea>`, `<textarea>a &lt;b&gt; &amp; c</textarea>`},
		{"attribute white space", "<p title=\"a\tb\nc\">x</p>", `<p title="a&#9;b&#10;c">x</p>`},
		{"svg", `<svg viewbox="0 0 1 1"><use xlink:href="#a"/><circle r=1></circle></svg>`,
			`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 1 1"><use xlink:href="#a" /><circle r="1" /></svg>`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := normalize(t, tc.in)
			if !strings.Contains(out, tc.want) {
				t.Errorf("xhtml.Normalize(%q) =\n%s\nwant it to hold\n%s", tc.in, body(out), tc.want)
			}
		})
	}
}

func TestHeaderAndNamespace(t *testing.T) {
	out := normalize(t, `<!DOCTYPE html><html xmlns="urn:other" lang=en><head><meta http-equiv=Content-Type content="text/html; charset=iso-8859-1"><title>T</title></head><body>x</body></html>`)
	for _, want := range []string{
		xhtml.Header + `<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head>`,
		`<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />`,
		`<title>T</title>`, "</html>\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "<!DOCTYPE") != 1 || strings.Contains(out, "urn:other") {
		t.Errorf("doctype or namespace not replaced:\n%s", out)
	}
}

func TestCharsetDecoded(t *testing.T) {
	src := []byte("<html><head><meta charset=\"windows-1252\"></head><body><p>caf\xe9 \x93q\x94 \x80</p></body></html>")
	var b bytes.Buffer
	if _, err := xhtml.Normalize(&b, src, xhtml.Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "<p>café “q” €</p>") || !strings.Contains(out, `<meta charset="utf-8" />`) {
		t.Errorf("not decoded to UTF-8:\n%s", out)
	}
}

func TestForeignObject(t *testing.T) {
	out := normalize(t, `<svg><foreignObject><p>x</p></foreignObject></svg><math><mi xlink:href=u>x</mi></math>`)
	for _, want := range []string{`<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>`, `<math xmlns="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink"><mi xlink:href="u">x</mi></math>`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestErrors(t *testing.T) {
	if _, err := xhtml.Normalize(io.Discard, []byte("  "), xhtml.Options{}); err == nil {
		t.Error("empty input: no error")
	}
	if _, err := xhtml.Normalize(io.Discard, []byte("\x89PNG\r\n\x1a\nxxxx"), xhtml.Options{}); err == nil {
		t.Error("binary input: no error")
	}
}
