package tableset

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/sluice-project/sluice/tables"
)

// The labels of the tables file.
const (
	LabelData    = "data"
	LabelLayout  = "layout"
	LabelUnknown = "?"
)

// Ref points at one leaf table: page Page of data set Set, and Table, its
// index in the segmented page's Tables.
type Ref struct {
	Set, Page string
	Table     int
}

func (r Ref) String() string { return fmt.Sprintf("%s/%s table %d", r.Set, r.Page, r.Table) }

// TableLabel is one line of a tables file.
type TableLabel struct {
	Ref
	// Label is LabelData, LabelLayout or LabelUnknown.
	Label string
	// Note is the optional free text of the fifth column.
	Note string
	// Line is the line's number in the file read (0 when not read).
	Line int
}

// CellLabel is one line of a cells file: the role of the cell of table Ref
// whose top-left slot is at Row, Col.
type CellLabel struct {
	Ref
	Row, Col int
	Role     tables.Role
	Line     int
}

// Error is a problem at one line of a labels file (Line 0: the file as a
// whole).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line <= 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// ParseRole returns the role of a tables.Role name.
func ParseRole(s string) (tables.Role, bool) {
	for r := tables.Neutral; r <= tables.FinalNonImportant; r++ {
		if r.String() == s {
			return r, true
		}
	}
	return 0, false
}

// roleList names the roles for error messages.
func roleList() string {
	var names []string
	for r := tables.Neutral; r <= tables.FinalNonImportant; r++ {
		names = append(names, r.String())
	}
	return strings.Join(names, ", ")
}

// eachLine calls fn with the fields of each line of r that is neither
// blank nor a comment; fn's error message is reported at that line.
func eachLine(r io.Reader, name string, fn func(fields []string, line int) string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimRight(sc.Text(), "\r")
		if line == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Split(s, "\t")
		if len(f) == 1 && strings.Contains(s, " ") {
			return &Error{File: name, Line: line, Msg: "no tabs: the fields are separated by tabs (did an editor turn them into spaces?)"}
		}
		if msg := fn(f, line); msg != "" {
			return &Error{File: name, Line: line, Msg: msg}
		}
	}
	if err := sc.Err(); err != nil {
		return &Error{File: name, Line: line + 1, Msg: err.Error()}
	}
	return nil
}

// parseRef reads set, page and table from the first three fields.
func parseRef(f []string) (Ref, string) {
	if f[0] == "" || f[1] == "" {
		return Ref{}, "empty set or page"
	}
	t, err := strconv.Atoi(f[2])
	if err != nil || t < 0 {
		return Ref{}, fmt.Sprintf("table index %q is not a number from 0", f[2])
	}
	return Ref{Set: f[0], Page: f[1], Table: t}, ""
}

// ParseTables reads a tables file from r; name is the file's name for the
// errors. A duplicate reference or an unknown label is an error.
func ParseTables(r io.Reader, name string) ([]TableLabel, error) {
	var out []TableLabel
	seen := map[Ref]int{}
	err := eachLine(r, name, func(f []string, line int) string {
		if len(f) < 4 || len(f) > 5 {
			return fmt.Sprintf("%d fields, want 4 or 5 separated by tabs: set, page, table, label (data, layout or ?), optional note", len(f))
		}
		ref, msg := parseRef(f)
		if msg != "" {
			return msg
		}
		l := TableLabel{Ref: ref, Label: f[3], Line: line}
		if len(f) == 5 {
			l.Note = f[4]
		}
		if l.Label != LabelData && l.Label != LabelLayout && l.Label != LabelUnknown {
			return fmt.Sprintf("label %q: want data, layout or ?", l.Label)
		}
		if prev, ok := seen[ref]; ok {
			return fmt.Sprintf("%s is already labelled at line %d", ref, prev)
		}
		seen[ref] = line
		out = append(out, l)
		return ""
	})
	return out, err
}

// ParseCells reads a cells file from r; name is the file's name for the
// errors. A duplicate cell or an unknown role is an error.
func ParseCells(r io.Reader, name string) ([]CellLabel, error) {
	var out []CellLabel
	type key struct {
		Ref
		row, col int
	}
	seen := map[key]int{}
	err := eachLine(r, name, func(f []string, line int) string {
		if len(f) != 6 {
			return fmt.Sprintf("%d fields, want 6 separated by tabs: set, page, table, row, col, role", len(f))
		}
		ref, msg := parseRef(f)
		if msg != "" {
			return msg
		}
		row, err1 := strconv.Atoi(f[3])
		col, err2 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil || row < 0 || col < 0 {
			return fmt.Sprintf("row %q, col %q: want numbers from 0", f[3], f[4])
		}
		role, ok := ParseRole(f[5])
		if !ok {
			return fmt.Sprintf("role %q: want one of %s", f[5], roleList())
		}
		k := key{ref, row, col}
		if prev, ok := seen[k]; ok {
			return fmt.Sprintf("cell [%d,%d] of %s is already labelled at line %d", row, col, ref, prev)
		}
		seen[k] = line
		out = append(out, CellLabel{Ref: ref, Row: row, Col: col, Role: role, Line: line})
		return ""
	})
	return out, err
}

// ReadTables reads the tables file at path.
func ReadTables(path string) ([]TableLabel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseTables(f, path)
}

// ReadCells reads the cells file at path.
func ReadCells(path string) ([]CellLabel, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseCells(f, path)
}

// TablesHeader and CellsHeader are the comment lines that WriteTables and
// WriteCells start with.
const (
	TablesHeader = "# set\tpage\ttable\tlabel (data, layout or ?)\tnote"
	CellsHeader  = "# set\tpage\ttable\trow\tcol\trole"
)

// WriteTables writes ls as a tables file, after its header comment.
func WriteTables(w io.Writer, ls []TableLabel) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, TablesHeader)
	for _, l := range ls {
		fmt.Fprintf(b, "%s\t%s\t%d\t%s", l.Set, l.Page, l.Table, l.Label)
		if l.Note != "" {
			fmt.Fprintf(b, "\t%s", strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(l.Note))
		}
		b.WriteByte('\n')
	}
	return b.Flush()
}

// WriteCells writes cs as a cells file, after its header comment.
func WriteCells(w io.Writer, cs []CellLabel) error {
	b := bufio.NewWriter(w)
	fmt.Fprintln(b, CellsHeader)
	for _, c := range cs {
		writeCell(b, c)
	}
	return b.Flush()
}

func writeCell(w io.Writer, c CellLabel) {
	fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%s\n", c.Set, c.Page, c.Table, c.Row, c.Col, c.Role)
}
