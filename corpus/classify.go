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

// archiveReasons name the kinds of damage a *warc.RecordError reports.
var archiveReasons = map[warc.DamageKind]string{
	warc.DamageGarbage:               "archive: garbage between records",
	warc.DamageGzipTruncated:         "archive: truncated gzip member",
	warc.DamageGzipHeader:            "archive: damaged gzip member header",
	warc.DamageGzipMember:            "archive: damaged gzip member",
	warc.DamageMissingContentLength:  "archive: missing Content-Length",
	warc.DamageBadContentLength:      "archive: bad Content-Length",
	warc.DamageMissingField:          "archive: missing required header field",
	warc.DamageDigestMismatch:        "archive: block digest mismatch",
	warc.DamageTruncatedRecord:       "archive: truncated record",
	warc.DamageWrongARCLength:        "archive: wrong ARC Archive-length",
	warc.DamageWrongContentLength:    "archive: wrong Content-Length",
	warc.DamageBadARCLine:            "archive: bad ARC URL line",
	warc.DamageBadHeader:             "archive: bad record header",
	warc.DamagePayloadDigestMismatch: "archive: payload digest mismatch",
	warc.DamageUnverifiable:          "archive: unverifiable record in a damaged gzip member",
}

// reasonUnverified is the reason of a record that nothing verified
// (warc.Record.Unverified): it is never cleaned.
const reasonUnverified = "archive: unverified record (from a damaged or unchecked gzip member)"

// DamageReason is the reason a damaged record or stretch of an archive (a
// *warc.RecordError) is counted failed for.
func DamageReason(e *warc.RecordError) string {
	if r, ok := archiveReasons[e.Kind]; ok {
		return r
	}
	return "archive: damaged record"
}

// httpReasons name the kinds of problem a *warc.HTTPError reports.
var httpReasons = map[warc.HTTPErrorKind]string{
	warc.HTTPBadStatusLine:       "http: bad status line",
	warc.HTTPTruncatedBody:       "http: truncated body",
	warc.HTTPBadChunking:         "http: bad chunked encoding",
	warc.HTTPUnsupportedEncoding: "http: unsupported Content-Encoding",
	warc.HTTPUndecodableBody:     "http: undecodable body",
}

// httpReason names what is wrong with an HTTP response (an error of
// warc.ParseHTTPResponse).
func httpReason(err error) string {
	var he *warc.HTTPError
	if errors.As(err, &he) {
		if r, ok := httpReasons[he.Kind]; ok {
			return r
		}
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

// Verdict is what becomes of a record: written out (neither Skipped nor
// Failed), or skipped or failed for Reason, a bucket of Counts, with
// Detail saying more.
type Verdict struct {
	Skipped, Failed bool
	Reason, Detail  string
	// Body and ContentType, for a record SelectRecord keeps, are the page
	// to clean: the decoded HTTP body (or a resource record's block) and
	// its Content-Type.
	Body        []byte
	ContentType string
}

// Written reports whether the record goes on: neither skipped nor failed.
func (v Verdict) Written() bool { return !v.Skipped && !v.Failed }

func skip(reason, detail string) Verdict {
	return Verdict{Skipped: true, Reason: reason, Detail: detail}
}

// SelectRecord decides what can be decided about an archive record before
// cleaning, as Run does (but for duplicates): a response or resource
// record that was read whole and verified, with a 2xx HTTP status (or
// none), an HTML Content-Type (or none, and a payload that looks like
// HTML) and a payload that is not blank goes on to cleaning; any other is
// skipped or failed for a reason. maxRecord is Options.MaxRecordBytes.
func SelectRecord(rec *warc.Record, maxRecord int64) Verdict {
	if rec.Unverified {
		// Nothing vouches for it whole: never cleaned.
		return Verdict{Failed: true, Reason: reasonUnverified}
	}
	typ := strings.ToLower(rec.Type)
	switch typ {
	case warc.TypeResponse, warc.TypeResource:
	case warc.TypeRevisit:
		return skip(ReasonRevisit, "")
	default:
		return skip(ReasonNotResponse, rec.Type+" record")
	}
	if rec.Truncated {
		return skip(ReasonTooLarge, fmt.Sprintf("record block longer than %d bytes", maxRecord))
	}
	var body []byte
	var ctype string
	status := 0
	if typ == warc.TypeResource {
		body, ctype = rec.Content, rec.ContentType()
	} else {
		resp, err := warc.ParseHTTPResponseLimit(rec.Content, maxRecord)
		status = resp.Status
		if err != nil {
			switch {
			case errors.Is(err, warc.ErrBodyTooLarge):
				return skip(ReasonTooLarge, err.Error())
			case status != 0 && (status < 200 || status > 299):
				return skip(statusReason(status), "")
			}
			return Verdict{Failed: true, Reason: httpReason(err), Detail: err.Error()}
		}
		body, ctype = resp.Body, resp.Header.Get("Content-Type")
		if rct := rec.ContentType(); ctype == "" && !strings.HasPrefix(strings.ToLower(rct), "application/http") {
			// The record's own type: an ARC URL line's, or a WARC
			// response that is not HTTP (dns:, ftp:).
			ctype = rct
		}
	}
	if status != 0 && (status < 200 || status > 299) {
		return skip(statusReason(status), "")
	}
	isHTML, known := htmlType(ctype)
	if known && !isHTML {
		return skip(ReasonNotHTML, ctype)
	}
	if isBlank(body) {
		return skip(ReasonEmpty, "")
	}
	if !known && !sniffHTML(body) {
		return skip(ReasonNotHTML, "no Content-Type, and the payload does not look like HTML")
	}
	return Verdict{Body: body, ContentType: ctype}
}
