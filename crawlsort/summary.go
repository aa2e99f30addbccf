package crawlsort

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/warc"
)

// maxListed caps the damaged spans, duplicate IDs and input errors listed
// one by one in a Summary (all are counted).
const maxListed = 1000

// Summary accounts for a sort: every record read is written (RecordsIn
// equals RecordsOut), and what could not be read is listed as damage or
// as an input error. It is DIR/summary.json.
type Summary struct {
	Inputs     int   `json:"inputs"`
	InputBytes int64 `json:"input_bytes"`
	RecordsIn  int64 `json:"records_in"`
	RecordsOut int64 `json:"records_out"`
	BytesOut   int64 `json:"bytes_out"`
	Parts      int   `json:"parts"`
	Hosts      int64 `json:"hosts"`
	// NoHost counts the records written under NoHost (no target URI, or
	// none with a host).
	NoHost int64            `json:"records_without_host"`
	ByType map[string]int64 `json:"records_by_type"`
	// Spilled counts the records whose bytes were copied to a spill file
	// first (records of a file compressed as one gzip stream, and ARC
	// records, converted to WARC); Converted counts the ARC records.
	Spilled   int64 `json:"spilled,omitempty"`
	Converted int64 `json:"converted_arc,omitempty"`
	// Runs is how many sorted runs the scan spilled.
	Runs int `json:"runs"`
	// Damaged counts the damaged spans of the inputs, which hold no
	// record that could be read; Damage lists the first maxListed.
	Damaged int64    `json:"damaged"`
	Damage  []Damage `json:"damage,omitempty"`
	// DuplicateIDs counts the records whose WARC-Record-ID another record
	// read before it has; both are written. Duplicates lists the first.
	DuplicateIDs int64       `json:"duplicate_ids"`
	Duplicates   []Duplicate `json:"duplicates,omitempty"`
	// InputErrors are the inputs that could not be read to their end.
	InputErrors []InputError `json:"input_errors,omitempty"`
}

// Damage is a damaged span of an input, skipped.
type Damage struct {
	Input  string `json:"input"`
	Offset int64  `json:"offset"`
	// InMember is the decompressed offset of the damage in the gzip
	// member at Offset, or -1.
	InMember int64  `json:"in_member"`
	Length   int64  `json:"length"`
	Kind     string `json:"kind"`
	Reason   string `json:"reason"`
}

// String says where the damage is and what it is.
func (d Damage) String() string {
	if d.InMember >= 0 {
		return fmt.Sprintf("%s: offset %d (decompressed offset %d in the gzip member): %s", d.Input, d.Offset, d.InMember, d.Reason)
	}
	return fmt.Sprintf("%s: offset %d: %s", d.Input, d.Offset, d.Reason)
}

// Duplicate is a record whose WARC-Record-ID an earlier one has.
type Duplicate struct {
	RecordID string `json:"record_id"`
	Input    string `json:"input"`
	Offset   int64  `json:"offset"`
	// FirstInput and FirstOffset are where the first record with the ID is.
	FirstInput  string `json:"first_input"`
	FirstOffset int64  `json:"first_offset"`
}

// InputError is an input that could not be read, or not to its end.
type InputError struct {
	Input string `json:"input"`
	Error string `json:"error"`
}

func (s *Summary) damage(input string, e *warc.RecordError) Damage {
	s.Damaged++
	d := Damage{Input: input, Offset: e.Offset, InMember: e.InMember, Length: e.Length, Kind: e.Kind.String(), Reason: e.Error()}
	if len(s.Damage) < maxListed {
		s.Damage = append(s.Damage, d)
	}
	return d
}

func (s *Summary) inputError(input string, err error) {
	if len(s.InputErrors) < maxListed {
		s.InputErrors = append(s.InputErrors, InputError{input, err.Error()})
	}
}

// Write writes the summary: indented JSON, as in summary.json, or a line
// (WriteText).
func (s *Summary) Write(w io.Writer, asJSON bool) error {
	if !asJSON {
		return s.WriteText(w)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteText writes the summary in one line.
func (s *Summary) WriteText(w io.Writer) error {
	var kinds []string
	for _, t := range slices.Sorted(maps.Keys(s.ByType)) {
		kinds = append(kinds, fmt.Sprintf("%d %s", s.ByType[t], t))
	}
	_, err := fmt.Fprintf(w, "sorted %d records of %d inputs (%s) into %d parts: %d hosts, %d records without host, %d damaged spans skipped, %d duplicate record IDs, %d inputs with errors\n",
		s.RecordsOut, s.Inputs, strings.Join(kinds, ", "), s.Parts, s.Hosts, s.NoHost, s.Damaged, s.DuplicateIDs, len(s.InputErrors))
	return err
}
