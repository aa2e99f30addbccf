// Package fingerprint holds the fingerprints sluice finds duplicates by, shared
// by sluice corpus and the Beam pipeline: the MinHash signature of a page's
// kept text, with its LSH bands, for near-duplicate pages (Signature), and
// the keys of its paragraphs for paragraph deduplication across a corpus,
// as CCNet does (ParagraphKeys). The indexes that remember them over a run
// are the callers' (package corpus keeps bounded windows of them).
package fingerprint
