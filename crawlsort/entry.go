package crawlsort

import (
	"fmt"
	"strconv"
	"strings"
)

// entry is what the sort keeps of a record: its key and where its bytes
// are. It travels through the runs as one line of tab-separated fields,
// key first, so that the byte order of the lines is the order of the
// output: host, then sequence (input order).
type entry struct {
	host string
	seq  int64 // the record's number in the scan, in input order
	typ  string
	id   string // WARC-Record-ID; "" for none
	// where the record is in its input (as warc.Record has it):
	src                    int // index of the input in state.Files
	srcOff, srcLen, member int64
	// where its bytes are read from: the input, or a spill file.
	read             int
	readOff, readLen int64
	gz               bool // the bytes are a gzip member holding the record alone
}

var (
	escaper   = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)
	unescaper = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")
)

// line encodes e (see entry).
func (e *entry) line() string {
	gz := "p"
	if e.gz {
		gz = "g"
	}
	return fmt.Sprintf("%s\t%016x\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s",
		e.host, e.seq, escaper.Replace(e.typ), e.src, e.srcOff, e.srcLen, e.member, e.read, e.readOff, e.readLen, gz, escaper.Replace(e.id))
}

// parseEntry decodes a line written by entry.line.
func parseEntry(line string) (entry, error) {
	f := strings.Split(line, "\t")
	if len(f) != 12 {
		return entry{}, fmt.Errorf("run line with %d fields, not 12", len(f))
	}
	e := entry{host: f[0], typ: unescaper.Replace(f[2]), gz: f[10] == "g", id: unescaper.Replace(f[11])}
	var err error
	if e.seq, err = strconv.ParseInt(f[1], 16, 64); err != nil {
		return entry{}, fmt.Errorf("run line: sequence: %w", err)
	}
	nums := []*int64{&e.srcOff, &e.srcLen, &e.member, &e.readOff, &e.readLen}
	for i, j := range []int{4, 5, 6, 8, 9} {
		if *nums[i], err = strconv.ParseInt(f[j], 10, 64); err != nil {
			return entry{}, fmt.Errorf("run line: field %d: %w", j+1, err)
		}
	}
	if e.src, err = strconv.Atoi(f[3]); err != nil {
		return entry{}, fmt.Errorf("run line: input: %w", err)
	}
	if e.read, err = strconv.Atoi(f[7]); err != nil {
		return entry{}, fmt.Errorf("run line: spill file: %w", err)
	}
	return e, nil
}

// idLine is the line of the record-ID sort, which finds duplicate IDs:
// the ID first, then where the record is.
func (e *entry) idLine() string {
	return fmt.Sprintf("%s\t%016x\t%d\t%d\t%d", escaper.Replace(e.id), e.seq, e.src, e.srcOff, e.member)
}

// idOf returns the escaped ID of an idLine and the rest of it.
func idOf(line string) (id, rest string) {
	id, rest, _ = strings.Cut(line, "\t")
	return id, rest
}
