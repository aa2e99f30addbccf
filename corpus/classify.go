package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/warc"
)

// The reasons are buckets: a handful of fixed phrases, never a message with
// offsets or quoted bytes in it, so that a damaged archive gives a short
// summary. The full message goes to Options.Report.

// archiveReason names the kind of damage a *warc.RecordError reports.
func archiveReason(e *warc.RecordError) string {
	r := e.Reason
	switch {
	case strings.Contains(r, "not a record"):
		return "archive: garbage between records"
	case strings.Contains(r, "gzip member cut short"):
		return "archive: truncated gzip member"
	case strings.Contains(r, "gzip member header"):
		return "archive: damaged gzip member header"
	case strings.Contains(r, "damaged gzip member"):
		return "archive: damaged gzip member"
	case strings.Contains(r, "has no Content-Length"):
		return "archive: missing Content-Length"
	case strings.Contains(r, "bad Content-Length"):
		return "archive: bad Content-Length"
	case strings.Contains(r, "(a required field)"):
		return "archive: missing required header field"
	case strings.Contains(r, "Block-Digest"):
		return "archive: block digest mismatch"
	case strings.Contains(r, "ends inside"), strings.Contains(r, "runs past the end"):
		return "archive: truncated record"
	case strings.Contains(r, "Archive-length"):
		return "archive: wrong ARC Archive-length"
	case strings.Contains(r, "Content-Length"):
		return "archive: wrong Content-Length"
	case strings.Contains(r, "ARC URL line"):
		return "archive: bad ARC URL line"
	case strings.Contains(r, "header"), strings.Contains(r, "version line"):
		return "archive: bad record header"
	}
	return "archive: damaged record"
}

// httpReason names what is wrong with an HTTP response (an error of
// warc.ParseHTTPResponse).
func httpReason(err error) string {
	m := err.Error()
	switch {
	case strings.Contains(m, "status line"):
		return "http: bad status line"
	case strings.Contains(m, "cut short"), strings.Contains(m, "truncated"):
		return "http: truncated body"
	case strings.Contains(m, "chunk"):
		return "http: bad chunked encoding"
	case strings.Contains(m, "unsupported Content-Encoding"):
		return "http: unsupported Content-Encoding"
	case strings.Contains(m, "cannot be decoded"), strings.Contains(m, "body:"):
		return "http: undecodable body"
	}
	return "http: bad response"
}

// cleanOutcome sorts an error of Cleaner.Clean: empty and binary pages are
// skipped, anything else fails.
func cleanOutcome(err error) (skipped bool, reason string) {
	switch {
	case errors.Is(err, ingest.ErrEmpty):
		return true, ReasonEmpty
	case errors.Is(err, ingest.ErrBinary):
		return true, ReasonNotHTML
	case strings.Contains(err.Error(), "parsing HTML"):
		return false, "clean: unparseable HTML"
	}
	return false, "clean: error"
}

// statusReason is the skip reason of a non-2xx HTTP status.
func statusReason(status int) string { return fmt.Sprintf("status %d", status) }

// htmlType reports whether the media type of a Content-Type value is HTML
// or XHTML; known is false when the value is empty or says nothing (a
// generic binary type some servers send for everything), in which case the
// payload is sniffed.
func htmlType(ct string) (html, known bool) {
	ct = strings.TrimSpace(ct)
	if ct == "" {
		return false, false
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		// "text/html;;charset=..." and worse: take what precedes ';'.
		mt, _, _ = strings.Cut(ct, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	switch mt {
	case "text/html", "application/xhtml+xml", "application/vnd.wap.xhtml+xml", "text/xhtml":
		return true, true
	case "", "unknown/unknown", "application/unknown", "*/*", "application/octet-stream", "binary/octet-stream":
		return false, false
	}
	return false, true
}

// sniffHTML reports whether a payload without a useful Content-Type looks
// like HTML.
func sniffHTML(body []byte) bool {
	if strings.HasPrefix(http.DetectContentType(body), "text/html") {
		return true
	}
	head := body[:min(len(body), 1024)]
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) == 0 || head[0] != '<' {
		return false
	}
	low := bytes.ToLower(head)
	return bytes.Contains(low, []byte("<html")) || bytes.Contains(low, []byte("<body")) || bytes.Contains(low, []byte("<text id="))
}

// isBlank reports whether b holds only white space.
func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
