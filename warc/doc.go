// Package warc reads and writes web archives: WARC 1.0 and 1.1
// (https://iipc.github.io/warc-specifications/) and the Internet Archive's
// older ARC format, plain or gzip-compressed, streaming and robust to
// damage.
//
// Reading: NewReader(r, opts).Records() (or ReadFile) yields every record in
// file order with its offset and length in the file; damaged records are
// reported as *RecordError and reading resumes at the next record (see
// Reader for the policy). A record's Content holds its block; for response
// records, Record.HTTPResponse or ParseHTTPResponse parse the HTTP message
// and decode its body (chunked, gzip, deflate, br) with a cap against
// decompression bombs.
//
// Writing: NewWriter writes records plain or one gzip member per record,
// with helpers for warcinfo and conversion records (such as the cleaned
// text of a page, pointing back to its source with WARC-Refers-To).
package warc
