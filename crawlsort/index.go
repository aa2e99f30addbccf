package crawlsort

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// indexHeader is the first line of index.tsv: the names of its columns.
// file, offset and length say where the record is in the output (offset
// and length of its gzip member); source, source_offset and
// source_length where it was in its input, as warc.Record has it
// (member_offset is the gzip member holding it when it shared one with
// other records, the offsets then being decompressed ones; -1 otherwise).
const indexHeader = "host\tfile\toffset\tlength\tsource\tsource_offset\tsource_length\tmember_offset\ttype\trecord_id\n"

// writeIndex writes dir/index.tsv from the parts' indexes.
func writeIndex(dir string, st *state) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return atomicWrite(root, dir, indexName, func(w io.Writer) error {
		if _, err := io.WriteString(w, indexHeader); err != nil {
			return err
		}
		for _, p := range st.Parts {
			f, err := root.Open(filepath.Join(workDir, "index-"+p.Name+".tsv"))
			if err != nil {
				return err
			}
			_, err = io.Copy(w, f)
			f.Close()
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// readSummary reads dir/summary.json, written by a finished run.
func readSummary(dir string) (*Summary, error) {
	path := filepath.Join(dir, summaryName)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the sort in %s is finished but its summary cannot be read: %w; use --force to sort again", dir, err)
	}
	sum := &Summary{}
	if err := json.Unmarshal(data, sum); err != nil {
		return nil, fmt.Errorf("%s: %w; use --force to sort again", path, err)
	}
	return sum, nil
}

// findDuplicates merges the record-ID runs and counts the records whose
// ID an earlier record has (in input order), listing the first maxListed.
func findDuplicates(dir string, st *state, sum *Summary) error {
	sum.DuplicateIDs, sum.Duplicates = 0, nil
	var firstID, first string
	for line, err := range mergeRuns(filepath.Join(dir, workDir), st.IDRuns) {
		if err != nil {
			return err
		}
		id, rest := idOf(line)
		if id != firstID {
			firstID, first = id, rest
			continue
		}
		sum.DuplicateIDs++
		if len(sum.Duplicates) < maxListed {
			in, off := st.idLocation(rest)
			fin, foff := st.idLocation(first)
			sum.Duplicates = append(sum.Duplicates, Duplicate{RecordID: unescaper.Replace(id), Input: in, Offset: off, FirstInput: fin, FirstOffset: foff})
		}
	}
	return nil
}

// idLocation returns the input and offset of the rest of an idLine
// (sequence, input, offset, member offset): the member's offset for a
// record sharing one.
func (st *state) idLocation(rest string) (string, int64) {
	f := strings.Split(rest, "\t")
	if len(f) != 4 {
		return "", -1
	}
	src, _ := strconv.Atoi(f[1])
	off, _ := strconv.ParseInt(f[2], 10, 64)
	if m, _ := strconv.ParseInt(f[3], 10, 64); m >= 0 && m != off {
		off = m
	}
	in := ""
	if src >= 0 && src < len(st.Files) {
		in = st.Files[src]
	}
	return in, off
}
