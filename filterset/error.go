package filterset

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Pos is a place in a filter-set file: 1-based line and column, the column
// counted in characters. The zero Pos is "somewhere in the file".
type Pos struct {
	Line, Col int
	off       int // byte offset, for the expression's columns
}

func (p Pos) String() string {
	if p.Line == 0 {
		return ""
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// posAt returns the position of byte offset off in data.
func posAt(data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	line, start := 1, 0
	for i, c := range data[:off] {
		if c == '\n' {
			line, start = line+1, i+1
		}
	}
	return Pos{Line: line, Col: 1 + utf8.RuneCount(data[start:off]), off: off}
}

// Error is one problem in a filter-set file, at a position in it.
type Error struct {
	File string // the file's name; "" when parsed from bytes
	Pos  Pos    // zero when the problem is the file as a whole
	Msg  string
}

// Error formats the error as FILE:LINE:COL: message, the parts that are
// known.
func (e *Error) Error() string {
	var sb strings.Builder
	if e.File != "" {
		sb.WriteString(e.File)
		sb.WriteString(":")
	}
	if e.Pos.Line > 0 {
		sb.WriteString(e.Pos.String())
		sb.WriteString(":")
	}
	if sb.Len() > 0 {
		sb.WriteString(" ")
	}
	sb.WriteString(e.Msg)
	return sb.String()
}

// ErrorList is every problem found in a file, in the order of their
// positions. Parse and Load return one (never empty) when a file is not
// valid.
type ErrorList []*Error

// Error joins the errors, one a line.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// maxErrors bounds the errors reported for one file.
const maxErrors = 20

// errs collects the errors of one file.
type errs struct{ list ErrorList }

func (e *errs) add(at Pos, format string, args ...any) {
	if len(e.list) < maxErrors {
		e.list = append(e.list, &Error{Pos: at, Msg: fmt.Sprintf(format, args...)})
	}
}

// err returns the sorted list, or nil when there is none.
func (e *errs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	slices.SortStableFunc(e.list, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return e.list
}

// withFile names the file in every error of err, an ErrorList or *Error.
func withFile(err error, file string) error {
	switch e := err.(type) {
	case ErrorList:
		for _, x := range e {
			x.File = file
		}
	case *Error:
		e.File = file
	}
	return err
}
