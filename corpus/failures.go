package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
)

// failuresName is the list of failures Run writes beside summary.json.
const failuresName = "failures.jsonl"

// MaxFailureLines caps the lines of failures.jsonl; the failures beyond
// are counted in Summary.FailuresLeftOut.
const MaxFailureLines = 10_000

// MaxSkippedFiles caps Summary.SkippedFiles; the files beyond are counted
// in Summary.SkippedFilesLeftOut.
const MaxSkippedFiles = 1_000

// failureCap is MaxFailureLines, or the cap a test set.
func (o *Options) failureCap() int64 {
	if o.maxFailureLines > 0 {
		return int64(o.maxFailureLines)
	}
	return MaxFailureLines
}

// skippedFilesCap is MaxSkippedFiles, or the cap a test set.
func (o *Options) skippedFilesCap() int {
	if o.maxSkippedFiles > 0 {
		return o.maxSkippedFiles
	}
	return MaxSkippedFiles
}

// Failure is one line of failures.jsonl: a record that failed, a damaged
// stretch of an archive, or an input that could not be read. Every failed
// record of Summary.Counts has its line (up to MaxFailureLines), so that
// the summary's failed counts and the file add up.
type Failure struct {
	// File is the file: the archive, or the HTML file (also when it was
	// found below a directory given as input).
	File string `json:"file"`
	// Offset and Length place the record or the damaged bytes in the
	// file (absent for an HTML file, Length absent when unknown). For
	// damage inside a gzip member that holds other records (a file
	// compressed as one gzip stream), Offset and Length are the member's
	// and InMember says where in its decompressed data.
	Offset   *int64    `json:"offset,omitempty"`
	Length   *int64    `json:"length,omitempty"`
	InMember *inMember `json:"in_member,omitempty"`
	URI      string    `json:"uri,omitempty"`
	RecordID string    `json:"record_id,omitempty"`
	// Reason is the bucket the failure is counted in (see Counts.Failed),
	// or "input error" for an input that could not be read (see
	// Summary.InputErrors); Detail says more.
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// inMember places damage in the decompressed data of a gzip member: its
// offset there, and its length (-1: to the end of the member, which could
// not be decompressed further).
type inMember struct {
	Offset int64 `json:"offset"`
	Length int64 `json:"length"`
}

// failureLog holds the failures of a run for failures.jsonl: at most limit
// (MaxFailureLines), the others counted by input.
type failureLog struct {
	limit   int64
	lines   []failureLine
	leftOut map[*input]int64
}

type failureLine struct {
	in *input
	f  Failure
}

func (l *failureLog) add(in *input, f Failure) {
	if int64(len(l.lines)) < l.limit {
		l.lines = append(l.lines, failureLine{in, f})
		return
	}
	if l.leftOut == nil {
		l.leftOut = map[*input]int64{}
	}
	l.leftOut[in]++
}

// failureOf is the line of a failed item.
func failureOf(it *item) Failure {
	f := Failure{File: it.src.File, URI: it.uri, RecordID: it.src.RecordID, Reason: it.reason, Detail: it.detail, InMember: it.where}
	if f.File == "" {
		f.File = it.in.path
	}
	if it.in.kind == kindArchive {
		off := it.src.Offset
		if it.src.MemberOffset != nil {
			off = *it.src.MemberOffset
		}
		f.Offset = &off
		if it.src.Length >= 0 && (it.src.MemberOffset == nil || it.where != nil) {
			n := it.src.Length
			f.Length = &n
		}
	}
	return f
}

// report records a skipped or failed item: in the failure log, and to
// Options.Report.
func (p *pipeline) report(it *item) {
	if !it.failed && !it.skipped {
		return
	}
	if it.failed {
		if p.fails == nil {
			p.fails = &failureLog{limit: p.opts.failureCap()}
		}
		p.fails.add(it.in, failureOf(it))
	}
	if p.opts.Report == nil {
		return
	}
	pr := Problem{Input: it.src.File, Offset: it.src.Offset, URI: it.uri, RecordID: it.src.RecordID,
		Failed: it.failed, Reason: it.reason, Detail: it.detail}
	if pr.Input == "" {
		pr.Input = it.in.path
	}
	if it.in.kind != kindArchive {
		pr.Offset = -1 // an HTML file: the file is the record
	}
	p.opts.Report(pr)
}

// settle ends the accounting of a run, before summary.json is written:
// the counts of the summary become those of the inputs the run finished
// (the others' go to Summary.Unfinished: their output was dropped), and
// failures.jsonl lists the failures of those inputs and the input errors.
func (p *pipeline) settle(out string) error {
	sum := p.sum
	finished := map[string]bool{}
	var done Counts
	for _, e := range p.m.Inputs {
		if e.Run == p.m.Runs {
			finished[e.Path] = true
			done.add(e.Counts)
		}
	}
	rest := sum.Counts
	rest.sub(done)
	sum.Counts = done
	if rest.Records != 0 {
		sum.Unfinished = &rest
	}
	sum.Counts.normalize()
	sum.Total.normalize()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	var fl failureLog
	if p.fails != nil {
		fl = *p.fails
	}
	for _, l := range fl.lines {
		if finished[l.in.abs] {
			enc.Encode(l.f)
			sum.FailuresListed++
		}
	}
	for in, n := range fl.leftOut {
		if finished[in.abs] {
			sum.FailuresLeftOut += n
		}
	}
	for _, e := range sum.InputErrors {
		if sum.FailuresListed >= p.opts.failureCap() {
			sum.FailuresLeftOut++
			continue
		}
		enc.Encode(Failure{File: e.Input, Reason: "input error", Detail: e.Error})
		sum.FailuresListed++
	}
	if err := writeAtomic(filepath.Join(out, failuresName), b.Bytes()); err != nil {
		return fmt.Errorf("corpus: writing %s: %w", failuresName, err)
	}
	return nil
}
