// Command cipher writes copies of shared data sets whose text is in an
// "unknown language": every ASCII letter of the pages' text and of the
// gold standard is replaced by another by a fixed substitution (vowels by
// vowels, consonants by consonants, case kept), while the markup (tags,
// attributes, class names, character references, scripts, styles and
// comments) stays as it is. The words keep their lengths, their places
// and their repetitions, and match nothing a model learned of English
// words, as a page in a language it never saw, written by developers who
// name their classes in English, as most do. Scoring the same model on a
// set and on its copy measures how much of its accuracy rests on the
// English words themselves (docs/languages.md, "An unknown language").
//
//	go run ./scripts/cipher -data ../shared/data -o /tmp/cipher-data
//	SLUICE_DATA=/tmp/cipher-data sluice bench --filter model
//
// Sets with text gold are copied: cleaneval-dev, cleanportaleval,
// dragnet-train (gold/*.txt) and wcxb-dev (gold/*.json, the ground
// truth's strings).
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// sets are the sets copied, with text or JSON gold.
var sets = []string{"cleaneval-dev", "cleanportaleval", "dragnet-train", "wcxb-dev"}

// subst is the substitution: vowels among vowels, consonants among
// consonants, lower case; upper case follows.
var subst = func() [256]byte {
	var t [256]byte
	for i := range t {
		t[i] = byte(i)
	}
	for _, group := range []string{"aeiouy", "bcdfghjklmnpqrstvwxz"} {
		for i := range len(group) {
			to := group[(i+3)%len(group)]
			t[group[i]] = to
			t[group[i]-'a'+'A'] = to - 'a' + 'A'
		}
	}
	return t
}()

// text ciphers the letters of s outside markup: tags (with their quoted
// values), comments, character references, and the text of script and
// style elements are copied as they are.
func text(s []byte) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '<' && i+1 < len(s) && (isLetter(s[i+1]) || s[i+1] == '/' || s[i+1] == '!' || s[i+1] == '?'):
			end := markupEnd(s, i)
			out = append(out, tag(s[i:end])...)
			if name := rawName(s[i:end]); name != "" {
				close := indexFold(s[end:], "</"+name)
				if close < 0 {
					return append(out, s[end:]...)
				}
				out = append(out, s[end:end+close]...)
				end += close
			}
			i = end
		case c == '&':
			n := 1
			for n < 12 && i+n < len(s) && (isLetter(s[i+n]) || s[i+n] == '#' || '0' <= s[i+n] && s[i+n] <= '9') {
				n++
			}
			if i+n < len(s) && s[i+n] == ';' {
				n++
			}
			out = append(out, s[i:i+n]...)
			i += n
		default:
			out = append(out, subst[c])
			i++
		}
	}
	return out
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// markupEnd returns the end of the tag or comment at s[i].
func markupEnd(s []byte, i int) int {
	if bytes.HasPrefix(s[i:], []byte("<!--")) {
		if j := bytes.Index(s[i+4:], []byte("-->")); j >= 0 {
			return i + 4 + j + 3
		}
		return len(s)
	}
	// A quote opens a quoted value only right after '=' (and white
	// space), as the HTML tokenizer reads it.
	var quote byte
	afterEq := false
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case afterEq && (c == '"' || c == '\''):
			quote, afterEq = c, false
		case c == '>':
			return j + 1
		case c == '=':
			afterEq = true
		case c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f':
			afterEq = false
		}
	}
	return len(s)
}

// textAttrs are the attributes whose values are text a reader sees (or
// hears), which sluice reads as a block's text.
var textAttrs = []string{"alt", "title", "aria-label", "placeholder", "summary", "label"}

// tag copies a tag, ciphering the values of textAttrs; a comment or
// another declaration is copied as it is.
func tag(t []byte) []byte {
	if len(t) < 2 || !isLetter(t[1]) {
		return t
	}
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); {
		name, ok := attrAt(t, i)
		if !ok {
			out = append(out, t[i])
			i++
			continue
		}
		j := i + len(name) + 1 // past "name="
		out = append(out, t[i:j]...)
		end := j
		if j < len(t) && (t[j] == '"' || t[j] == '\'') {
			if k := bytes.IndexByte(t[j+1:], t[j]); k >= 0 {
				end = j + 1 + k + 1
			} else {
				end = len(t)
			}
		} else {
			for end < len(t) && t[end] != ' ' && t[end] != '>' && t[end] != '\t' && t[end] != '\n' {
				end++
			}
		}
		val := t[j:end]
		if slices.Contains(textAttrs, name) {
			val = text(val)
		}
		out = append(out, val...)
		i = end
	}
	return out
}

// attrAt returns the name of the attribute whose "name=" starts at t[i],
// after white space.
func attrAt(t []byte, i int) (string, bool) {
	if i == 0 || (t[i-1] != ' ' && t[i-1] != '\t' && t[i-1] != '\n' && t[i-1] != '\r') {
		return "", false
	}
	j := i
	for j < len(t) && (isLetter(t[j]) || t[j] == '-') {
		j++
	}
	if j == i || j >= len(t) || t[j] != '=' {
		return "", false
	}
	return strings.ToLower(string(t[i:j])), true
}

// rawName returns "script" or "style" when tag is such a start tag.
func rawName(tag []byte) string {
	for _, n := range []string{"script", "style"} {
		if len(tag) > len(n)+1 && strings.EqualFold(string(tag[1:1+len(n)]), n) && !isLetter(tag[1+len(n)]) {
			return n
		}
	}
	return ""
}

// indexFold returns the offset of sub, which starts with '<' and is
// lower-case ASCII, in s, ASCII capitals in s counting as small letters;
// -1 when s has none. (Lowering s first would move the offsets after a
// non-ASCII capital whose small letter takes another length, as İ.)
func indexFold(s []byte, sub string) int {
	for i := 0; i < len(s); {
		j := bytes.IndexByte(s[i:], sub[0])
		if j < 0 {
			return -1
		}
		k := i + j
		if k+len(sub) <= len(s) && asciiFold(s[k:k+len(sub)], sub) {
			return k
		}
		i = k + 1
	}
	return -1
}

func asciiFold(b []byte, lower string) bool {
	for i := range len(lower) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// goldJSON ciphers the strings of a WCXB gold file's ground truth.
func goldJSON(data []byte) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	gt, _ := doc["ground_truth"].(map[string]any)
	for k, v := range gt {
		if k != "publish_date" {
			gt[k] = cipherAny(v)
		}
	}
	return json.MarshalIndent(doc, "", "  ")
}

func cipherAny(v any) any {
	switch x := v.(type) {
	case string:
		return string(text([]byte(x)))
	case []any:
		for i := range x {
			x[i] = cipherAny(x[i])
		}
	}
	return v
}

// copyFile writes the ciphered copy of one file of a set.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	gz := strings.HasSuffix(src, ".gz")
	if gz {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	}
	dir := filepath.Base(filepath.Dir(src))
	switch {
	case dir == "gold" && strings.HasSuffix(src, ".json"):
		if data, err = goldJSON(data); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	case dir == "gold":
		// A CleanEval gold file starts with its URL line, after blank
		// lines at most; the scorers leave it out.
		var b []byte
		for line := range bytes.Lines(data) {
			if bytes.HasPrefix(bytes.TrimSpace(line), []byte("URL:")) {
				b = append(b, line...)
			} else {
				b = append(b, text(line)...)
			}
		}
		data = b
	case dir == "html":
		data = text(data)
	}
	if gz {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		data = b.Bytes()
	}
	return os.WriteFile(dst, data, 0o644)
}

func main() {
	data := flag.String("data", "../shared/data", "the shared data directory")
	out := flag.String("o", "", "where to write the ciphered sets (required)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "cipher: -o DIR is required")
		os.Exit(2)
	}
	n := 0
	for _, set := range sets {
		root := filepath.Join(*data, set)
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			dst := filepath.Join(*out, set, rel)
			if d.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			n++
			return copyFile(path, dst)
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "cipher:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d files of %d sets written to %s\n", n, len(sets), *out)
}
