package warc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

const page = "<html><body><p>Hello, archived world.</p></body></html>\n"

func gz(b []byte) []byte { return gzipWhole(b) }

func zlibData(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func rawDeflate(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, 6)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func br(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func chunk(b []byte, size int) []byte {
	var out bytes.Buffer
	for len(b) > 0 {
		n := min(size, len(b))
		fmt.Fprintf(&out, "%x;ext=1\r\n", n)
		out.Write(b[:n])
		out.WriteString("\r\n")
		b = b[n:]
	}
	out.WriteString("0\r\nX-Trailer: y\r\n\r\n")
	return out.Bytes()
}

// varied returns n bytes of HTML that compresses about as real pages do.
func varied(n int) []byte {
	var b bytes.Buffer
	b.WriteString("<html>")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "<p>line %d: %x %d</p>\n", i, i*7919, i*i)
	}
	return b.Bytes()[:n]
}

func resp(head string, body []byte) []byte { return append([]byte(head), body...) }

func TestParseHTTPResponse(t *testing.T) {
	cases := []struct {
		name   string
		block  []byte
		status int
		reason string
		body   string
	}{
		{"plain", resp("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n", []byte(page)), 200, "OK", page},
		{"bare LF", resp("HTTP/1.0 200 OK\nContent-Type: text/html\n\n", []byte(page)), 200, "OK", page},
		{"no reason", resp("HTTP/1.1 404\r\n\r\n", []byte("nope")), 404, "", "nope"},
		{"glued reason", resp("HTTP/1.1 200OK\r\n\r\n", []byte("x")), 200, "OK", "x"},
		{"no colon", resp("HTTP/1.1 200 OK\r\nthis is not a header\r\nX-A: b\r\n\r\n", []byte(page)), 200, "OK", page},
		{"http/0.9", []byte(page), 0, "", page},
		{"not http", []byte("just text, no headers"), 0, "", "just text, no headers"},
		{"no body", []byte("HTTP/1.1 304 Not Modified\r\nETag: x\r\n"), 304, "Not Modified", ""},
		{"chunked", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunk([]byte(page), 7)), 200, "OK", page},
		{"chunked already decoded", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", []byte(page)), 200, "OK", page},
		{"gzip", resp("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gz([]byte(page))), 200, "OK", page},
		{"x-gzip declared but plain", resp("HTTP/1.1 200 OK\r\nContent-Encoding: x-gzip\r\n\r\n", []byte(page)), 200, "OK", page},
		{"deflate zlib", resp("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n", zlibData([]byte(page))), 200, "OK", page},
		{"deflate raw", resp("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n", rawDeflate([]byte(page))), 200, "OK", page},
		{"br", resp("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n", br([]byte(page))), 200, "OK", page},
		{"chunked gzip", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n", chunk(gz([]byte(page)), 10)), 200, "OK", page},
		{"gzip then br", resp("HTTP/1.1 200 OK\r\nContent-Encoding: gzip, br\r\n\r\n", br(gz([]byte(page)))), 200, "OK", page},
		{"identity", resp("HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\n\r\n", []byte(page)), 200, "OK", page},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseHTTPResponse(c.block)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != c.status || r.Reason != c.reason || string(r.Body) != c.body {
				t.Errorf("got %d %q body %q", r.Status, r.Reason, r.Body)
			}
		})
	}
	r, _ := ParseHTTPResponse(resp("HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nSet-Cookie: a\r\nset-cookie: b\r\nbad line\r\n\r\n", nil))
	if r.Header.Get("Content-Type") != "text/html" || len(r.Header["Set-Cookie"]) != 2 || len(r.Header) != 2 {
		t.Errorf("header %v", r.Header)
	}
}

func TestParseHTTPResponseErrors(t *testing.T) {
	big := bytes.Repeat([]byte("a"), 1<<20)
	cases := []struct {
		name  string
		block []byte
		limit int64
		want  string // in the error
		body  string // prefix of the partial body
		is    error
		kind  HTTPErrorKind
	}{
		{"bad status", []byte("HTTP/1.1 abc OK\r\n\r\nx"), 0, "three-digit status", "", nil, HTTPBadStatusLine},
		{"gzip bomb", resp("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gz(big)), 1000, "more than 1000", "aaaa", ErrBodyTooLarge, HTTPBodyTooLarge},
		{"br bomb", resp("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n", br(big)), 1000, "more than 1000", "aaaa", ErrBodyTooLarge, HTTPBodyTooLarge},
		{"deflate bomb", resp("HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\n\r\n", zlibData(big)), 1000, "more than 1000", "aaaa", ErrBodyTooLarge, HTTPBodyTooLarge},
		{"chunked too large", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunk(big[:5000], 1000)), 1500, "larger than the cap", "aaaa", ErrBodyTooLarge, HTTPBodyTooLarge},
		{"plain too large", resp("HTTP/1.1 200 OK\r\n\r\n", big[:5000]), 1500, "larger than the cap", "aaaa", ErrBodyTooLarge, HTTPBodyTooLarge},
		{"truncated gzip", resp("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gz(varied(5000))[:len(gz(varied(5000)))/2]), 0, "cut short", "<html>", nil, HTTPTruncatedBody},
		{"corrupt gzip", resp("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", append(gz([]byte(page))[:10], "not deflate data at all, really"...)), 0, "gzip body", "", nil, HTTPUndecodableBody},
		{"bad br", resp("HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n", []byte(page)), 0, "br body cannot be decoded", "<html>", nil, HTTPUndecodableBody},
		{"unknown encoding", resp("HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n", []byte(page)), 0, "unsupported Content-Encoding \"zstd\"", "<html>", nil, HTTPUnsupportedEncoding},
		{"chunked truncated", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", chunk([]byte(page), 20)[:40]), 0, "cut short", "<html>", nil, HTTPTruncatedBody},
		{"chunked no last chunk", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", []byte("5\r\nhello\r\n")), 0, "without its last", "hello", nil, HTTPTruncatedBody},
		{"bad chunk size", resp("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", []byte("5\r\nhello\r\nzz\r\nxx\r\n0\r\n\r\n")), 0, "bad chunk size", "hello", nil, HTTPBadChunking},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := ParseHTTPResponseLimit(c.block, c.limit)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one with %q", err, c.want)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v is not %v", err, c.is)
			}
			var he *HTTPError
			if !errors.As(err, &he) || he.Kind != c.kind {
				t.Errorf("error %v: not an *HTTPError of kind %v", err, c.kind)
			}
			if r == nil || !bytes.HasPrefix(r.Body, []byte(c.body)) {
				t.Errorf("response %+v", r)
			}
			if c.limit > 0 && int64(len(r.Body)) > c.limit {
				t.Errorf("body of %d bytes passes the cap %d", len(r.Body), c.limit)
			}
		})
	}
}

func TestRecordHTTPResponse(t *testing.T) {
	revisit := &Record{Type: TypeRevisit, TargetURI: "http://example.com/",
		Header:  Header{{"WARC-Refers-To-Target-URI", "http://example.com/"}, {"WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"}},
		Content: []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")}
	r, err := revisit.HTTPResponse()
	if !errors.Is(err, ErrRevisit) || !r.Revisit || r.Status != 200 || r.Body != nil || !revisit.IsRevisit() {
		t.Errorf("revisit: %v %+v", err, r)
	}
	res := &Record{Type: TypeResource, Header: Header{{FieldContentType, "text/plain"}}, Content: []byte("notes")}
	r, err = res.HTTPResponse()
	if err != nil || string(r.Body) != "notes" || r.Header.Get("Content-Type") != "text/plain" || r.Status != 0 {
		t.Errorf("resource: %v %+v", err, r)
	}
	_, err = (&Record{Type: TypeRequest}).HTTPResponse()
	if !errors.Is(err, ErrNotResponse) {
		t.Errorf("request: %v", err)
	}
	resp := &Record{Type: TypeResponse, Content: resp("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gz([]byte(page)))}
	r, err = resp.HTTPResponse()
	if err != nil || string(r.Body) != page {
		t.Errorf("response: %v %+v", err, r)
	}
}

// A whole round trip: records read from an archive parse as HTTP.
func TestArchiveHTTP(t *testing.T) {
	want := sampleRecords(8)
	got, errs, _ := readAll(t, buildArchive(t, want, true), Options{}, false)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, rec := range got {
		r, err := rec.HTTPResponse()
		switch rec.Type {
		case TypeResponse:
			if err != nil || r.Status != 200 || !bytes.Contains(r.Body, []byte("<title>")) {
				t.Errorf("%s: %v %+v", rec.TargetURI, err, r)
			}
		case TypeResource:
			if err != nil || !bytes.HasPrefix(r.Body, []byte("plain notes")) {
				t.Errorf("%s: %v %+v", rec.TargetURI, err, r)
			}
		}
	}
	_ = gzip.BestSpeed
}
