// Command sluice-beam cleans WARC files with an Apache Beam pipeline: on
// this machine (Prism, the default runner), on Google Cloud Dataflow, or on
// Flink or Spark through their Beam job servers. See beam/README.md.
//
// Examples:
//
//	go run ./cmd/sluice-beam --input '/data/crawl/*.warc.gz' --output /tmp/out/pages --shards 4
//
//	go run ./cmd/sluice-beam --runner dataflow --project my-project --region europe-west1 \
//	    --staging_location gs://my-bucket/staging \
//	    --input 'gs://my-bucket/crawl/*.warc.gz' --output gs://my-bucket/clean/pages --shards 256
//
// The output is shards named PREFIX-00000-of-00004.jsonl, one JSON object
// per HTML page, the document sluice corpus writes (url, host, date, title,
// encoding, metadata, text, blocks, segments, tables, source, site). The
// flags --dedup, --site, --near-dup, --dedup-paragraphs... do what sluice
// corpus's do. Beam's own flags (--runner, --endpoint, --project, ...) are
// accepted too.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	// File systems for --input and --output (beamx registers local and gs).
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/beam/pipeline"
	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/site"
)

var (
	input     = flag.String("input", "", "glob of WARC or ARC files, plain or gzip: /data/*.warc.gz, gs://bucket/crawl/*.warc.gz (required)")
	output    = flag.String("output", "", "output prefix: shards are written to PREFIX-00000-of-NNNNN.jsonl (required)")
	suffix    = flag.String("suffix", ".jsonl", "end of the output file names; ending in .gz compresses them")
	shards    = flag.Int("shards", 1, "number of output files")
	filter    = flag.String("filter", "", "clean with this filter pipeline instead of the embedded model (as sluice clean --filter), e.g. "+sluice.DefaultFilter)
	model     = flag.String("model", "", "model file written by \"sluice train\" (read here, shipped to the workers with the pipeline)")
	style     = flag.String("style", "", "what counts as content, for the model: main (the default) or cleaneval (as sluice corpus --style)")
	links     = flag.Bool("links", false, "each block's links in the documents (as sluice corpus --links)")
	images    = flag.Bool("images", false, "each block's images in the documents (as sluice corpus --images)")
	noTables  = flag.Bool("no-tables", false, "leave the data tables out, their cells' text too")
	rebalance = flag.Bool("rebalance", false, "shuffle the pages between reading and cleaning (when there are fewer files than worker cores)")
	maxRecord = flag.Int64("max_record_bytes", 0, "skip records larger than this as \"too large\"; 0 means sluice corpus's default (16 MiB)")
	dedup     = flag.Bool("dedup", true, "skip a page whose payload an earlier page had, keeping the one of lowest file and offset, as sluice corpus always does (a shuffle of every payload)")
	siteModel = flag.Bool("site", false, "clean the pages of one host (in one archive) against each other: drop what recurs on many of them, as sluice corpus --site")
	siteBatch = flag.Int("site-batch", site.DefaultBatchSize, "with --site: correct a host's pages N at a time")
	sitePrior = flag.String("site-prior", "", "with --site and the trained model: the weight W of the path prior, from 0 (off) to 1 (default 0.9), as sluice corpus --site-prior")
	nearDup   = flag.Float64("near-dup", 0, "skip a page whose kept text resembles an earlier page's at least this much (similarity 0 to 1; 0.8 catches syndicated copies; 0: off)")
	dedupPara = flag.Int("dedup-paragraphs", 0, "drop from each page the paragraphs that N earlier pages held (1: keep only the first copy; 0: off); with --site, after the site model")
)

func main() {
	flag.Usage = usage
	flag.Parse()
	// Init must come first: when the binary runs as a worker it does not
	// return.
	beam.Init()
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "sluice-beam:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	if *input == "" || *output == "" {
		usage()
		return fmt.Errorf("--input and --output are required")
	}
	prior, err := corpus.ParsePrior(*sitePrior)
	if err != nil {
		return err
	}
	o := pipeline.Options{
		Input:          *input,
		Output:         *output,
		Suffix:         *suffix,
		Shards:         *shards,
		Rebalance:      *rebalance,
		MaxRecordBytes: *maxRecord,
		Cleaner:        sluice.Options{Filter: *filter, Style: *style, Links: *links, Images: *images},
		NoTables:       *noTables,
		Dedup:          *dedup,
		Site:           *siteModel,
		SiteGroup:      site.GroupOptions{BatchSize: *siteBatch, Model: site.Options{Prior: prior}},
		NearDuplicate:  *nearDup,
		ParagraphDedup: *dedupPara,
	}
	if *model != "" {
		b, err := os.ReadFile(*model)
		if err != nil {
			return err
		}
		o.Cleaner.Model = b
	}
	p, s := beam.NewPipelineWithRoot()
	if err := pipeline.Build(s, o); err != nil {
		return err
	}
	res, err := beamx.RunWithMetrics(ctx, p)
	if err != nil {
		return err
	}
	// The counters, when the runner reports them (Dataflow with --async,
	// for one, returns before the job ends).
	if res != nil {
		counters := res.Metrics().AllMetrics().Counters()
		slices.SortFunc(counters, func(a, b metrics.CounterResult) int { return strings.Compare(a.Name(), b.Name()) })
		for _, c := range counters {
			if c.Namespace() == pipeline.Namespace {
				fmt.Fprintf(os.Stderr, "sluice-beam: %s: %d\n", c.Name(), c.Result())
			}
		}
	}
	return nil
}

// ownFlags are the flags of sluice-beam, as opposed to Beam's.
var ownFlags = []string{"input", "output", "suffix", "shards", "filter", "model", "style", "links", "images", "no-tables",
	"dedup", "site", "site-batch", "near-dup", "dedup-paragraphs", "rebalance", "max_record_bytes"}

func usage() {
	fmt.Fprint(os.Stderr, `usage: sluice-beam --input GLOB --output PREFIX [flags] [Beam flags]

Cleans the HTML pages of WARC files with Apache Beam as sluice corpus does
and writes one JSON object per page, the document sluice corpus writes, to
PREFIX-00000-of-NNNNN.jsonl. On the same archives and options (corpus's
inputs in lexical order), the documents are the same, and the counters count
what corpus's summary.json does: see beam/README.md and docs/beam.md.

Examples:
  sluice-beam --input '/data/crawl/*.warc.gz' --output /tmp/out/pages --shards 4
  sluice-beam --input '/data/crawl/*.warc.gz' --output /tmp/out/pages --site --near-dup 0.8
  sluice-beam --runner dataflow --project P --region R \
      --staging_location gs://B/staging \
      --input 'gs://B/crawl/*.warc.gz' --output gs://B/clean/pages --shards 256
  sluice-beam --runner flink --endpoint localhost:8099 --input ... --output ...

Flags:
`)
	for _, name := range ownFlags {
		f := flag.Lookup(name)
		fmt.Fprintf(os.Stderr, "  --%s\n    \t%s", f.Name, f.Usage)
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
			fmt.Fprintf(os.Stderr, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(os.Stderr)
	}
	fmt.Fprint(os.Stderr, `
Beam flags: --runner (prism by default; dataflow, flink, spark, universal),
--endpoint (job server of flink, spark, universal), --project, --region,
--staging_location (dataflow), --worker_binary, --environment_type, ...
`)
}
