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
	switch e.Kind {
	case warc.DamageGarbage:
		return "archive: garbage between records"
	case warc.DamageGzipTruncated:
		return "archive: truncated gzip member"
	case warc.DamageGzipHeader:
		return "archive: damaged gzip member header"
	case warc.DamageGzipMember:
		return "archive: damaged gzip member"
	case warc.DamageMissingContentLength:
		return "archive: missing Content-Length"
	case warc.DamageBadContentLength:
		return "archive: bad Content-Length"
	case warc.DamageMissingField:
		return "archive: missing required header field"
	case warc.DamageDigestMismatch:
		return "archive: block digest mismatch"
	case warc.DamageTruncatedRecord:
		return "archive: truncated record"
	case warc.DamageWrongARCLength:
		return "archive: wrong ARC Archive-length"
	case warc.DamageWrongContentLength:
		return "archive: wrong Content-Length"
	case warc.DamageBadARCLine:
		return "archive: bad ARC URL line"
	case warc.DamageBadHeader:
		return "archive: bad record header"
	}
	return "archive: damaged record"
}

// httpReason names what is wrong with an HTTP response (an error of
// warc.ParseHTTPResponse).
func httpReason(err error) string {
	var he *warc.HTTPError
	if !errors.As(err, &he) {
		return "http: bad response"
	}
	switch he.Kind {
	case warc.HTTPBadStatusLine:
		return "http: bad status line"
	case warc.HTTPTruncatedBody:
		return "http: truncated body"
	case warc.HTTPBadChunking:
		return "http: bad chunked encoding"
	case warc.HTTPUnsupportedEncoding:
		return "http: unsupported Content-Encoding"
	case warc.HTTPUndecodableBody:
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
	case errors.Is(err, ingest.ErrUnparseable):
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
