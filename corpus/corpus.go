package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/fingerprint"
	"github.com/sluice-project/sluice/internal/freelist"
	"github.com/sluice-project/sluice/label"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/parallel"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/site"
	"github.com/sluice-project/sluice/tables"
)

// Defaults of Options.
const (
	DefaultMaxRecordBytes = 16 << 20
	DefaultPartRecords    = 50_000
	DefaultPartBytes      = 512 << 20
	DefaultInFlightBytes  = 32 << 20
	DefaultDedupWindow    = 1 << 20
	// DefaultNearDuplicateWindow is the default of
	// Options.NearDuplicateWindow.
	DefaultNearDuplicateWindow = 1 << 15
	// DefaultParagraphWindow is the default of Options.ParagraphWindow.
	DefaultParagraphWindow = 1 << 19
	DefaultSiteBytes       = 128 << 20
	// DefaultMemory is 900 MiB: with it, the peak resident memory of a
	// crawl-scale run (docs/sort.md) stays under 10^9 bytes, where 1 GiB
	// let it reach about 994 MiB.
	DefaultMemory = 900 << 20
)

// baseMemory is what a run holds besides its pages: the model, the
// duplicate hashes, buffers.
const baseMemory = 128 << 20

// GC settings that sluice corpus runs with, unless the GOGC and GOMEMLIMIT
// environment variables say otherwise (see runtime/debug). A run holds
// little live memory (a few pages in flight and the duplicate hashes: some
// 15 MB) but allocates about 1 MB per page cleaned. With the default GOGC
// of 100 the collector ran 240 times over the 2,000 pages of
// BenchmarkCorpus; on two cores its work is taken from the workers, while
// a single goroutine gets it done on the idle core. GCPercent 2000 lets the
// heap grow to 20 times the live memory between collections, and the soft
// memory limit (Options.Memory) caps it all the same: BenchmarkCorpus peaked
// at about 350 MB of heap and 390 MB from the OS, and went from 1.60 to 1.80
// times the pages/s of one goroutine's Clean (plain WARC; 1.55 to 1.65 gzip
// per record).
const GCPercent = 2000

// Options configure Run. The zero value means the documented defaults.
type Options struct {
	// Cleaner cleans the pages; it is shared by the workers. Default: the
	// default sluice.Cleaner (the embedded model).
	Cleaner *sluice.Cleaner
	// Format is the output format: FormatJSONL (the default),
	// FormatJSONLGzip, FormatJSONLZstd, FormatCleanEval or FormatWARC.
	Format string
	// Jobs is the number of pages cleaned at once. Default: GOMAXPROCS.
	Jobs int
	// MaxRecordBytes caps a record: an archive record whose block, or an
	// HTML file whose (decompressed) content, is longer is skipped as "too
	// large" without being held in memory. Default: 16 MiB.
	MaxRecordBytes int64
	// PartRecords and PartBytes: a new part is started when the current
	// one holds this many pages or bytes (jsonl and warc formats).
	// Defaults: 50,000 pages, 512 MiB.
	PartRecords int
	PartBytes   int64
	// InFlightBytes bounds the payload bytes held between the reader and
	// the writer. Default: 32 MiB (a single larger record is still let
	// through, alone).
	InFlightBytes int64
	// Memory is the memory the run may take: pages are admitted to
	// cleaning while the sum of their costs (sluice.CleanCost: some 40
	// bytes per byte of the page) fits in Memory less what the run holds
	// besides (InFlightBytes, SiteBytes with Site, the near-duplicate
	// signatures with NearDuplicate, and 128 MiB for the
	// model and the duplicate hashes), whatever Jobs is; a page costlier
	// than all of it is cleaned alone. Default: DefaultMemory, 900 MiB.
	// sluice corpus also sets the Go runtime's soft memory limit to it.
	Memory int64
	// MemoryBudget, if set, is the budget pages are admitted to cleaning
	// by instead of one made from Memory: one budget shared by several
	// runs, or by a run and a server, bounds the memory of the process
	// (weights are sluice.CleanCost).
	MemoryBudget *parallel.Budget
	// DedupWindow is the number of payload hashes remembered for duplicate
	// detection (see the "duplicate" reason): a payload is a duplicate if
	// it was seen among the last DedupWindow to 2*DedupWindow distinct
	// payloads: the first copy in input order is kept. Default: 1<<20
	// (about 40 MB at most). Negative turns duplicate detection off.
	DedupWindow int
	// Site cleans the pages of one host against each other with a site
	// model (package site): cleaned pages are held by host (www.example.org
	// counts as example.org), and a host's pages are corrected with the
	// model built from them before they are written: with the trained
	// model, each page is decided again with what the model said at the
	// same containers on the host's other pages as a prior (the path
	// prior, site.Options.Prior; SiteModelOptions), then the kept blocks
	// that recur on many of the host's pages, its template, are dropped;
	// with a filter pipeline, the template is dropped and a page's own
	// prose next to its content kept (site.Options.Rescue). Pages are grouped within one input: the held pages are
	// written when their host has SiteGroup.BatchSize of them, when the
	// buffers are full (SiteGroup.MaxPending pages or SiteBytes, the host
	// waiting longest first), and at the end of the input. The output is
	// then in input order from one input to the next but not within an
	// input, where a host's pages come out together. A page whose address
	// has no host, or whose host's model cannot judge it (fewer than three
	// pages in its batch and the host's earlier batches, or nothing seen
	// on two of them), is written as cleaned page by page.
	Site bool
	// SiteWhole (which implies Site) learns every host's model from the
	// whole input first, then cleans: a first pass reads every input
	// (those an earlier run finished too, so that a resumed run learns the
	// same models), segments each page Run would clean and adds it to its
	// host's site.Learner (SiteLearn: the first MaxPages pages of a host,
	// default 1,000, the later ones not even parsed; the tables of every
	// host within MaxBytes, default a quarter of Memory). The second pass
	// cleans the pages as without Site, corrects each with its host's
	// model, and writes them in input order; SiteGroup and SiteBytes are
	// not used. A host's pages may be anywhere in the input: sorted by
	// host or not, the output is the same.
	SiteWhole bool
	SiteLearn site.LearnOptions
	// NoTables leaves the data tables out of every page, their cells'
	// text too (tables.DropData; sluice corpus --no-tables).
	NoTables bool
	// Languages, when not empty, keeps only the pages in these languages
	// (ISO 639-1 codes, "en"; a tag such as "en-US" counts as its
	// language): a page whose language (page.Meta.Language, told from its
	// kept text with its declared language as evidence, package langid)
	// is another is skipped as "language" (ReasonLanguage), before it is
	// rendered. Run refuses a code that names no language.
	Languages []string
	// BlockLanguages gives each kept block in another language than its
	// page's its "lang" in the jsonl formats (render.JSON.BlockLanguages).
	// Off by default: on long pages it takes several times what cleaning
	// does (docs/langid.md).
	BlockLanguages bool
	// NearDuplicate, between 0 and 1, skips a page as a "near duplicate"
	// when its kept text resembles that of a page written before it, with
	// which it shares an LSH band, at least this much (the Jaccard
	// similarity of their sets of 5-unit shingles, estimated by MinHash;
	// see neardup.go): the first page of a group, in the order pages are
	// written, is kept. 0.8 catches syndicated copies and printer
	// versions. 0, the default, turns it off. The pages compared are the
	// last NearDuplicateWindow written
	// (default 32,768, about 84 MB, taken from Memory's budget).
	NearDuplicate       float64
	NearDuplicateWindow int
	// ParagraphDedup, when positive, drops from a page each paragraph (a
	// kept block, compared after normalising case and digits) that at
	// least this many earlier pages of the run held (see paradedup.go):
	// 1 keeps only the first copy. A page left without text is skipped as
	// "no text". The counts are kept for the last ParagraphWindow
	// distinct paragraphs to twice that (default 1<<19, about 40 MB,
	// taken from Memory's budget). With Site, a page's paragraphs are
	// counted once its site model has corrected it, in the order the
	// pages are written.
	ParagraphDedup  int
	ParagraphWindow int
	// SiteGroup configures the grouping and the site models: the pages
	// of a host held for one model (BatchSize, default 32), the pages
	// held in all (MaxPending, default 4,096), the hosts remembered
	// between batches (MaxHosts, default 1,024) and the model's threshold
	// (Model). Zero values mean the defaults of package site.
	SiteGroup site.GroupOptions
	// SiteBytes caps the memory of the pages held for their site models,
	// as estimated from their blocks and elements (a cleaned page takes
	// about 1.5 to 3 times the bytes of its HTML). Default: 128 MiB. It
	// adds to the in-flight budget: with Site, the memory of a run is
	// bounded by InFlightBytes (which then counts the cleaned page an item
	// holds on its way to the writer, when that is larger than its
	// payload) plus SiteBytes. A cap too small for the crawl makes small
	// batches and weak models: a host whose pages leave one at a time
	// never has a model (the Grouper keeps only what two pages of a batch
	// share).
	SiteBytes int64
	// Force starts the output over: the output files in the directory are
	// removed first. Without it, Run resumes (see Run).
	Force bool
	// Progress, if set, is called from one goroutine at most ten times a
	// second while the run goes, and once at its end with Done set.
	Progress func(Progress)
	// Report, if set, is called for every record that is skipped or
	// failed, in input order (with Site, a page the site model leaves
	// without text is reported when its batch is written), from one
	// goroutine.
	Report func(Problem)
	// Notice, if set, receives messages about the run as a whole: inputs
	// skipped because they are finished, files left out below the input
	// directories (see Summary.SkippedFiles), output cut back to resume.
	Notice func(string)

	// maxFailureLines and maxSkippedFiles, set by tests, replace
	// MaxFailureLines and MaxSkippedFiles when positive (failures.go).
	maxFailureLines, maxSkippedFiles int
}

// Progress is a snapshot of a running Run.
type Progress struct {
	Input       string // the input being written
	Inputs      int    // inputs begun, of InputsTotal
	InputsTotal int
	Records     int64 // records read and written, of which:
	Cleaned     int64
	Skipped     int64
	Failed      int64
	Bytes       int64 // input bytes read, of TotalBytes
	TotalBytes  int64
	Elapsed     time.Duration
	Done        bool // the last call
}

// String is the progress as sluice corpus draws it on a terminal: the
// share of the input bytes read, records/s, MB/s and the time left.
func (p Progress) String() string {
	const width = 24
	frac := 0.0
	if p.TotalBytes > 0 {
		frac = min(1, float64(p.Bytes)/float64(p.TotalBytes))
	}
	fill := int(frac * width)
	secs := p.Elapsed.Seconds()
	var rate, mbs float64
	if secs > 0 {
		rate, mbs = float64(p.Records)/secs, float64(p.Bytes)/1e6/secs
	}
	eta := ""
	if frac > 0.001 && frac < 1 {
		left := time.Duration(secs * (1 - frac) / frac * float64(time.Second))
		eta = " ETA " + left.Round(time.Second).String()
	}
	return fmt.Sprintf("corpus [%s%s] %3.0f%% input %d/%d, %d records (%d cleaned, %d failed) %.0f rec/s %.1f MB/s%s",
		strings.Repeat("=", fill), strings.Repeat(" ", width-fill), frac*100, p.Inputs, p.InputsTotal,
		p.Records, p.Cleaned, p.Failed, rate, mbs, eta)
}

// Problem is a record that was skipped or failed.
type Problem struct {
	Input string
	// Offset is the record's offset in the input (see render.JSONSource),
	// or of the damaged bytes; -1 when unknown.
	Offset   int64
	URI      string
	RecordID string
	Failed   bool   // failed, or else skipped
	Reason   string // the bucket, as counted in the Summary
	Detail   string // what exactly, when there is more to say
}

// String says where the problem is and what it is, as sluice corpus
// reports it: "INPUT: offset N (URI): failed: REASON: DETAIL".
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.Input)
	if p.Offset >= 0 {
		fmt.Fprintf(&b, ": offset %d", p.Offset)
	}
	if p.URI != "" {
		fmt.Fprintf(&b, " (%s)", p.URI)
	}
	what := "skipped"
	if p.Failed {
		what = "failed"
	}
	fmt.Fprintf(&b, ": %s: %s", what, p.Reason)
	if p.Detail != "" {
		fmt.Fprintf(&b, ": %s", p.Detail)
	}
	return b.String()
}

func (o *Options) withDefaults() error {
	if o.Cleaner == nil {
		c, err := sluice.New(sluice.Options{})
		if err != nil {
			return err
		}
		o.Cleaner = c
	}
	switch o.Format {
	case "":
		o.Format = FormatJSONL
	case FormatJSONL, FormatJSONLGzip, FormatJSONLZstd, FormatCleanEval, FormatWARC:
	default:
		return fmt.Errorf("corpus: unknown output format %q (the formats are %s)", o.Format, strings.Join(Formats(), ", "))
	}
	orDefault(&o.Jobs, runtime.GOMAXPROCS(0))
	orDefault(&o.MaxRecordBytes, DefaultMaxRecordBytes)
	orDefault(&o.PartRecords, DefaultPartRecords)
	orDefault(&o.PartBytes, DefaultPartBytes)
	orDefault(&o.InFlightBytes, DefaultInFlightBytes)
	orDefault(&o.Memory, DefaultMemory)
	if o.DedupWindow == 0 {
		o.DedupWindow = DefaultDedupWindow
	}
	orDefault(&o.SiteBytes, DefaultSiteBytes)
	orDefault(&o.NearDuplicateWindow, DefaultNearDuplicateWindow)
	orDefault(&o.ParagraphWindow, DefaultParagraphWindow)
	if o.SiteWhole {
		o.Site = true
		if o.SiteLearn.MaxBytes <= 0 {
			o.SiteLearn.MaxBytes = o.Memory / 4
		}
	}
	var err error
	if o.SiteGroup.Model, err = SiteModelOptions(o.Cleaner, o.SiteGroup.Model); err != nil {
		return err
	}
	if o.SiteLearn.Model, err = SiteModelOptions(o.Cleaner, o.SiteLearn.Model); err != nil {
		return err
	}
	langs, err := normalizeLanguages(o.Languages)
	if err != nil {
		return err
	}
	o.Languages = langs
	if o.NearDuplicate < 0 || o.NearDuplicate > 1 || math.IsNaN(o.NearDuplicate) {
		return fmt.Errorf("corpus: NearDuplicate %v: give a similarity between 0 (off) and 1", o.NearDuplicate)
	}
	if o.NearDuplicate > 0 && nearDupBytes(o.NearDuplicateWindow) > o.Memory/2 {
		return fmt.Errorf("corpus: NearDuplicateWindow %d: its signatures take about %d MiB, more than half of Memory (%d MiB); give a smaller window or more memory",
			o.NearDuplicateWindow, nearDupBytes(o.NearDuplicateWindow)>>20, o.Memory>>20)
	}
	return nil
}

// ErrPriorNeedsModel is SiteModelOptions' error for a path prior asked of a
// cleaner whose scores are not the trained model's probabilities.
var ErrPriorNeedsModel = errors.New("the path prior reads the trained model's probabilities under the expected-F1 rule")

// SiteModelOptions returns the site model options Run uses with cleaner c
// for o (Options.SiteGroup.Model and SiteLearn.Model). When c is a trained
// model deciding each page by the expected-F1 rule (the default), the path
// prior is on: o.Prior 0 means site.DefaultPrior, a negative o.Prior turns
// it off. Otherwise (a filter pipeline, or a fixed threshold) the scores
// are not the model's probabilities: the prior is off (a positive o.Prior
// is an error), and the site model rescues prose next to the kept content
// (site.Options.Rescue), which raised lqf>targetnode's F1 on
// cleanportaleval and costs the model held out (docs/experiments.md).
func SiteModelOptions(c *sluice.Cleaner, o site.Options) (site.Options, error) {
	probabilities := c.Threshold() == sluice.ExpectedF1 && strings.HasPrefix(c.Filter(), "model")
	switch {
	case o.Prior < 0 || math.IsNaN(o.Prior):
		o.Prior = 0
	case o.Prior > 1:
		return o, fmt.Errorf("corpus: site prior %v: give a weight between 0 and 1", o.Prior)
	case !probabilities && o.Prior > 0:
		return o, fmt.Errorf("corpus: site prior %v: %w; the cleaner decides by %s at threshold %s", o.Prior, ErrPriorNeedsModel, c.Filter(), label.FormatThreshold(c.Threshold()))
	case o.Prior == 0 && probabilities:
		o.Prior = site.DefaultPrior
	}
	if !probabilities {
		o.Rescue = true
	}
	return o, nil
}

// ParsePrior reads the weight of the path prior as the command line gives
// it (sluice corpus --site-prior): "" for the default (0 in
// site.Options.Prior, as SiteModelOptions reads it), "0" for none (-1), or
// a weight up to 1.
func ParsePrior(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	w, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil || math.IsNaN(w) || w < 0 || w > 1:
		return 0, fmt.Errorf("--site-prior %q: give a weight from 0 (off) to 1", s)
	case w == 0:
		return -1, nil
	}
	return w, nil
}

// orDefault sets *x to def unless it is positive.
func orDefault[T int | int64](x *T, def T) {
	if *x <= 0 {
		*x = def
	}
}

// Kinds of item.
const (
	kRecord = iota
	kStart  // an input begins
	kEnd    // an input was read to its end (or to an input-level error)
)

// item is one record on its way from the reader to the writer, or an input
// boundary.
type item struct {
	kind   int
	in     *input
	seq    uint64 // kRecord: the input's ord and the record's number in it (numbered)
	weight int64  // held in the in-flight budget
	pos    int64  // how far into the input this record ends, for progress
	err    error  // kEnd: the input-level error, if any
	damage error  // kRecord: the HTML file was damaged (a gzip file cut short); body is what came before the damage

	src   render.JSONSource
	uri   string
	date  time.Time
	ctype string
	body  []byte // to clean; nil once decided

	skipped, failed bool // neither: cleaned
	reason, detail  string
	where           *inMember              // damage inside a gzip member (failures.go)
	out             []byte                 // the rendered page
	sig             *fingerprint.Signature // its MinHash signature, with Options.NearDuplicate

	// With Options.Site: the cleaned page, held until its host's model
	// corrects it (out is nil until then), the bytes it is reckoned to
	// take, and what the model did to it.
	page *page.Page
	held int64
	site *render.JSONSite
}

// url returns the page's address: the record's, else the one the page
// gives (the CleanEval wrapper's id).
func (it *item) url(p *page.Page) string {
	if it.uri == "" && p != nil {
		return p.Meta.URL
	}
	return it.uri
}

// Run cleans the pages of the inputs at paths into the output directory
// out and returns the summary of the run, which it also writes to
// out/summary.json.
//
// Inputs are paths: WARC and ARC files (plain, gzip per record or gzip
// whole; recognised by their name, .warc, .warc.gz, .arc, .arc.gz, or by
// their first bytes), HTML files (plain or gzip), and directories, walked in
// lexical order for archives and HTML files (.html, .htm, .xhtml, .shtml,
// .txt and their .gz). Every archive is an input of its own; the HTML files
// of a directory form one input; an HTML file named in inputs is one.
//
// Run reads the response and resource records of archives whose HTTP status
// is 2xx (or absent) and whose Content-Type is HTML or XHTML (or absent and
// the payload looks like HTML), and skips the others with a reason (see
// Counts). The output is in input order; with Options.Site, in input order
// from one input to the next but grouped by host within an input.
//
// Resuming: unless Options.Force is set, a Run on a directory that holds
// the output of an earlier one continues it. Inputs the manifest lists as
// finished are not read again (they are listed in Summary.AlreadyDone; an
// input that changed since, by size or modification time, is reported in
// Summary.InputErrors and not read either: use Force to rebuild); the parts
// are cut back to the lengths the manifest recorded with those inputs, and
// output files it does not list are removed, so that the output of an input
// an interrupted run did not finish is dropped and written again, whole. The
// output of two formats or two cleaners is never mixed: Run refuses.
//
// The error is for the run as a whole: the output directory cannot be used
// or written, or ctx was cancelled (the inputs finished so far are recorded
// in the manifest all the same). Problems with inputs and records are in
// the Summary.
func Run(ctx context.Context, out string, paths []string, opts Options) (*Summary, error) {
	if err := opts.withDefaults(); err != nil {
		return nil, err
	}
	start := time.Now()
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	cleaner := opts.Cleaner.Filter()
	mode := ""
	if opts.SiteWhole {
		mode = siteWhole
	}
	m, notices, err := prepare(out, opts.Format, cleaner, opts.Site, mode, opts.Force)
	if err != nil {
		return nil, fmt.Errorf("corpus: output directory: %w", err)
	}
	notice := func(s string) {
		if opts.Notice != nil {
			opts.Notice(s)
		}
	}
	for _, n := range notices {
		notice(n)
	}
	sum := &Summary{Run: m.Runs, Format: opts.Format, SkippedFiles: []SkippedFile{}}
	if opts.Site {
		sum.Site = &SiteCounts{}
	}
	todo, learn, total := plan(paths, outAbs, m, sum, opts.skippedFilesCap(), notice)
	sum.Inputs = len(todo)

	p := &pipeline{opts: opts, m: m, sum: sum, start: start, total: total, inputsTotal: len(todo),
		sink: newSink(out, opts.Format, m, &opts), learnFrom: learn, notice: notice}
	if opts.NearDuplicate > 0 {
		p.near = newNearDup(opts.NearDuplicate, opts.NearDuplicateWindow)
	}
	if opts.ParagraphDedup > 0 {
		p.para = newParaDedup(opts.ParagraphDedup, opts.ParagraphWindow)
		p.r = newRenderer(&opts)
	}
	if opts.Site && !opts.SiteWhole {
		p.site = newSiteStage(&opts)
		// With the paragraph deduplication, the corrected pages are
		// rendered by the writer once their repeated paragraphs are out.
		p.site.keep = p.para != nil
	}
	runErr := p.run(ctx, todo, outAbs)

	sum.Seconds = time.Since(start).Seconds()
	sum.Bytes = p.bytesDone()
	for _, name := range p.sink.created {
		for _, kept := range m.Parts {
			if kept.Name == name {
				sum.Parts = append(sum.Parts, name)
			}
		}
	}
	for _, e := range m.Inputs {
		sum.Total.add(e.Counts)
	}
	sum.TotalInputs = len(m.Inputs)
	if err := p.settle(out); err != nil && runErr == nil {
		runErr = err
	}
	if data, err := json.MarshalIndent(sum, "", "  "); err == nil {
		if err := writeAtomic(filepath.Join(out, summaryName), append(data, '\n')); err != nil && runErr == nil {
			runErr = fmt.Errorf("corpus: writing %s: %w", summaryName, err)
		}
	}
	if opts.Progress != nil {
		pr := p.progress()
		pr.Done = true
		opts.Progress(pr)
	}
	return sum, runErr
}

// pipeline is one run: the reader, the workers and the writer.
type pipeline struct {
	opts        Options
	m           *manifest
	sum         *Summary
	sink        *sink
	site        *siteStage   // nil without Options.Site, or with SiteWhole
	learnFrom   []*input     // with SiteWhole: the inputs of the first pass
	models      *site.Models // with SiteWhole: what the first pass learned
	notice      func(string)
	near        *nearDup   // nil without Options.NearDuplicate
	para        *paraDedup // nil without Options.ParagraphDedup
	r           *renderer  // the writer's own, with para
	start       time.Time
	total       int64
	inputsTotal int
	fails       *failureLog // failures.go

	// writer state
	cur         *input
	curPos      int64
	doneBytes   int64 // sizes of the inputs written to their end
	inputsSeen  int
	lastCommit  time.Time
	commitEvery time.Duration
	lastProg    time.Time
}

// run reads the items of the inputs on one goroutine, cleans them on
// Options.Jobs workers (parallel.Map, with the in-flight budget) and writes
// them in input order on this one.
func (p *pipeline) run(ctx context.Context, todo []*input, outAbs string) error {
	budget := parallel.NewBudget(p.opts.InFlightBytes)
	var dd *dedup
	if p.opts.DedupWindow > 0 {
		dd = newDedup(p.opts.DedupWindow)
	}
	if p.opts.SiteWhole {
		if err := p.learn(ctx, outAbs); err != nil {
			return p.finish(ctx, err)
		}
	}
	rd := &reader{maxRecord: p.opts.MaxRecordBytes, outAbs: outAbs, dd: dd}
	items := func(yield func(*item) bool) {
		rd.send = numbered(yield)
		rd.run(ctx, todo)
	}
	var werr error
	for it := range parallel.Map(ctx, items, p.worker(budget), p.mapOptions(budget)) {
		// After an error or a cancellation the items still in flight are
		// dropped: the input they belong to stays unfinished.
		if werr = p.write(it); werr != nil {
			break
		}
	}
	return p.finish(ctx, werr)
}

// mapOptions are the options of the parallel.Map of a pass over the
// inputs, admitting items by budget.
func (p *pipeline) mapOptions(budget *parallel.Budget) parallel.Options[*item] {
	// Every item weighs at least itemOverhead, but for the input
	// boundaries: the budget bounds the items in flight, not the window.
	window := int(min(max(p.opts.InFlightBytes/itemOverhead, int64(parallel.DefaultWindow(p.opts.Jobs))), 1<<16))
	return parallel.Options[*item]{Jobs: p.opts.Jobs, Window: window, Budget: budget, Weight: func(it *item) int64 { return it.weight }}
}

// worker returns the work of the workers: clean and render the page of a
// record item; the other items pass.
func (p *pipeline) worker(budget *parallel.Budget) func(context.Context, *item) (*item, error) {
	workers := freelist.New[worker](p.opts.Jobs)
	mem := p.memoryBudget()
	return func(_ context.Context, it *item) (*item, error) {
		if it.kind != kRecord || it.body == nil {
			return it, nil
		}
		// A page begun is finished (see worker.clean): the wait for memory
		// is not cut short by the run's context either.
		cost := sluice.CleanCost(len(it.body))
		_ = mem.Acquire(context.Background(), cost)
		defer mem.Release(cost)
		w := workers.Get()
		if w.r == nil {
			*w = worker{cleaner: p.opts.Cleaner, r: newRenderer(&p.opts), noTables: p.opts.NoTables,
				langs: p.opts.Languages, models: p.models}
			if p.site != nil || p.para != nil {
				w.hold = budget.Grow
			}
			w.holdAll = p.para != nil
		}
		w.clean(it)
		workers.Put(w)
		return it, nil
	}
}

// memoryBudget returns the budget pages are admitted to cleaning by (see
// Options.Memory).
func (p *pipeline) memoryBudget() *parallel.Budget {
	if p.opts.MemoryBudget != nil {
		return p.opts.MemoryBudget
	}
	held := p.opts.InFlightBytes + baseMemory
	switch {
	case p.site != nil:
		held += p.opts.SiteBytes
	case p.models != nil:
		held += p.models.Bytes()
	case p.opts.SiteWhole: // the first pass
		held += p.opts.SiteLearn.MaxBytes
	}
	if p.near != nil {
		held += p.near.bytes()
	}
	if p.para != nil {
		held += p.para.bytes()
	}
	return parallel.NewBudget(max(p.opts.Memory-held, 64<<20))
}

// finish commits what is finished, even after an error or a cancellation,
// and drops the output of an input left unfinished.
func (p *pipeline) finish(ctx context.Context, werr error) error {
	if err := p.commit(); werr == nil {
		werr = err
	}
	if err := p.sink.closePart(); werr == nil {
		werr = err
	}
	if err := p.sink.rollback(p.m.Parts); werr == nil && err != nil {
		werr = fmt.Errorf("corpus: dropping the output of the unfinished input: %w", err)
	}
	if werr == nil && ctx.Err() != nil {
		werr = ctx.Err()
	}
	return werr
}

// write handles one item, in input order.
func (p *pipeline) write(it *item) error {
	in := it.in
	switch it.kind {
	case kStart:
		p.cur, p.curPos = in, 0
		p.inputsSeen++
	case kEnd:
		// The pages of the input held for their site models are written
		// before the input is recorded as finished.
		if p.site != nil {
			if err := p.site.flush(p.emit); err != nil {
				return err
			}
		}
		p.doneBytes += in.size
		p.curPos = 0
		e := &inputEntry{Path: in.abs, Kind: in.kind, Size: in.size, ModTime: in.modTime, Files: in.files,
			Run: p.m.Runs, Status: "done", Counts: in.counts}
		if it.err != nil {
			p.sum.InputErrors = append(p.sum.InputErrors, InputError{in.path, it.err.Error()})
			if in.counts.Records == 0 {
				break // nothing read: not finished, tried again next time
			}
			e.Status, e.Error = "incomplete", it.err.Error()
		} else {
			p.sum.Finished++
		}
		p.m.addInput(e)
		p.m.Parts = p.sink.snapshot()
		if time.Since(p.lastCommit) >= p.commitEvery {
			if err := p.commit(); err != nil {
				return err
			}
		}
	case kRecord:
		p.curPos = max(p.curPos, it.pos)
		var err error
		if it.page != nil && p.site != nil {
			err = p.site.add(it, p.emit)
		} else {
			err = p.emit(it)
		}
		if err != nil {
			return err
		}
	}
	if p.opts.Progress != nil && time.Since(p.lastProg) >= 100*time.Millisecond {
		p.lastProg = time.Now()
		p.opts.Progress(p.progress())
	}
	return nil
}

// emit counts a record in its bucket and writes its output, if any.
func (p *pipeline) emit(it *item) error {
	in := it.in
	c := &in.counts
	c.Records++
	p.sum.Records++
	if it.page != nil && p.para != nil {
		if err := p.dedupParagraphs(it); err != nil {
			return err
		}
	}
	if !it.failed && !it.skipped && p.near != nil && it.sig != nil && p.near.seen(it.sig) {
		it.skipped, it.reason = true, ReasonNearDuplicate
		putOut(it.out)
		it.out = nil
	}
	it.sig = nil
	if it.site != nil && p.sum.Site != nil {
		s := p.sum.Site
		s.Pages++
		s.Dropped += int64(it.site.Dropped)
		s.Rescued += int64(it.site.Rescued)
	}
	switch {
	case it.failed:
		c.fail(it.reason)
		p.sum.fail(it.reason)
	case it.skipped:
		c.skip(it.reason)
		p.sum.skip(it.reason)
	default:
		if err := p.sink.write(it.out); err != nil {
			return fmt.Errorf("corpus: writing the output: %w", err)
		}
		// The sink has copied it.
		putOut(it.out)
		it.out = nil
		c.Cleaned++
		p.sum.Cleaned++
	}
	p.report(it)
	return nil
}

// dedupParagraphs drops the repeated paragraphs of a held page and
// renders it, or skips it when nothing is left.
func (p *pipeline) dedupParagraphs(it *item) error {
	pg := it.page
	it.page = nil
	n := p.para.apply(pg)
	p.sum.ParagraphsDropped += int64(n)
	if !KeptText(pg) {
		it.skipped, it.reason = true, ReasonNoText
		it.detail = fmt.Sprintf("every paragraph was held by %d earlier pages (--dedup-paragraphs)", p.opts.ParagraphDedup)
		return nil
	}
	out, err := p.r.render(it, pg)
	if err != nil {
		it.failed, it.reason, it.detail = true, "clean: rendering", err.Error()
		return nil
	}
	it.out = out
	return nil
}

// commit makes the parts durable and saves the manifest: the finished
// inputs and the parts as they were when the last of them finished.
//
// It runs at most every commitEvery: a second, or ten times as long as the
// last commit took (the manifest grows with the inputs), so that committing
// takes at most a tenth of the writer's time.
func (p *pipeline) commit() error {
	start := time.Now()
	if err := p.sink.sync(); err != nil {
		return fmt.Errorf("corpus: writing the output: %w", err)
	}
	if err := p.m.save(p.sink.dir); err != nil {
		return fmt.Errorf("corpus: writing the manifest: %w", err)
	}
	p.lastCommit = time.Now()
	p.commitEvery = max(time.Second, 10*p.lastCommit.Sub(start))
	return nil
}

func (p *pipeline) bytesDone() int64 { return p.doneBytes + p.curPos }

func (p *pipeline) progress() Progress {
	pr := Progress{Inputs: p.inputsSeen, InputsTotal: p.inputsTotal, Records: p.sum.Records, Cleaned: p.sum.Cleaned,
		Skipped: p.sum.SkippedTotal(), Failed: p.sum.FailedTotal(), Bytes: p.bytesDone(), TotalBytes: p.total,
		Elapsed: time.Since(p.start)}
	if p.cur != nil {
		pr.Input = p.cur.path
	}
	return pr
}

// worker cleans and renders pages; a worker goroutine takes one for a
// page (see pipeline.worker).
type worker struct {
	cleaner  *sluice.Cleaner
	r        *renderer
	noTables bool     // Options.NoTables
	langs    []string // Options.Languages
	// hold, set with Options.Site, makes the worker keep the cleaned
	// pages of hosts for the site stage instead of rendering them; it
	// adds to the in-flight budget what a page takes beyond its item's
	// weight.
	hold func(n int64)
	// holdAll, with Options.ParagraphDedup, keeps every page for the
	// writer, which drops its repeated paragraphs before rendering it.
	holdAll bool
	// models, with Options.SiteWhole, correct every page before it is
	// rendered.
	models *site.Models
}

func (w *worker) clean(it *item) {
	defer func() {
		if p := recover(); p != nil {
			it.out, it.page, it.site = nil, nil, nil
			it.failed, it.skipped, it.reason, it.detail = true, false, "clean: panic", fmt.Sprint(p)
		}
	}()
	body := it.body
	it.body = nil
	p, v := CleanPage(w.cleaner, sluice.Input{Data: body, ContentType: it.ctype, URL: it.uri}, w.noTables)
	if v.Written() && w.models != nil { // the host's template out before the language is told
		host := SiteKey(p.Meta.Host())
		m, member := w.models.Lookup(host, it.seq)
		it.site, v = correct(m, member, host, p)
	}
	if v.Written() {
		if lv, skipped := languageVerdict(p, w.langs); skipped {
			v = lv
		}
	}
	if !v.Written() {
		it.skipped, it.failed, it.reason, it.detail = v.Skipped, v.Failed, v.Reason, v.Detail
		return
	}
	if w.hold != nil && (w.holdAll || p.Meta.Host() != "") {
		it.page = p
		if n := pageBytes(p) + itemOverhead; n > it.weight {
			w.hold(n - it.weight)
			it.weight = n
		}
		return
	}
	out, err := w.r.render(it, p)
	if err != nil {
		it.failed, it.reason, it.detail = true, "clean: rendering", err.Error()
		return
	}
	it.out = out
}

// CleanPage cleans a page as Run's workers do: with c, leaving the data
// tables out with noTables. A page the cleaner refuses is skipped ("empty",
// "not HTML") or failed ("clean: ..."), and so is a page with no text kept
// ("no text"). The cleaning is not cut short: it runs to its end.
func CleanPage(c *sluice.Cleaner, in sluice.Input, noTables bool) (*page.Page, Verdict) {
	res, err := c.Clean(context.Background(), in)
	if err != nil {
		skipped, reason := cleanOutcome(err)
		return nil, Verdict{Skipped: skipped, Failed: !skipped, Reason: reason, Detail: err.Error()}
	}
	if noTables {
		tables.DropData(res.Page)
	}
	if !KeptText(res.Page) {
		return nil, skip(ReasonNoText, "")
	}
	return res.Page, Verdict{}
}

// KeptText reports whether p keeps a block with text: a page that does not
// is skipped as "no text".
func KeptText(p *page.Page) bool {
	for i := range p.Blocks {
		if p.Blocks[i].Label.Kept() && p.Blocks[i].Text != "" {
			return true
		}
	}
	return false
}
