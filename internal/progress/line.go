package progress

import (
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/term"
)

// Line is a status line redrawn in place on a terminal (a command's
// progress, formatted by the command), with lines printed above it. On
// anything but a terminal it draws nothing and Println just prints.
type Line struct {
	mu      sync.Mutex
	w       io.Writer
	enabled bool
	drawn   bool
	last    string
}

// NewLine returns a status line on w, drawn only when w is a terminal.
func NewLine(w io.Writer) *Line {
	l := &Line{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		l.enabled = true
	}
	return l
}

// Enabled reports whether the line is drawn (w is a terminal).
func (l *Line) Enabled() bool { return l.enabled }

// Set replaces the status line with s.
func (l *Line) Set(s string) {
	if !l.enabled {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last = s
	fmt.Fprintf(l.w, "\r%s\x1b[K", s)
	l.drawn = true
}

// Println prints s on a line of its own above the status line.
func (l *Line) Println(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprint(l.w, "\r\x1b[K")
	}
	fmt.Fprintln(l.w, s)
	if l.drawn {
		fmt.Fprintf(l.w, "%s\x1b[K", l.last)
	}
}

// Finish clears the status line.
func (l *Line) Finish() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.drawn {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.drawn = false
	}
}
