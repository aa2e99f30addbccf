package pipeline

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/render"
)

// Cleaned is a page cleaned, on its way to the output.
type Cleaned struct {
	Order order
	// Rec is the page's record, without its body.
	Rec Page
	// Page is the cleaned page (encoding/gob) while the paragraph
	// deduplication has yet to correct it, and Paragraphs the keys of its
	// paragraphs (fingerprint.ParagraphKeys); both nil once it is rendered.
	Page       []byte
	Paragraphs []uint64
	// Site is what its site model did, kept with Page for the rendering
	// (nil without a model).
	Site *render.JSONSite
	// Line is the page's line of output, without the newline: its JSON
	// document as sluice corpus writes it (corpus.AppendJSONLine).
	Line string
	// Sig is its near-duplicate signature (fingerprint.Signature, binary),
	// with Options.NearDuplicate.
	Sig []byte
}

// finishing says what becomes of a page once cleaned (and corrected by
// its site model): kept whole for the paragraph deduplication (Keep), or
// rendered, and signed for the near-duplicate check (Sign).
type finishing struct {
	Keep, Sign bool
}

// finish renders p into c, or keeps it (see finishing).
func (f finishing) finish(c *Cleaned, p *page.Page, site *render.JSONSite) error {
	if f.Keep {
		var b bytes.Buffer
		if err := gob.NewEncoder(&b).Encode(p); err != nil {
			return fmt.Errorf("%s: encoding the cleaned page: %w", c.Rec.URL, err)
		}
		c.Page, c.Paragraphs, c.Site = b.Bytes(), fingerprint.ParagraphKeys(p), site
		return nil
	}
	c.Line = strings.TrimSuffix(string(corpus.AppendJSONLine(nil, p, c.Rec.Date, c.Rec.source(), site)), "\n")
	c.Page, c.Paragraphs, c.Site = nil, nil, nil
	if f.Sign {
		sig := fingerprint.SignatureOf(p)
		b, err := sig.MarshalBinary()
		if err != nil {
			return err
		}
		c.Sig = b
	}
	return nil
}

func init() {
	register.DoFn3x1[context.Context, Page, func(Cleaned), error](&cleanFn{})
	register.Emitter1[Cleaned]()
	register.DoFn3x0[context.Context, Cleaned, func(string)](&writtenFn{})
	register.Emitter1[string]()
}

// cleaner is the part of the DoFns that clean: the cleaner's options, and
// the Cleaner built from them in Setup, once per DoFn instance, and shared
// by every bundle that instance processes (a Cleaner is safe for
// concurrent use and holds only configuration; the embedded model is
// parsed once per process by sluice).
type cleaner struct {
	// Options are the sluice.Options, JSON-encoded: they hold a field
	// (Pipeline, a ready filter) that Beam cannot encode, which must be
	// nil here (Build checks it).
	Options  []byte
	NoTables bool

	c *sluice.Cleaner
}

// newCleaner returns the cleaner of options o.
func newCleaner(o sluice.Options, noTables bool) (cleaner, error) {
	if o.Pipeline != nil {
		return cleaner{}, errors.New("pipeline: cleaner options: a ready Pipeline cannot travel to the workers; give the filter as an expression (Filter)")
	}
	data, err := json.Marshal(o)
	if err != nil {
		return cleaner{}, fmt.Errorf("pipeline: cleaner options: %w", err)
	}
	return cleaner{Options: data, NoTables: noTables}, nil
}

func (c *cleaner) setup() error {
	var o sluice.Options
	if err := json.Unmarshal(c.Options, &o); err != nil {
		return fmt.Errorf("pipeline: cleaner options: %w", err)
	}
	var err error
	c.c, err = sluice.New(o)
	return err
}

// clean cleans the page of p as sluice corpus does (corpus.CleanPage); a
// page not written is counted by its reason, and nil returned.
func (c *cleaner) clean(ctx context.Context, p *Page) (pg *page.Page) {
	v := func() (v corpus.Verdict) {
		defer func() {
			if r := recover(); r != nil {
				pg, v = nil, corpus.Verdict{Failed: true, Reason: "clean: panic", Detail: fmt.Sprint(r)}
			}
		}()
		pg, v = corpus.CleanPage(c.c, sluice.Input{Data: p.Body, ContentType: p.ContentType, URL: p.URL}, c.NoTables)
		return v
	}()
	p.Body = nil
	if !v.Written() {
		countVerdict(ctx, v)
		if v.Failed {
			log.Warnf(ctx, "%s (%s at offset %d): %s: %s", p.URL, p.File, p.Offset, v.Reason, v.Detail)
		}
		return nil
	}
	return pg
}

// cleanFn cleans pages one by one (without Options.Site).
type cleanFn struct {
	Cleaner   cleaner
	Finishing finishing
}

func (fn *cleanFn) Setup() error { return fn.Cleaner.setup() }

func (fn *cleanFn) ProcessElement(ctx context.Context, p Page, emit func(Cleaned)) error {
	pg := fn.Cleaner.clean(ctx, &p)
	if pg == nil {
		return nil
	}
	c := Cleaned{Order: p.order(), Rec: p}
	if err := fn.Finishing.finish(&c, pg, nil); err != nil {
		return err
	}
	emit(c)
	return nil
}

// writtenFn counts the pages written and passes their lines on.
type writtenFn struct{}

func (fn *writtenFn) ProcessElement(ctx context.Context, c Cleaned, emit func(string)) {
	count(ctx, CounterCleaned, 1)
	emit(c.Line)
}
