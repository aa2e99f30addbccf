// Package corpus cleans crawl archives and directories of pages into a text
// corpus: the engine behind "sluice corpus".
//
// Run reads its inputs (WARC and ARC files, plain or gzip-compressed;
// directories of HTML files; single HTML files), picks the records that are
// HTML pages, cleans them with one shared sluice.Cleaner on several
// goroutines, and writes the cleaned pages to an output directory in one of
// three formats (see Formats). It accounts for every record it reads: each
// one ends up in exactly one bucket of the Summary, cleaned, skipped for a
// reason or failed for a reason, and the buckets add up to the records read.
//
// # Pipeline
//
// One reader goroutine reads the inputs one after the other, record by
// record; it decides what can be decided without cleaning (record type,
// HTTP status, Content-Type, size, duplicates). Options.Jobs workers clean
// and render the pages. The writer, on Run's goroutine, takes the results
// in input order and writes them, so the output is in input order whatever
// the number of workers, and counts them in the Summary. The three are
// the engine of package parallel (parallel.Map), which the reader feeds.
//
// With Options.Site the workers do not render the pages of hosts: the
// writer holds them by host (site.Grouper), corrects each host's batch with
// the site model built from it, renders and writes it. The pages of an
// input are all written before its end is recorded; within an input they
// come out by host, in batches. The output is still the same whatever the
// number of workers.
//
// # Memory
//
// Memory is bounded whatever the size of the inputs: records are read one at
// a time with a cap (Options.MaxRecordBytes; a longer record is skipped as
// "too large"), and the bytes held by items between the reader and the
// writer (queued, in the workers, or done and waiting for an earlier item)
// are bounded by Options.InFlightBytes, a parallel.Budget: the reader waits
// when the budget is spent and the writer gives it back as it writes. Results are written as
// they come and never accumulated; duplicate detection keeps a bounded set of
// 64-bit hashes (Options.DedupWindow). On top of that, each worker needs
// about 20 bytes per byte of the page it is cleaning (see
// sluice.Options.MaxBytes). With Options.Site, the budget counts a cleaned
// page on its way to the writer (when it is larger than its payload), and
// the pages the writer holds for their site models are bounded on their
// own by Options.SiteBytes (and SiteGroup.MaxPending).
//
// # Output and resume
//
// The output directory holds the parts (part-NNNNN.jsonl, part-NNNNN.warc.gz
// or one corpus.txt), summary.json and manifest.json. The manifest lists the
// inputs that are finished and the length of every part at the moment they
// were: a finished input's output is entirely within those lengths. A later
// Run on the same directory skips the finished inputs, cuts the parts back to
// their recorded lengths and removes parts the manifest does not know (the
// output of inputs that were not finished), then processes the rest into new
// parts. See Run.
package corpus
