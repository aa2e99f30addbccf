package corpus

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/site"
)

// Skip reasons: a record that is not cleaned but is not damaged either.
// A response with an HTTP status other than 2xx is skipped with the reason
// "status NNN".
const (
	ReasonNotResponse = "not a response" // warcinfo, request, metadata, conversion... records
	ReasonNotHTML     = "not HTML"       // Content-Type not HTML, or binary content
	ReasonRevisit     = "revisit"        // a revisit record: no payload of its own
	ReasonEmpty       = "empty"          // no payload, or only white space
	ReasonTooLarge    = "too large"      // over Options.MaxRecordBytes
	ReasonDuplicate   = "duplicate"      // the same payload was seen earlier in the run
	ReasonNoText      = "no text"        // cleaned, but the page has no text to keep
	// ReasonNearDuplicate: the kept text resembles that of a page written
	// before it (Options.NearDuplicate).
	ReasonNearDuplicate = "near duplicate"
)

// Reasons counts records by reason. It is written to JSON as an object,
// {} when empty.
type Reasons map[string]int64

// MarshalJSON writes the counts as an object, {} for none.
func (r Reasons) MarshalJSON() ([]byte, error) {
	if r == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(map[string]int64(r))
}

// Counts sorts records into buckets. Every record read is in exactly one of
// Cleaned, Skipped and Failed: Records == Cleaned + sum(Skipped) +
// sum(Failed).
//
// In an archive, a record is one archive record, or one damaged stretch
// (damaged bytes between records, a gzip member that cannot be read, the
// rest of a gzip member after its data went wrong), counted failed with
// its offset and length in failures.jsonl: every byte of an archive is in
// a counted record or a counted damaged stretch.
type Counts struct {
	// Records is the number of records read: archive records (damaged ones
	// and unreadable stretches of an archive included, one each) and HTML
	// files.
	Records int64 `json:"records"`
	// Cleaned is the number of pages written to the output.
	Cleaned int64 `json:"cleaned"`
	// Skipped counts the records left out on purpose, by reason: "not a
	// response", "not HTML", "status NNN", "revisit", "empty", "too
	// large", "duplicate", "near duplicate", "no text", "language".
	Skipped Reasons `json:"skipped"`
	// Failed counts the records that could not be read or cleaned, by
	// reason: "archive: ..." (damage in the archive, reported by package
	// warc), "http: ..." (a response that cannot be parsed or decoded),
	// "read: ..." (an HTML file that cannot be read), "clean: ...".
	Failed Reasons `json:"failed"`
}

func (c *Counts) skip(reason string) {
	if c.Skipped == nil {
		c.Skipped = Reasons{}
	}
	c.Skipped[reason]++
}

func (c *Counts) fail(reason string) {
	if c.Failed == nil {
		c.Failed = Reasons{}
	}
	c.Failed[reason]++
}

// add adds o to c.
func (c *Counts) add(o Counts) {
	c.Records += o.Records
	c.Cleaned += o.Cleaned
	for k, v := range o.Skipped {
		if c.Skipped == nil {
			c.Skipped = Reasons{}
		}
		c.Skipped[k] += v
	}
	for k, v := range o.Failed {
		if c.Failed == nil {
			c.Failed = Reasons{}
		}
		c.Failed[k] += v
	}
}

// sub takes o, a part of c, out of c.
func (c *Counts) sub(o Counts) {
	c.Records -= o.Records
	c.Cleaned -= o.Cleaned
	c.Skipped = subReasons(c.Skipped, o.Skipped)
	c.Failed = subReasons(c.Failed, o.Failed)
}

func subReasons(m, o Reasons) Reasons {
	out := Reasons{}
	for k, v := range m {
		if d := v - o[k]; d != 0 {
			out[k] = d
		}
	}
	return out
}

// normalize makes empty buckets empty maps.
func (c *Counts) normalize() {
	if c.Skipped == nil {
		c.Skipped = Reasons{}
	}
	if c.Failed == nil {
		c.Failed = Reasons{}
	}
}

// SkippedTotal returns the number of skipped records.
func (c *Counts) SkippedTotal() int64 { return sum(c.Skipped) }

// FailedTotal returns the number of failed records.
func (c *Counts) FailedTotal() int64 { return sum(c.Failed) }

// Check reports an error if the buckets do not add up to Records.
func (c *Counts) Check() error {
	if got := c.Cleaned + c.SkippedTotal() + c.FailedTotal(); got != c.Records {
		return fmt.Errorf("corpus: %d records read but %d accounted for (%d cleaned, %d skipped, %d failed)",
			c.Records, got, c.Cleaned, c.SkippedTotal(), c.FailedTotal())
	}
	return nil
}

func sum(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// Summary reports a Run. It is written to summary.json in the output
// directory.
type Summary struct {
	// Counts are the records of the inputs this run finished: what it
	// added to the output. (While the run goes, for Progress, they count
	// every record read.)
	Counts
	// Unfinished counts the records of the input the run began but did
	// not finish (it was stopped): their output was dropped, and the next
	// run reads the input again. Nil when every input begun was finished.
	Unfinished *Counts `json:"unfinished,omitempty"`
	// FailuresListed is the number of lines of failures.jsonl (the failed
	// records of Counts, then the input errors); FailuresLeftOut the
	// failures left out of it beyond MaxFailureLines.
	FailuresListed  int64 `json:"failures_listed"`
	FailuresLeftOut int64 `json:"failures_left_out"`
	// Inputs is the number of inputs processed by this run; Finished of
	// them were read to their end.
	Inputs   int `json:"inputs"`
	Finished int `json:"finished"`
	// AlreadyDone lists the inputs skipped because an earlier run finished
	// them (see Run).
	AlreadyDone []string `json:"already_done,omitempty"`
	// InputErrors are the inputs that could not be read (or not to their
	// end): missing, unreadable, not an archive, an I/O error.
	InputErrors []InputError `json:"input_errors,omitempty"`
	// SkippedFiles are the files below the input directories that this
	// run's walk left out, with an archive's or an HTML file's name (see
	// inputs.Walker): symbolic links leading out of the directory, to a
	// directory, to nothing or into the output directory, and special
	// files (reasons inputs.SkipLinkOutside... inputs.SkipSpecial). They
	// are neither records nor inputs, so Counts and Total leave them out,
	// and they are not errors: the run does not fail for them (name such a
	// file as an input to read it). Every run walks the directories again
	// and lists them again. At most MaxSkippedFiles are listed, in the
	// order of the walk; SkippedFilesLeftOut counts the others. Always a
	// list, [] for none.
	SkippedFiles        []SkippedFile `json:"skipped_files"`
	SkippedFilesLeftOut int64         `json:"skipped_files_left_out"`
	// Bytes is the size of the inputs read (compressed, as on disk).
	Bytes int64 `json:"bytes"`
	// Seconds is the wall time of the run.
	Seconds float64 `json:"seconds"`
	// Run is the number of this run on the output directory (1 for the
	// first).
	Run int `json:"run"`
	// Format is the output format.
	Format string `json:"format"`
	// Parts are the output files written by this run.
	Parts []string `json:"parts,omitempty"`
	// Site is what the site models did in this run (Options.Site only).
	Site *SiteCounts `json:"site,omitempty"`
	// ParagraphsDropped counts the paragraphs Options.ParagraphDedup
	// dropped from the pages written or skipped by this run.
	ParagraphsDropped int64 `json:"paragraphs_dropped,omitempty"`
	// Total is the sum over every input finished by this run and the
	// earlier ones on the same output directory: what the output holds.
	// Total == Counts + the Counts of the earlier runs, whatever stopped
	// this one.
	Total Counts `json:"total"`
	// TotalInputs is the number of inputs Total covers.
	TotalInputs int `json:"total_inputs"`
}

// SiteCounts sum up what the site models did (Options.Site): the pages
// corrected with the model of their host (the others were cleaned page by
// page: their host had too few pages, or they had no host), the kept blocks
// dropped as template and the dropped blocks kept as the pages' own prose.
// A page whose every kept block was template is among the pages corrected,
// and skipped as "no text".
type SiteCounts struct {
	Pages   int64 `json:"pages"`
	Dropped int64 `json:"dropped"`
	Rescued int64 `json:"rescued"`
	// Learned is what the first pass of Options.SiteWhole learned.
	Learned *site.LearnStats `json:"learned,omitempty"`
}

// SkippedFile is a file below an input directory that the walk left out:
// its path (below the directory as given) and why (an inputs.Skip...
// reason).
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// skipFile lists a file the walk left out, or counts it beyond limit.
func (s *Summary) skipFile(path, reason string, limit int) {
	if len(s.SkippedFiles) < limit {
		s.SkippedFiles = append(s.SkippedFiles, SkippedFile{path, reason})
		return
	}
	s.SkippedFilesLeftOut++
}

// InputError is an input that could not be read, or not to its end.
type InputError struct {
	Input string `json:"input"`
	Error string `json:"error"`
}

// WriteText writes the summary for people: the buckets with their reasons,
// largest first.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	rate := ""
	if s.Seconds > 0 && s.Records > 0 {
		rate = fmt.Sprintf(" in %.1fs (%.0f records/s, %.1f MB/s)", s.Seconds, float64(s.Records)/s.Seconds, float64(s.Bytes)/1e6/s.Seconds)
	}
	fmt.Fprintf(&b, "%d inputs, %d records%s\n", s.Inputs, s.Records, rate)
	if len(s.AlreadyDone) > 0 {
		fmt.Fprintf(&b, "  %d inputs already done by an earlier run, skipped\n", len(s.AlreadyDone))
	}
	fmt.Fprintf(&b, "  cleaned  %d\n", s.Cleaned)
	if s.Site != nil {
		fmt.Fprintf(&b, "  site model: %d pages corrected by the other pages of their host, %d blocks dropped, %d rescued\n", s.Site.Pages, s.Site.Dropped, s.Site.Rescued)
		if l := s.Site.Learned; l != nil {
			fmt.Fprintf(&b, "  site models learned first (--site=whole): %d hosts from %d pages; %d hosts over the cap (%d pages not learned); %d hosts dropped for memory (%d pages)\n",
				l.Hosts, l.Pages, l.HostsOverCap, l.PagesOverCap, l.HostsDropped, l.PagesDropped)
		}
	}
	writeReasons(&b, "skipped", s.Skipped)
	writeReasons(&b, "failed", s.Failed)
	for _, e := range s.InputErrors {
		fmt.Fprintf(&b, "  input error: %s: %s\n", e.Input, e.Error)
	}
	if n := int64(len(s.SkippedFiles)) + s.SkippedFilesLeftOut; n > 0 {
		fmt.Fprintf(&b, "  %d files below the input directories left out (links leading out or to directories, special files): listed in %s\n", n, summaryName)
	}
	if u := s.Unfinished; u != nil {
		fmt.Fprintf(&b, "  stopped: %d records of an unfinished input not counted above (%d cleaned), their output dropped: the next run reads it again\n", u.Records, u.Cleaned)
	}
	if s.FailuresLeftOut > 0 {
		fmt.Fprintf(&b, "  %d failures listed in %s, %d more left out\n", s.FailuresListed, failuresName, s.FailuresLeftOut)
	}
	if s.Run > 1 || len(s.AlreadyDone) > 0 {
		fmt.Fprintf(&b, "output (%d inputs, runs 1 to %d): %d records, %d cleaned, %d skipped, %d failed\n",
			s.TotalInputs, s.Run, s.Total.Records, s.Total.Cleaned, s.Total.SkippedTotal(), s.Total.FailedTotal())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeReasons(b *strings.Builder, what string, m map[string]int64) {
	fmt.Fprintf(b, "  %-8s %d\n", what, sum(m))
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(x, y string) int {
		if m[x] != m[y] {
			if m[x] > m[y] {
				return -1
			}
			return 1
		}
		return strings.Compare(x, y)
	})
	for _, k := range keys {
		fmt.Fprintf(b, "    %-40s %d\n", k, m[k])
	}
}
