package warc

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

var magics = []struct {
	prefix string
	what   string
}{
	{"PK\x03\x04", "a ZIP archive"},
	{"BZh", "a bzip2 stream"},
	{"\x28\xb5\x2f\xfd", "a Zstandard stream"},
	{"\xfd7zXZ\x00", "an xz stream"},
	{"%PDF-", "a PDF document"},
	{"\x89PNG", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF8", "a GIF image"},
	{"\x1f\x8b", "a gzip stream"},
	{"HTTP/", "an HTTP message not wrapped in a WARC record"},
	{"WARC/", "a WARC record with a bad version line"},
	{"filedesc:", "an ARC file header"},
}

// describe says in a few words what b, the start of some data, looks like.
func describe(b []byte) string {
	if len(b) == 0 {
		return "empty data"
	}
	for _, m := range magics {
		if bytes.HasPrefix(b, []byte(m.prefix)) {
			return m.what
		}
	}
	if len(b) >= 262 && string(b[257:262]) == "ustar" {
		return "a tar archive"
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")), " \t\r\n")
	low := bytes.ToLower(t[:min(len(t), 16)])
	switch {
	case bytes.HasPrefix(low, []byte("<!doctype html")), bytes.HasPrefix(low, []byte("<html")),
		bytes.HasPrefix(low, []byte("<head")), bytes.HasPrefix(low, []byte("<body")):
		return "an HTML document"
	case bytes.HasPrefix(low, []byte("<?xml")):
		return "an XML document"
	case bytes.HasPrefix(t, []byte("{")), bytes.HasPrefix(t, []byte("[")):
		return "JSON " + quoteStart(b)
	}
	if isText(b) {
		return "text " + quoteStart(b)
	}
	return fmt.Sprintf("binary data (starting % x)", b[:min(len(b), 8)])
}

// describeShort is describe for messages about garbage between records.
func describeShort(b []byte) string {
	if isText(b) {
		return "starting " + fmt.Sprintf("%q", b[:min(len(b), 24)])
	}
	return describe(b)
}

func quoteStart(b []byte) string {
	n := min(len(b), 40)
	for n > 0 && n < len(b) && !utf8.RuneStart(b[n]) {
		n--
	}
	return fmt.Sprintf("(starting %q)", b[:n])
}

// isText reports whether b is mostly printable UTF-8.
func isText(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	bad := 0
	for i := 0; i < len(b); {
		c, n := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError && n == 1 && len(b)-i >= utf8.UTFMax {
			bad++
		} else if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			bad++
		}
		i += n
	}
	return bad*20 < len(b)
}
