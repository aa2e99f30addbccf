package corpus

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/warc"
)

// The reasons are what users see in summaries and scripts match: they
// must not change when warc adds a kind or rewords a message.
func TestArchiveReason(t *testing.T) {
	want := map[warc.DamageKind]string{
		warc.DamageOther:                 "archive: damaged record",
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
	for k := warc.DamageOther; !strings.HasPrefix(k.String(), "DamageKind("); k++ {
		w, ok := want[k]
		if !ok {
			t.Errorf("warc.%v has no reason here", k)
			continue
		}
		if got := DamageReason(&warc.RecordError{Kind: k, Reason: "wording that may change"}); got != w {
			t.Errorf("%v: reason %q, want %q", k, got, w)
		}
	}
}

func TestHTTPReason(t *testing.T) {
	cases := []struct {
		block, want string
	}{
		{"HTTP/1.1 abc OK\r\n\r\nx", "http: bad status line"},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "http: truncated body"},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nzz\r\nxx\r\n0\r\n\r\n", "http: bad chunked encoding"},
		{"HTTP/1.1 200 OK\r\nContent-Encoding: zstd\r\n\r\n<p>x</p>", "http: unsupported Content-Encoding"},
		{"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\n<p>not brotli at all</p>", "http: undecodable body"},
	}
	for _, c := range cases {
		_, err := warc.ParseHTTPResponse([]byte(c.block))
		if err == nil {
			t.Errorf("%q: no error", c.block)
			continue
		}
		if got := httpReason(err); got != c.want {
			t.Errorf("%q: reason %q, want %q (%v)", c.block, got, c.want, err)
		}
	}
	if got := httpReason(errors.New("something else")); got != "http: bad response" {
		t.Errorf("other error: reason %q", got)
	}
	if got := httpReason(&warc.HTTPError{Kind: warc.HTTPOther, Err: errors.New("x")}); got != "http: bad response" {
		t.Errorf("HTTPOther: reason %q", got)
	}
}

func TestCleanOutcome(t *testing.T) {
	cases := []struct {
		err     error
		skipped bool
		want    string
	}{
		{ingest.ErrEmpty, true, ReasonEmpty},
		{fmt.Errorf("x: %w", ingest.ErrBinary), true, ReasonNotHTML},
		{fmt.Errorf("%w: %w", ingest.ErrUnparseable, errors.New("too deep")), false, "clean: unparseable HTML"},
		{errors.New("parsing HTML, said someone else"), false, "clean: error"},
	}
	for _, c := range cases {
		if skipped, got := cleanOutcome(c.err); skipped != c.skipped || got != c.want {
			t.Errorf("%v: %v %q, want %v %q", c.err, skipped, got, c.skipped, c.want)
		}
	}
}
