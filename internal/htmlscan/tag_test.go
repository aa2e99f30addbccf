package htmlscan

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"
)

// firstToken returns the type and length of the tokenizer's first token
// of src.
func firstToken(src []byte) (html.TokenType, int) {
	z := html.NewTokenizer(bytes.NewReader(src))
	tt := z.Next()
	return tt, len(z.Raw())
}

// TestTagEndAsTokenizer checks that a tag ends where the tokenizer ends
// it, for tags whose attributes hold the characters its rules treat
// apart.
func TestTagEndAsTokenizer(t *testing.T) {
	for _, src := range []string{
		`<p>x`, `<p a=b>x`, `<p a="x>y" b='>'>x`, `<p a=x>y>z`, `<p =a>x`, `<p a = "b" >x`,
		`<p a/b>x`, `<br/>x`, `<p a=/>x`, `<p "a>x`, `<p a="b"c>x`, `<p\ta\nb\fc>x`,
		`</p>x`, `</p a="x>y">x`, `<DIV CLASS=A>x`, `<p a=">`, `<p`,
	} {
		b := []byte(src)
		skip := 1
		if bytes.HasPrefix(b, []byte("</")) {
			skip = 2
		}
		got := TagEnd(b, NameEnd(b, skip))
		tt, n := firstToken(b)
		if tt == html.ErrorToken {
			if got >= 0 {
				t.Errorf("%q: TagEnd %d, the tokenizer finds no tag", src, got)
			}
			continue
		}
		if got+1 != n {
			t.Errorf("%q: TagEnd %d, the tokenizer's tag is %d bytes", src, got, n)
		}
	}
}

// TestTextEndAsTokenizer checks that a text ends where the tokenizer ends
// it, or that TextEnd leaves it to the tokenizer.
func TestTextEndAsTokenizer(t *testing.T) {
	for _, src := range []string{
		`a<p>`, `a < b<p>`, `a<3<p>`, `a</p>`, `a</ x>`, `a<!-- c -->`, `a<?pi?>`,
		`a<=b<i>`, `<<p>`, `abc`, `abc<`, `a<b`,
	} {
		b := []byte(src)
		end := TextEnd(b, 0)
		tt, n := firstToken(b)
		if end < 0 {
			continue
		}
		if tt != html.TextToken || end != n {
			t.Errorf("%q: TextEnd %d, the tokenizer's first token is %v of %d bytes", src, end, tt, n)
		}
	}
	if end := TextEnd([]byte("abc"), 0); end != -1 {
		t.Errorf("a text to the end of the input: TextEnd %d, want -1", end)
	}
}
