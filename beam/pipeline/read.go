package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/warc"
)

// Page is an HTML response found in an archive, on its way to the cleaner.
type Page struct {
	URL string
	// Date is the capture date (WARC-Date) as corpus.FormatDate gives it:
	// RFC 3339, UTC; "" if the record has none.
	Date string
	// ContentType is the HTTP Content-Type, whose charset the cleaner
	// honours; "" if the response had none.
	ContentType string
	// Body is the decoded HTTP body; nil once the page is cleaned.
	Body []byte
	// File, Offset and Length say where the record is: the archive's path,
	// the record's offset and length in it (see warc.Record: when Shared,
	// the gzip member holding the record starts at MemberOffset and Offset
	// and Length count decompressed bytes in it), and RecordID its
	// WARC-Record-ID.
	File           string
	Offset, Length int64
	Shared         bool
	MemberOffset   int64
	RecordID       string
}

// order is the page's place in its input: records are read by file, then
// member, then offset, as sluice corpus reads them.
func (p *Page) order() order {
	at := p.Offset
	if p.Shared {
		at = p.MemberOffset
	}
	return order{File: p.File, At: at, AtSub: p.Offset}
}

// source is the "source" of the page's JSON document.
func (p *Page) source() *render.JSONSource {
	src := &render.JSONSource{File: p.File, Offset: p.Offset, Length: p.Length, RecordID: p.RecordID}
	if p.Shared {
		mo := p.MemberOffset
		src.MemberOffset = &mo
	}
	return src
}

func init() {
	register.DoFn3x1[context.Context, fileio.FileMetadata, func(Page), error](&readWARCFn{})
	register.Emitter1[Page]()
}

// readWARCFn reads one archive and emits its HTML responses, deciding
// about each record as sluice corpus does (corpus.SelectRecord) and
// counting the others by reason. It opens the file with Beam's file system
// API, so that any registered scheme works, and leaves gzip to package
// warc, which reads per-record gzip members (and their offsets) itself.
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
	count(ctx, CounterFiles, 1)

	r := warc.NewReader(rc, warc.Options{MaxRecordBytes: fn.MaxRecordBytes})
	for rec, err := range r.Records() {
		if err != nil {
			var re *warc.RecordError
			if !errors.As(err, &re) {
				// Not an archive at all, or the file could not be read:
				// fail, so that the runner retries or reports it.
				return fmt.Errorf("%s: %w", file.Path, err)
			}
			count(ctx, CounterRecords, 1)
			countVerdict(ctx, corpus.Verdict{Failed: true, Reason: corpus.DamageReason(re)})
			log.Warnf(ctx, "%s: %v", file.Path, err)
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		count(ctx, CounterRecords, 1)
		v := corpus.SelectRecord(rec, fn.MaxRecordBytes)
		if !v.Written() {
			countVerdict(ctx, v)
			continue
		}
		emit(Page{URL: rec.TargetURI, Date: corpus.FormatDate(rec.Date), ContentType: v.ContentType, Body: v.Body,
			File: file.Path, Offset: rec.Offset, Length: rec.Length, Shared: rec.Shared, MemberOffset: rec.MemberOffset,
			RecordID: rec.ID()})
	}
	return nil
}
