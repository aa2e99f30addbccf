// Package pipeline cleans web archives at scale with Apache Beam: it reads
// WARC (and ARC) files with package warc and does what sluice corpus does
// (package corpus, whose code it calls): it cleans every HTML response
// with a sluice.Cleaner and writes one JSON document per page, the one
// corpus writes, to sharded files; optionally it removes exact and near
// duplicates, corrects the pages of each host with the host's site model
// and drops the paragraphs repeated across pages.
//
// The pipeline, as Build constructs it:
//
//	fileio.MatchFiles(glob)          one element per file (local, gs://, s3://)
//	Reshuffle                        spreads the files over the workers
//	ParDo(readWARCFn)                records → Page (the records corpus cleans)
//	[Dedup]                          GroupByKey on a hash of the payload: the first copy
//	[Reshuffle]                      Options.Rebalance: spreads the pages
//	ParDo(cleanFn)                   Page → Cleaned, or with Options.Site:
//	  [Site]                         GroupByKey on archive and host, site models
//	[DedupParagraphs]                GroupByKey on paragraphs, join on pages
//	[NearDuplicates]                 GroupByKey on LSH bands, decide, join on pages
//	WriteSharded(prefix, n)          PREFIX-00000-of-0000n.jsonl ...
//
// Parity with corpus: on the same archives, given to corpus in lexical
// order, with the same options, the pipeline writes the same documents
// and its counters (namespace "sluice", see the Counter* constants and
// CountersOf) count what corpus's summary.json counts; where corpus keeps
// the first copy of a duplicate in the order it writes pages, the pipeline
// keeps the same copy by sorting on that order (see order). The limits of
// that parity are in docs/beam.md.
package pipeline

import (
	"errors"
	"fmt"
	"math"
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
	"github.com/sluice-project/sluice/corpus"
	"github.com/sluice-project/sluice/site"
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
	// pipeline or model, threshold, links, images...). The zero value
	// cleans with the embedded model. It travels to the workers with the
	// pipeline, a Model included.
	Cleaner sluice.Options
	// NoTables leaves the data tables out of every page (corpus
	// Options.NoTables).
	NoTables bool
	// Rebalance shuffles the pages between reading and cleaning, so that
	// pages of one file are cleaned on several workers. It costs a shuffle
	// of every HTML payload; worth it when there are fewer input files than
	// worker cores (Dedup and Site shuffle the pages anyway).
	Rebalance bool
	// MaxRecordBytes caps the bytes of a record read: a longer record is
	// skipped as "too large". Default: corpus.DefaultMaxRecordBytes (16
	// MiB), as sluice corpus.
	MaxRecordBytes int64
	// Dedup skips a page whose payload (the decoded HTTP body) an earlier
	// page had, as "duplicate": the copy kept is the first in input order,
	// the lowest by file and offset (sluice corpus always does it).
	Dedup bool
	// Site cleans the pages of one host of one archive against each
	// other with the site model of the host, as corpus Options.Site;
	// SiteGroup.BatchSize and SiteGroup.Model configure it.
	Site      bool
	SiteGroup site.GroupOptions
	// NearDuplicate, between 0 and 1, skips a page as "near duplicate"
	// when its kept text resembles, at least this much, that of a page
	// written before it with which it shares an LSH band (corpus
	// Options.NearDuplicate). 0 turns it off.
	NearDuplicate float64
	// ParagraphDedup, when positive, drops from a page each paragraph that
	// at least this many pages before it held (corpus
	// Options.ParagraphDedup); with Site, on the pages as their site
	// models left them.
	ParagraphDedup int
}

// withDefaults checks o and sets its defaults.
func (o *Options) withDefaults() error {
	if strings.TrimSpace(o.Input) == "" {
		return errors.New("pipeline: no input: give a glob of WARC files")
	}
	if strings.TrimSpace(o.Output) == "" {
		return errors.New("pipeline: no output prefix")
	}
	if o.Shards < 0 {
		return fmt.Errorf("pipeline: %d shards: the number of shards must be positive", o.Shards)
	}
	if o.NearDuplicate < 0 || o.NearDuplicate > 1 || math.IsNaN(o.NearDuplicate) {
		return fmt.Errorf("pipeline: NearDuplicate %v: give a similarity between 0 (off) and 1", o.NearDuplicate)
	}
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Suffix == "" {
		o.Suffix = ".jsonl"
	}
	if o.MaxRecordBytes <= 0 {
		o.MaxRecordBytes = corpus.DefaultMaxRecordBytes
	}
	if _, err := sluice.New(o.Cleaner); err != nil {
		return fmt.Errorf("pipeline: cleaner options: %w", err)
	}
	for _, path := range []string{o.Input, o.Output} {
		if err := checkScheme(path); err != nil {
			return err
		}
	}
	return nil
}

// Build adds the pipeline to scope s. It checks the options and that the
// cleaner can be built (an unknown filter or a bad model fails here, at
// construction, not on the workers).
func Build(s beam.Scope, o Options) error {
	if err := o.withDefaults(); err != nil {
		return err
	}
	c, err := newCleaner(o.Cleaner, o.NoTables)
	if err != nil {
		return err
	}
	if o.Site {
		// The site model's options must suit the cleaner (the path prior
		// needs the trained model): say so here, not on the workers.
		if err := c.setup(); err != nil {
			return err
		}
		if _, err := corpus.SiteModelOptions(c.c, o.SiteGroup.Model); err != nil {
			return err
		}
		c.c = nil
	}
	f := finishing{Keep: o.ParagraphDedup > 0, Sign: o.NearDuplicate > 0}

	s = s.Scope("sluice")
	files := fileio.MatchFiles(s, o.Input, fileio.MatchEmptyDisallow())
	// MatchFiles emits every file from one bundle; without a shuffle a
	// runner may fuse the reading with it and read every file on one
	// worker.
	files = beam.Reshuffle(s, files)
	pages := beam.ParDo(s, &readWARCFn{MaxRecordBytes: o.MaxRecordBytes}, files)
	if o.Dedup {
		pages = dedupExact(s, pages)
	}
	if o.Rebalance {
		pages = beam.Reshuffle(s, pages)
	}
	var docs beam.PCollection
	if o.Site {
		docs = cleanBySite(s, &siteFn{Cleaner: c, Finishing: f, Group: o.SiteGroup}, pages)
	} else {
		docs = beam.ParDo(s, &cleanFn{Cleaner: c, Finishing: f}, pages)
	}
	if o.ParagraphDedup > 0 {
		docs = dedupParagraphs(s, o.ParagraphDedup, f, docs)
	}
	if o.NearDuplicate > 0 {
		docs = dropNearDuplicates(s, o.NearDuplicate, docs)
	}
	WriteSharded(s, o.Output, o.Suffix, o.Shards, beam.ParDo(s, &writtenFn{}, docs))
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
	for _, t := range []reflect.Type{reflect.TypeFor[Page](), reflect.TypeFor[Cleaned](), reflect.TypeFor[order](),
		reflect.TypeFor[bandEntry](), reflect.TypeFor[edge]()} {
		beam.RegisterType(t)
	}
}
