// Package pipeline cleans web archives at scale with Apache Beam: it reads
// WARC (and ARC) files with package warc, cleans every HTML response with a
// sluice.Cleaner, the same code as the sluice command, and writes one JSON
// object per page to sharded files.
//
// The pipeline, as Build constructs it:
//
//	fileio.MatchFiles(glob)          one element per file (local, gs://, s3://)
//	Reshuffle                        spreads the files over the workers
//	ParDo(readWARCFn)                records → Page (HTML responses only)
//	[Reshuffle]                      Options.Rebalance: spreads the pages
//	ParDo(cleanFn)                   Page → one JSON line (a Doc)
//	WriteSharded(prefix, n)          PREFIX-00000-of-0000n.jsonl ...
//
// Work is split by file: one file is read by one worker, so a run has at
// most as many readers as files (a crawl such as Common Crawl has tens of
// thousands). Cleaning, the costly step, follows the reading in the same
// worker unless Options.Rebalance shuffles the pages first.
//
// Counters (namespace "sluice", see the Counter* constants) count records
// read, pages cleaned, records skipped by reason and failures by kind; read
// them in the runner's UI or from the beam.PipelineResult.
package pipeline

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	// The file systems every binary that runs the pipeline needs: local
	// paths and gs://. Import others (beam/io/filesystem/s3) in main.
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"

	"github.com/sluice-project/sluice"
)

// Options configure the pipeline Build constructs. Input and Output are
// required.
type Options struct {
	// Input is a glob of WARC or ARC files, plain or gzip-compressed:
	// "/data/crawl/*.warc.gz", "gs://bucket/crawl/*.warc.gz". Its scheme's
	// file system must be registered (import the beam/io/filesystem/...
	// package for it: local, gcs, s3).
	Input string
	// Output is the prefix of the output files; shard i of n is written to
	// Output-0000i-of-0000n.jsonl (see WriteSharded).
	Output string
	// Suffix ends each output file name. Default: ".jsonl". A suffix
	// ending in ".gz" makes the shards gzip-compressed.
	Suffix string
	// Shards is the number of output files. Default: 1. Every shard file
	// is written, empty ones included.
	Shards int
	// Cleaner configures the cleaner, as for the sluice command (filter
	// pipeline or model, threshold, elements dropped...). The zero value
	// cleans with the embedded model. It travels to the workers with the
	// pipeline, a Model included.
	Cleaner sluice.Options
	// Rebalance shuffles the pages between reading and cleaning, so that
	// pages of one file are cleaned on several workers. It costs a shuffle
	// of every HTML payload; worth it when there are fewer input files than
	// worker cores.
	Rebalance bool
	// MaxRecordBytes caps the bytes of a record read (warc.Options); a
	// longer record is cleaned from its start. Default: the warc package's
	// (64 MiB).
	MaxRecordBytes int64
}

// Build adds the pipeline to scope s. It checks the options and that the
// cleaner can be built (an unknown filter or a bad model fails here, at
// construction, not on the workers).
func Build(s beam.Scope, o Options) error {
	if strings.TrimSpace(o.Input) == "" {
		return errors.New("pipeline: no input: give a glob of WARC files")
	}
	if strings.TrimSpace(o.Output) == "" {
		return errors.New("pipeline: no output prefix")
	}
	if o.Shards < 0 {
		return fmt.Errorf("pipeline: %d shards: the number of shards must be positive", o.Shards)
	}
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Suffix == "" {
		o.Suffix = ".jsonl"
	}
	if _, err := sluice.New(o.Cleaner); err != nil {
		return fmt.Errorf("pipeline: cleaner options: %w", err)
	}
	clean, err := newCleanFn(o.Cleaner)
	if err != nil {
		return err
	}
	for _, path := range []string{o.Input, o.Output} {
		if err := checkScheme(path); err != nil {
			return err
		}
	}

	s = s.Scope("sluice")
	files := fileio.MatchFiles(s, o.Input, fileio.MatchEmptyDisallow())
	// MatchFiles emits every file from one bundle; without a shuffle a
	// runner may fuse the reading with it and read every file on one
	// worker.
	files = beam.Reshuffle(s, files)
	pages := beam.ParDo(s, &readWARCFn{MaxRecordBytes: o.MaxRecordBytes}, files)
	if o.Rebalance {
		pages = beam.Reshuffle(s, pages)
	}
	lines := beam.ParDo(s, clean, pages)
	WriteSharded(s, o.Output, o.Suffix, o.Shards, lines)
	return nil
}

// checkScheme reports a path whose scheme has no registered file system as
// an error (Beam's own check panics).
func checkScheme(path string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pipeline: %v", r)
		}
	}()
	filesystem.ValidateScheme(path)
	return nil
}

func init() {
	beam.RegisterType(reflect.TypeFor[Page]())
}
