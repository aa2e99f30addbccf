// Package crawlsort sorts the records of web archives by host, with
// bounded memory, so that the pages of one site come together (WC
// Cleaner's arc_extract.py, for a crawl of any size): sluice sort.
//
// Run reads the inputs (WARC or ARC files, plain, gzip-compressed record
// by record or whole) and writes DIR/part-NNNNN.warc.gz: every record read,
// the records of one host contiguous, hosts in byte order of their key
// (HostKey), records of a host in input order. A record is copied, not
// re-serialised: a gzip member that holds one record (as crawlers write
// .warc.gz) is copied byte for byte, and a plain record is compressed into
// a gzip member of its own, so the decompressed record (WARC header and
// block) is byte-identical to the input's. Records of a file compressed as
// one gzip stream are decompressed into a spill file first; ARC records are
// converted to WARC response records (their header synthesised, their
// block byte-identical).
//
// It is an external sort: the records are read once for their headers
// only, and a line per record (host key, sequence, where its bytes are) is
// kept in memory up to Options.Memory, then sorted and spilled as a run to
// DIR/.sluice-sort; the runs are merged (64 at a time) and the records
// copied from their inputs by offset. Memory depends on neither the size
// of the crawl nor the size of one host.
//
// DIR/index.tsv lists every record written, DIR/summary.json accounts for
// every record read and every damaged span skipped. An interrupted run
// resumes: DIR/.sluice-sort/state.json records the finished scan and the
// finished parts, each written whole (a temporary file renamed).
package crawlsort
