package warc

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/andybalholm/brotli"
)

// DefaultMaxBodyBytes is the cap ParseHTTPResponse puts on a decoded body.
const DefaultMaxBodyBytes = 64 << 20

// Errors wrapped by the errors of ParseHTTPResponse and Record.HTTPResponse.
var (
	// ErrBodyTooLarge: the decoded body would pass the cap (a decompression
	// bomb, or simply a huge body); Body holds the first bytes up to the cap.
	ErrBodyTooLarge = errors.New("decoded HTTP body larger than the cap")
	// ErrRevisit: the record is a revisit record, which has no payload of
	// its own; the response holds the HTTP headers if the record has them.
	ErrRevisit = errors.New("revisit record: no payload (it refers to an earlier capture)")
	// ErrNotResponse: the record type carries no HTTP response.
	ErrNotResponse = errors.New("record carries no HTTP response")
)

// HTTPErrorKind is the kind of problem an HTTPError reports.
type HTTPErrorKind int

// Kinds of HTTP problems. The zero value, HTTPOther, is a problem of none of
// the other kinds; ParseHTTPResponse always sets a specific one.
const (
	// HTTPOther: none of the kinds below.
	HTTPOther HTTPErrorKind = iota
	// HTTPBadStatusLine: a status line without a three-digit status code.
	HTTPBadStatusLine
	// HTTPTruncatedBody: a body cut short (chunked or compressed), most
	// likely in a truncated record.
	HTTPTruncatedBody
	// HTTPBadChunking: a chunked body with a chunk size line that is not
	// one.
	HTTPBadChunking
	// HTTPUnsupportedEncoding: a Content-Encoding this package cannot
	// decode; the body is left encoded.
	HTTPUnsupportedEncoding
	// HTTPUndecodableBody: a compressed body that fails to decompress.
	HTTPUndecodableBody
	// HTTPBodyTooLarge: the decoded body would pass the cap (the error
	// wraps ErrBodyTooLarge).
	HTTPBodyTooLarge
)

var httpErrorNames = [...]string{
	HTTPOther:               "bad response",
	HTTPBadStatusLine:       "bad status line",
	HTTPTruncatedBody:       "truncated body",
	HTTPBadChunking:         "bad chunked encoding",
	HTTPUnsupportedEncoding: "unsupported Content-Encoding",
	HTTPUndecodableBody:     "undecodable body",
	HTTPBodyTooLarge:        "body too large",
}

// String returns a short phrase for the kind, such as "truncated body".
func (k HTTPErrorKind) String() string { return kindName(httpErrorNames[:], k, "HTTPErrorKind") }

// HTTPError is the error of ParseHTTPResponse: the kind of problem, for
// programs (match on it, not on the message, whose wording may change), and
// the error that says it in words.
type HTTPError struct {
	Kind HTTPErrorKind
	// Err says what is wrong; it wraps the underlying error, if any (such
	// as ErrBodyTooLarge, or an error of a decompressor).
	Err error
}

// Error returns the message of Err.
func (e *HTTPError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *HTTPError) Unwrap() error { return e.Err }

// httpError returns an *HTTPError of kind whose message is formatted as by
// fmt.Errorf (%w wraps).
func httpError(kind HTTPErrorKind, format string, args ...any) error {
	return &HTTPError{Kind: kind, Err: fmt.Errorf(format, args...)}
}

// HTTPResponse is an HTTP response as a crawler recorded it, with its body
// decoded.
type HTTPResponse struct {
	// Proto is the protocol of the status line ("HTTP/1.1"), or "" when the
	// block has no status line (an HTTP/0.9-style body-only response, or a
	// payload that is not HTTP): Header is then empty and Body the block.
	Proto string
	// Status is the status code, 0 when there is no status line.
	Status int
	// Reason is the reason phrase ("OK"), possibly empty.
	Reason string
	// Header holds the header fields, keys in canonical form. Header lines
	// without a colon are skipped.
	Header http.Header
	// Body is the body with Transfer-Encoding chunked and Content-Encoding
	// gzip, deflate (zlib or raw) and br decoded, at most the cap.
	Body []byte
	// Revisit is set by Record.HTTPResponse for revisit records.
	Revisit bool
}

// ParseHTTPResponse parses the block of a WARC response record (or an ARC
// record): status line, headers, body; it decodes chunked transfer coding
// and the content encodings gzip, x-gzip, deflate (zlib-wrapped or raw) and
// br, with the decoded body capped at DefaultMaxBodyBytes.
//
// Parsing is lenient, as real crawls require: bare LF line ends, a missing
// reason phrase, header lines without a colon (skipped), a body declared
// gzip that is not gzip (kept as it is), and blocks that do not start with a
// status line (taken as a body only).
//
// The response is never nil. The error, if any, says what was wrong; the
// response then holds what could be parsed and decoded: for a body that is
// cut short (a truncated record) or too large, Body holds what was decoded
// before the problem. Errors are *HTTPError, and wrap ErrBodyTooLarge when
// the cap was reached.
func ParseHTTPResponse(block []byte) (*HTTPResponse, error) {
	return ParseHTTPResponseLimit(block, DefaultMaxBodyBytes)
}

// ParseHTTPResponseLimit is ParseHTTPResponse with a cap of maxBody bytes
// on the decoded body (DefaultMaxBodyBytes if maxBody <= 0).
func ParseHTTPResponseLimit(block []byte, maxBody int64) (*HTTPResponse, error) {
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	resp := &HTTPResponse{Header: http.Header{}}
	rest := bytes.TrimLeft(block, "\r\n")
	if !hasPrefixFold(rest, "HTTP/") {
		body := block
		if int64(len(body)) > maxBody {
			resp.Body = body[:maxBody]
			return resp, httpError(HTTPBodyTooLarge, "warc: http: body-only response of %d bytes: %w (%d)", len(body), ErrBodyTooLarge, maxBody)
		}
		resp.Body = body
		return resp, nil
	}
	line, rest := cutLine(rest)
	if err := parseStatusLine(resp, string(line)); err != nil {
		return resp, err
	}
	headerEnded := false
	for len(rest) > 0 {
		line, rest = cutLine(rest)
		if len(line) == 0 {
			headerEnded = true
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && len(resp.Header) > 0 {
			continue // obsolete line folding: dropped, as net/http does not keep it either
		}
		i := bytes.IndexByte(line, ':')
		if i <= 0 {
			continue
		}
		name := strings.TrimSpace(string(line[:i]))
		if name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		resp.Header.Add(textproto.CanonicalMIMEHeaderKey(name), strings.TrimSpace(string(line[i+1:])))
	}
	if !headerEnded {
		// The block ends inside the header (a cut record, or a response
		// without a body and without the blank line): no body.
		return resp, nil
	}
	body := rest
	var err error
	if hasToken(resp.Header.Values("Transfer-Encoding"), "chunked") {
		body, err = dechunk(body, maxBody)
		if err != nil {
			resp.Body = body
			return resp, err
		}
	}
	encs := splitTokens(resp.Header.Values("Content-Encoding"))
	if len(encs) == 0 && int64(len(body)) > maxBody {
		resp.Body = body[:maxBody]
		return resp, httpError(HTTPBodyTooLarge, "warc: http: body of %d bytes: %w (%d)", len(body), ErrBodyTooLarge, maxBody)
	}
	for i := len(encs) - 1; i >= 0; i-- {
		body, err = decodeContent(encs[i], body, maxBody)
		if err != nil {
			break
		}
	}
	resp.Body = body
	return resp, err
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && strings.EqualFold(string(b[:len(prefix)]), prefix)
}

// cutLine returns the first line of b without its CRLF or LF, and the rest.
func cutLine(b []byte) (line, rest []byte) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return bytes.TrimSuffix(b, []byte("\r")), nil
	}
	return bytes.TrimSuffix(b[:i], []byte("\r")), b[i+1:]
}

func parseStatusLine(resp *HTTPResponse, line string) error {
	proto, rest, _ := strings.Cut(line, " ")
	resp.Proto = proto
	rest = strings.TrimLeft(rest, " ")
	code, reason, _ := strings.Cut(rest, " ")
	n := 0
	for n < len(code) && n < 3 && isDigit(code[n]) {
		n++
	}
	if n != 3 {
		return httpError(HTTPBadStatusLine, "warc: http: bad status line %q: no three-digit status code", truncate(line, 80))
	}
	resp.Status, _ = strconv.Atoi(code[:3])
	if n < len(code) { // "200OK"
		reason = strings.TrimSpace(code[3:] + " " + reason)
	}
	resp.Reason = strings.TrimSpace(reason)
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func splitTokens(values []string) []string {
	var out []string
	for _, v := range values {
		for _, t := range strings.Split(v, ",") {
			if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

func hasToken(values []string, tok string) bool {
	for _, t := range splitTokens(values) {
		if t == tok {
			return true
		}
	}
	return false
}

// dechunk decodes a chunked body. A body whose first line is not a chunk
// size is taken as already decoded (crawlers that store the decoded body
// but keep the header). On error it returns what was decoded so far.
func dechunk(b []byte, maxBody int64) ([]byte, error) {
	var out []byte
	first := true
	for {
		line, rest := cutLine(b)
		sizeText := string(line)
		if i := strings.IndexByte(sizeText, ';'); i >= 0 {
			sizeText = sizeText[:i]
		}
		sizeText = strings.TrimSpace(sizeText)
		size, err := strconv.ParseUint(sizeText, 16, 63)
		if err != nil || sizeText == "" {
			if first {
				return b, nil
			}
			if len(bytes.TrimSpace(b)) == 0 {
				return out, httpError(HTTPTruncatedBody, "warc: http: chunked body ends without its last (zero-size) chunk: the record is probably truncated")
			}
			return out, httpError(HTTPBadChunking, "warc: http: bad chunk size line %q", truncate(string(line), 40))
		}
		first = false
		if size == 0 {
			return out, nil // trailer fields, if any, are ignored
		}
		if int64(len(out))+int64(size) > maxBody {
			take := min(int64(len(rest)), maxBody-int64(len(out)))
			out = append(out, rest[:take]...)
			return out, httpError(HTTPBodyTooLarge, "warc: http: chunked body: %w (%d)", ErrBodyTooLarge, maxBody)
		}
		if uint64(len(rest)) < size {
			out = append(out, rest...)
			return out, httpError(HTTPTruncatedBody, "warc: http: chunked body cut short: a chunk of %d bytes has %d: the record is probably truncated", size, len(rest))
		}
		out = append(out, rest[:size]...)
		b = rest[size:]
		// CRLF (or LF) after the chunk data.
		if bytes.HasPrefix(b, []byte("\r\n")) {
			b = b[2:]
		} else if bytes.HasPrefix(b, []byte("\n")) {
			b = b[1:]
		}
	}
}

// decodeContent undoes one content coding. On error it returns what was
// decoded so far (or data itself if nothing was).
func decodeContent(enc string, data []byte, maxBody int64) ([]byte, error) {
	var rd io.Reader
	switch enc {
	case "identity", "none", "utf-8", "utf8", "binary", "7bit", "8bit":
		return data, nil
	case "gzip", "x-gzip":
		if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
			return data, nil // declared but not applied: keep as is
		}
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return data, httpError(HTTPUndecodableBody, "warc: http: gzip body: %w", err)
		}
		rd = zr
	case "deflate":
		if len(data) >= 2 && data[0]&0x0f == 8 && (uint16(data[0])<<8|uint16(data[1]))%31 == 0 {
			zr, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				return data, httpError(HTTPUndecodableBody, "warc: http: deflate (zlib) body: %w", err)
			}
			rd = zr
		} else {
			rd = flate.NewReader(bytes.NewReader(data))
		}
	case "br":
		rd = brotli.NewReader(bytes.NewReader(data))
	default:
		return data, httpError(HTTPUnsupportedEncoding, "warc: http: unsupported Content-Encoding %q: body left encoded", enc)
	}
	out, err := readLimited(rd, maxBody, len(data))
	if err != nil {
		what := enc + " body"
		switch {
		case errors.Is(err, ErrBodyTooLarge):
			return out, httpError(HTTPBodyTooLarge, "warc: http: %s decodes to more than %d bytes: %w", what, maxBody, ErrBodyTooLarge)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return out, httpError(HTTPTruncatedBody, "warc: http: %s cut short after %d decoded bytes: the record is probably truncated: %w", what, len(out), err)
		}
		if len(out) == 0 {
			out = data
		}
		return out, httpError(HTTPUndecodableBody, "warc: http: %s cannot be decoded: %w", what, err)
	}
	return out, nil
}

// readLimited reads rd to the end, at most max bytes; more is
// ErrBodyTooLarge with the first max bytes returned.
func readLimited(rd io.Reader, max int64, hint int) ([]byte, error) {
	buf := make([]byte, 0, min(int64(hint)*4+512, max+1, 1<<20))
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		room := min(int64(cap(buf)-len(buf)), max+1-int64(len(buf)))
		n, err := rd.Read(buf[len(buf) : len(buf)+int(room)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return buf[:max], ErrBodyTooLarge
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// HTTPResponse parses the record's block as an HTTP response (see
// ParseHTTPResponse). For a revisit record, which has no payload of its own,
// it returns the HTTP headers the record holds (if any) with Revisit set and
// an error wrapping ErrRevisit. For a resource record it returns the block
// as the body, with Content-Type from the record. Other record types wrap
// ErrNotResponse.
func (r *Record) HTTPResponse() (*HTTPResponse, error) {
	switch strings.ToLower(r.Type) {
	case TypeResponse:
		return ParseHTTPResponse(r.Content)
	case TypeRevisit:
		resp, _ := ParseHTTPResponse(r.Content)
		resp.Body, resp.Revisit = nil, true
		refers := r.Header.Get("WARC-Refers-To-Target-URI")
		if refers == "" {
			refers = r.Header.Get(FieldRefersTo)
		}
		return resp, fmt.Errorf("warc: %s (%s): %w", r.TargetURI, refers, ErrRevisit)
	case TypeResource:
		resp := &HTTPResponse{Header: http.Header{}, Body: r.Content}
		if ct := r.ContentType(); ct != "" {
			resp.Header.Set("Content-Type", ct)
		}
		return resp, nil
	}
	return &HTTPResponse{Header: http.Header{}}, fmt.Errorf("warc: %s record: %w", r.Type, ErrNotResponse)
}
