// Package progress draws a one-line progress bar for the command line.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// Bar draws a one-line progress bar on stderr when it is a terminal,
// and nothing otherwise (pipes and CI logs stay clean).
type Bar struct {
	mu      sync.Mutex
	w       io.Writer
	label   string
	total   int
	done    int
	start   time.Time
	last    time.Time
	enabled bool
}

// New returns a progress bar for total items, drawn on w only when
// w is a terminal.
func New(w io.Writer, label string, total int) *Bar {
	p := &Bar{w: w, label: label, total: total, start: time.Now()}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.enabled = true
	}
	return p
}

// Add counts n more items done and redraws at most ten times a second.
func (p *Bar) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if !p.enabled {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond && p.done < p.total {
		return
	}
	p.last = now
	p.draw(now)
}

func (p *Bar) draw(now time.Time) {
	const width = 30
	frac := 0.0
	if p.total > 0 {
		frac = float64(p.done) / float64(p.total)
	}
	fill := int(frac * width)
	bar := make([]byte, width)
	for i := range bar {
		if i < fill {
			bar[i] = '='
		} else {
			bar[i] = ' '
		}
	}
	el := now.Sub(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.done) / el
	}
	eta := ""
	if rate > 0 && p.done < p.total {
		eta = fmt.Sprintf(" ETA %s", (time.Duration(float64(p.total-p.done)/rate) * time.Second).Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r%s [%s] %d/%d %.0f/s%s\x1b[K", p.label, bar, p.done, p.total, rate, eta)
}

// Finish clears the bar line.
func (p *Bar) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.enabled {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// Label is the label the bar was made with.
func (p *Bar) Label() string { return p.label }
