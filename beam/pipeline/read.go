package pipeline

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice/warc"
)

// Page is an HTML response found in an archive, on its way to the cleaner.
type Page struct {
	URL string
	// Date is the capture date (WARC-Date) in RFC 3339, UTC; "" if the
	// record has none.
	Date string
	// ContentType is the HTTP Content-Type, whose charset the cleaner
	// honours; "" if the response had none.
	ContentType string
	// Body is the decoded HTTP body.
	Body []byte
	// File and Offset say where the record is: the archive's path and the
	// record's offset in it (of its gzip member when the member holds
	// several records, as in a file compressed whole).
	File   string
	Offset int64
}

// Names of the counters, in namespace Namespace.
const (
	Namespace = "sluice"

	CounterFiles   = "files"   // archives read
	CounterRecords = "records" // records read whole or truncated
	CounterPages   = "pages"   // HTML responses sent to the cleaner
	CounterCleaned = "cleaned" // pages cleaned and written out
	// CounterEmptyText counts cleaned pages in which nothing was kept (they
	// are written out, with an empty text).
	CounterEmptyText = "empty_text"
	// CounterTruncated counts records longer than MaxRecordBytes or marked
	// WARC-Truncated by the crawler; they are cleaned from what there is.
	CounterTruncated = "truncated"
	// CounterPartialBody counts HTTP bodies that could not be decoded
	// whole (cut short, or past the decoding cap); they are cleaned from
	// what was decoded.
	CounterPartialBody = "partial_body"

	// Skipped records, by reason.
	SkipNotResponse = "skipped_not_response" // warcinfo, request, metadata, conversion...
	SkipRevisit     = "skipped_revisit"      // no payload of its own
	SkipStatus      = "skipped_status"       // HTTP status other than 2xx
	SkipNotHTML     = "skipped_not_html"     // Content-Type (or sniffed type) not HTML
	SkipEmptyBody   = "skipped_empty_body"   // nothing to clean

	// Failures, by kind: the pipeline goes on without the item.
	FailDamaged = "failed_damaged" // damaged bytes or records (warc.RecordError)
	FailHTTP    = "failed_http"    // HTTP message with no decodable body
	FailClean   = "failed_clean"   // the cleaner refused the page (binary data...)
)

// Counters are declared once; beam.NewCounter only names them.
var (
	filesRead     = beam.NewCounter(Namespace, CounterFiles)
	recordsRead   = beam.NewCounter(Namespace, CounterRecords)
	pagesFound    = beam.NewCounter(Namespace, CounterPages)
	truncated     = beam.NewCounter(Namespace, CounterTruncated)
	partialBodies = beam.NewCounter(Namespace, CounterPartialBody)
	damaged       = beam.NewCounter(Namespace, FailDamaged)
	dropped       = map[string]beam.Counter{} // by the reasons selectPage gives
)

func init() {
	for _, name := range []string{SkipNotResponse, SkipRevisit, SkipStatus, SkipNotHTML, SkipEmptyBody, FailHTTP} {
		dropped[name] = beam.NewCounter(Namespace, name)
	}
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(Page), error](&readWARCFn{})
	register.Emitter1[Page]()
}

// readWARCFn reads one archive and emits its HTML responses. It opens the
// file with Beam's file system API, so that any registered scheme works,
// and leaves gzip to package warc, which reads per-record gzip members
// (and their offsets) itself.
type readWARCFn struct {
	MaxRecordBytes int64
}

func (fn *readWARCFn) ProcessElement(ctx context.Context, file fileio.FileMetadata, emit func(Page)) error {
	fs, err := filesystem.New(ctx, file.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, file.Path)
	if err != nil {
		return fmt.Errorf("%s: %w", file.Path, err)
	}
	defer rc.Close()
	filesRead.Inc(ctx, 1)

	r := warc.NewReader(rc, warc.Options{MaxRecordBytes: fn.MaxRecordBytes})
	for rec, err := range r.Records() {
		if err != nil {
			var re *warc.RecordError
			if !errors.As(err, &re) {
				// Not an archive at all, or the file could not be read:
				// fail, so that the runner retries or reports it.
				return fmt.Errorf("%s: %w", file.Path, err)
			}
			damaged.Inc(ctx, 1)
			log.Warnf(ctx, "%s: %v", file.Path, err)
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		recordsRead.Inc(ctx, 1)
		page, why, notes := selectPage(rec)
		if notes&noteTruncated != 0 {
			truncated.Inc(ctx, 1)
		}
		if notes&notePartialBody != 0 {
			partialBodies.Inc(ctx, 1)
		}
		if why != "" {
			dropped[why].Inc(ctx, 1)
			continue
		}
		page.File = file.Path
		pagesFound.Inc(ctx, 1)
		emit(page)
	}
	return nil
}

// Notes on a record that selectPage keeps.
const (
	noteTruncated = 1 << iota
	notePartialBody
)

// selectPage decides whether rec holds an HTML page to clean: a response
// or resource record with a 2xx status (or none), an HTML Content-Type
// (text/html or application/xhtml+xml; sniffed when absent) and a body.
// It returns the page, or the name of the counter that says why not
// (a Skip* constant, or FailHTTP). The page's File is left empty.
func selectPage(rec *warc.Record) (page Page, why string, notes int) {
	switch strings.ToLower(rec.Type) {
	case warc.TypeResponse, warc.TypeResource:
	case warc.TypeRevisit:
		return Page{}, SkipRevisit, 0
	default:
		return Page{}, SkipNotResponse, 0
	}
	if rec.Truncated || rec.Header.Get(warc.FieldTruncated) != "" {
		notes |= noteTruncated
	}
	resp, err := rec.HTTPResponse()
	if err != nil {
		if len(resp.Body) == 0 {
			return Page{}, FailHTTP, notes
		}
		notes |= notePartialBody
	}
	if resp.Status != 0 && (resp.Status < 200 || resp.Status > 299) {
		return Page{}, SkipStatus, notes
	}
	if len(resp.Body) == 0 {
		return Page{}, SkipEmptyBody, notes
	}
	ct := resp.Header.Get("Content-Type")
	if !isHTML(ct, resp.Body) {
		return Page{}, SkipNotHTML, notes
	}
	page = Page{URL: rec.TargetURI, ContentType: ct, Body: resp.Body, Offset: rec.Offset}
	if rec.Shared {
		page.Offset = rec.MemberOffset
	}
	if !rec.Date.IsZero() {
		page.Date = rec.Date.UTC().Format(time.RFC3339)
	}
	return page, "", notes
}

// isHTML reports whether a response with Content-Type ct and body is an
// HTML document. Without a Content-Type the body is sniffed as browsers
// do (net/http.DetectContentType).
func isHTML(ct string, body []byte) bool {
	if strings.TrimSpace(ct) == "" {
		ct = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		// A malformed parameter list: the type before it still counts.
		mt, _, _ = strings.Cut(ct, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}
