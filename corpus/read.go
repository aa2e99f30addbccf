package corpus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/warc"
)

// reader reads the inputs one after the other and hands out one item per
// record, with what can be decided before cleaning already decided. It runs
// on one goroutine.
type reader struct {
	maxRecord int64
	outAbs    string
	dd        *dedup
	// send passes an item on; false means the run is stopping.
	send func(*item) bool
}

// itemOverhead is what an item costs besides its payload, for the
// in-flight budget.
const itemOverhead = 512

// run reads every input. An input it cannot finish (the run was stopped)
// gets no end marker.
func (r *reader) run(ctx context.Context, ins []*input) {
	for _, in := range ins {
		if !r.send(&item{kind: kStart, in: in}) {
			return
		}
		var err error
		ok := true
		switch in.kind {
		case kindArchive:
			ok, err = r.archive(ctx, in)
		case kindHTML:
			it := r.htmlFile(in, in.path)
			err = it.damage
			ok = r.send(it)
		case kindDir:
			ok, err = r.dir(ctx, in)
		}
		if !ok || ctx.Err() != nil {
			return
		}
		if !r.send(&item{kind: kEnd, in: in, err: err}) {
			return
		}
	}
}

// archive reads the records of a WARC or ARC file. ok is false when the
// run is stopping; err is an input-level error.
func (r *reader) archive(ctx context.Context, in *input) (ok bool, err error) {
	f, err := os.Open(in.path)
	if err != nil {
		return true, err
	}
	defer f.Close()
	for rec, err := range warc.NewReader(f, warc.Options{MaxRecordBytes: r.maxRecord}).Records() {
		if ctx.Err() != nil {
			return false, nil
		}
		if err != nil {
			var re *warc.RecordError
			if !errors.As(err, &re) {
				// Not an archive, or an I/O error: the input ends here.
				return true, err
			}
			it := damageItem(in, re)
			if !r.send(it) {
				return false, nil
			}
			continue
		}
		if !r.send(r.record(in, rec)) {
			return false, nil
		}
	}
	return true, nil
}

// record makes the item of an archive record.
func (r *reader) record(in *input, rec *warc.Record) (it *item) {
	it = &item{kind: kRecord, in: in, weight: itemOverhead, uri: rec.TargetURI, date: rec.Date,
		src: render.JSONSource{File: in.path, Offset: rec.Offset, Length: rec.Length, RecordID: rec.ID()}}
	it.pos = rec.Offset + rec.Length
	if rec.Shared {
		mo := rec.MemberOffset
		it.src.MemberOffset = &mo
		it.pos = mo
	}
	defer func() {
		if p := recover(); p != nil {
			it.body, it.weight = nil, itemOverhead
			it.failed, it.skipped, it.reason, it.detail = true, false, "internal: panic", fmt.Sprint(p)
		}
	}()
	v := SelectRecord(rec, r.maxRecord)
	if !v.Skipped && !v.Failed && r.dd != nil && r.dd.seen(v.Body) {
		v = Verdict{Skipped: true, Reason: ReasonDuplicate}
	}
	if v.Skipped || v.Failed {
		it.skipped, it.failed, it.reason, it.detail = v.Skipped, v.Failed, v.Reason, v.Detail
		return it
	}
	body := v.Body
	it.body, it.ctype = body, v.ContentType
	it.weight += int64(len(rec.Content))
	if n := len(rec.Content) - len(body); n < 0 || &rec.Content[n] != &body[0] {
		it.weight += int64(len(body)) // decoded into a buffer of its own
	}
	return it
}

// dir reads the HTML files below a directory, in lexical order.
func (r *reader) dir(ctx context.Context, in *input) (ok bool, err error) {
	ok = true
	var errs []string
	var read int64 // bytes of the files so far, for progress
	inputs.Walk(in.path, r.outAbs, func(path string, d fs.DirEntry) bool {
		if ctx.Err() != nil {
			ok = false
			return false
		}
		name := d.Name()
		if !d.Type().IsRegular() || inputs.IsArchive(name) || !inputs.IsHTML(name) {
			return true
		}
		it := r.htmlFile(in, path)
		if it.damage != nil {
			errs = append(errs, path+": "+it.damage.Error())
		}
		read += max(it.src.Length, 0)
		it.pos = read
		if !r.send(it) {
			ok = false
			return false
		}
		return true
	}, func(e error) { errs = append(errs, e.Error()) })
	if len(errs) > 0 {
		err = fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return ok, err
}

// htmlFile makes the item of one HTML file, plain or gzip-compressed.
func (r *reader) htmlFile(in *input, path string) *item {
	it := &item{kind: kRecord, in: in, weight: itemOverhead, src: render.JSONSource{File: path}}
	fail := func(err error) *item {
		it.failed, it.detail = true, err.Error()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			it.reason = "read: no such file"
		case errors.Is(err, fs.ErrPermission):
			it.reason = "read: permission denied"
		default:
			it.reason = "read: I/O error"
		}
		return it
	}
	skip := func(reason, detail string) *item {
		it.skipped, it.reason, it.detail = true, reason, detail
		return it
	}
	f, err := os.Open(path)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	it.src.Length = st.Size()
	it.pos = st.Size()
	if st.Size() > r.maxRecord {
		return skip(ReasonTooLarge, fmt.Sprintf("%d bytes, more than %d", st.Size(), r.maxRecord))
	}
	data, err := io.ReadAll(io.LimitReader(f, r.maxRecord+1))
	if err != nil {
		return fail(err)
	}
	data, err = inputs.Gunzip(data, r.maxRecord)
	switch {
	case errors.Is(err, inputs.ErrTooLarge):
		return skip(ReasonTooLarge, fmt.Sprintf("more than %d bytes", r.maxRecord))
	case err != nil && len(data) == 0:
		it.failed, it.reason, it.detail = true, "read: damaged gzip", err.Error()
		return it
	case err != nil:
		// Cut short: the bytes before the damage are cleaned, and the
		// input is reported as damaged (an input error), as sluice clean
		// does.
		it.damage = fmt.Errorf("damaged gzip: %w; its %d bytes before the damage were cleaned", err, len(data))
	}
	if isBlank(data) {
		return skip(ReasonEmpty, "")
	}
	if r.dd != nil && r.dd.seen(data) {
		return skip(ReasonDuplicate, "")
	}
	it.body = data
	it.weight += int64(len(data))
	return it
}

// damageItem is the item of damage an archive reader reported: a failed
// record, or a damaged span, with its place in the input.
func damageItem(in *input, re *warc.RecordError) *item {
	it := &item{kind: kRecord, in: in, weight: itemOverhead, pos: re.Offset,
		src:    render.JSONSource{File: in.path, Offset: re.Offset, Length: -1},
		failed: true, reason: DamageReason(re), detail: recordErrorDetail(re)}
	switch {
	case re.InMember < 0:
		it.src.Length = re.Length
		it.pos = re.End
	case re.End >= 0:
		// A gzip member that failed after it yielded records: Offset to
		// End is the member.
		it.src.Length = re.End - re.Offset
		it.pos = re.End
	}
	if re.InMember >= 0 {
		mo := re.Offset
		it.src.MemberOffset = &mo
		it.where = &inMember{Offset: re.InMember, Length: re.Length}
	}
	return it
}

// recordErrorDetail is a RecordError's message without its offset, which
// Problem carries.
func recordErrorDetail(e *warc.RecordError) string {
	var b strings.Builder
	b.WriteString(e.Reason)
	if e.InMember >= 0 {
		fmt.Fprintf(&b, " (at decompressed offset %d in the gzip member)", e.InMember)
	} else if e.Length > 0 {
		fmt.Fprintf(&b, " (%d bytes)", e.Length)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}
