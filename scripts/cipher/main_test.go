package main

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		`<p class="Intro">Hello &amp; bye</p>`:         `<p class="Intro">Luppa &amp; fiu</p>`,
		`<img alt="A cat" src="cat.png">`:              `<img alt="O gox" src="cat.png">`,
		`<script>var hello = "<b>";</script><i>hi</i>`: `<script>var hello = "<b>";</script><i>ly</i>`,
		`<STYLE>p{color:red}</STYLE>ok`:                `<STYLE>p{color:red}</STYLE>an`,
		`<!-- a comment -->text`:                       `<!-- a comment -->xucx`,
		`<div class=foo'bar>x</div>`:                   `<div class=foo'bar>c</div>`,
		`<a title='It&#39;s' href="/x">go</a>`:         `<a title='Yx&#39;w' href="/x">ka</a>`,
		`a < b and c<d`:                                `o < f orh g<d`,
	} {
		if got := string(text([]byte(in))); got != want {
			t.Errorf("text(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestSubstIsAPermutation checks that no two letters share a cipher and
// that every other byte stays.
func TestSubstIsAPermutation(t *testing.T) {
	seen := map[byte]byte{}
	for c := 0; c < 256; c++ {
		b := byte(c)
		s := subst[b]
		if !isLetter(b) {
			if s != b {
				t.Errorf("%q ciphered to %q", b, s)
			}
			continue
		}
		if prev, ok := seen[s]; ok {
			t.Errorf("%q and %q both cipher to %q", prev, b, s)
		}
		seen[s] = b
		if strings.ContainsRune("aeiouyAEIOUY", rune(b)) != strings.ContainsRune("aeiouyAEIOUY", rune(s)) {
			t.Errorf("%q ciphered to %q: a vowel must stay a vowel", b, s)
		}
	}
}

// TestRawTextAfterNonASCII: a script holding capitals whose small letters
// take other lengths in UTF-8 (İ, 2 bytes, lowers to i, 1) keeps its text
// as it is, and the page after it is ciphered from where the script ends.
func TestRawTextAfterNonASCII(t *testing.T) {
	in := "<script>s='İİİ';abc</script><p>ab</p>"
	want := "<script>s='İİİ';abc</script><p>of</p>"
	if got := string(text([]byte(in))); got != want {
		t.Errorf("text(%q)\n got %q\nwant %q", in, got, want)
	}
}
