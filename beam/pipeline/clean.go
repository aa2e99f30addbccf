package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/render"
)

// Doc is one line of the output: a cleaned page, as a JSON object with
// these field names.
type Doc struct {
	URL  string `json:"url"`
	Host string `json:"host"` // of URL, lower case, without port
	Date string `json:"date"` // capture date, RFC 3339 UTC; "" if unknown
	// Title is the page's <title>.
	Title string `json:"title"`
	// Text is the kept text in the "text" format of package render: one
	// paragraph per segment (heading, paragraph, list item), a blank line
	// between segments.
	Text string `json:"text"`
	// WARCFile and WARCOffset point back to the record (see Page).
	WARCFile   string `json:"warc_file"`
	WARCOffset int64  `json:"warc_offset"`
}

var (
	cleaned   = beam.NewCounter(Namespace, CounterCleaned)
	emptyText = beam.NewCounter(Namespace, CounterEmptyText)
	failClean = beam.NewCounter(Namespace, FailClean)
)

func init() {
	register.DoFn3x1[context.Context, Page, func(string), error](&cleanFn{})
	register.Emitter1[string]()
}

// cleanFn cleans pages into JSON lines. Its Cleaner is built in Setup,
// once per DoFn instance, and shared by every bundle that instance
// processes (a Cleaner is safe for concurrent use and holds only
// configuration; the embedded model is parsed once per process by sluice).
type cleanFn struct {
	// Options are the sluice.Options, JSON-encoded: they hold a field
	// (Pipeline, a ready filter) that Beam cannot encode, which must be
	// nil here (Build checks it).
	Options []byte

	cleaner *sluice.Cleaner
	text    render.Renderer
}

// newCleanFn returns the DoFn cleaning with o.
func newCleanFn(o sluice.Options) (*cleanFn, error) {
	if o.Pipeline != nil {
		return nil, errors.New("pipeline: cleaner options: a ready Pipeline cannot travel to the workers; give the filter as an expression (Filter)")
	}
	data, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("pipeline: cleaner options: %w", err)
	}
	return &cleanFn{Options: data}, nil
}

func (fn *cleanFn) Setup() error {
	var o sluice.Options
	if err := json.Unmarshal(fn.Options, &o); err != nil {
		return fmt.Errorf("pipeline: cleaner options: %w", err)
	}
	c, err := sluice.New(o)
	if err != nil {
		return err
	}
	r, err := render.Lookup("text", render.Options{})
	if err != nil {
		return err
	}
	fn.cleaner, fn.text = c, r
	return nil
}

func (fn *cleanFn) ProcessElement(ctx context.Context, p Page, emit func(string)) error {
	res, err := fn.cleaner.Clean(ctx, sluice.Input{Data: p.Body, ContentType: p.ContentType, URL: p.URL})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		failClean.Inc(ctx, 1)
		log.Warnf(ctx, "%s (%s at offset %d): %v", p.URL, p.File, p.Offset, err)
		return nil
	}
	var text bytes.Buffer
	if err := fn.text.Render(&text, res.Page); err != nil {
		return err
	}
	doc := Doc{
		URL:        p.URL,
		Host:       host(p.URL),
		Date:       p.Date,
		Title:      res.Page.Meta.Title,
		Text:       strings.TrimRight(text.String(), "\n"),
		WARCFile:   p.File,
		WARCOffset: p.Offset,
	}
	line, err := marshal(doc)
	if err != nil {
		return err
	}
	if doc.Text == "" {
		emptyText.Inc(ctx, 1)
	}
	cleaned.Inc(ctx, 1)
	emit(line)
	return nil
}

// marshal writes d as one line of JSON, leaving <, > and & as they are.
func marshal(d Doc) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// host returns the host name of rawURL in lower case, without port or
// brackets; "" if rawURL has none.
func host(rawURL string) string {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}
