package parsertext

import (
	"encoding/json"
	"sync"
)

// Log collects the list items Sentences removes as JSON Lines, one object
// a line: {"input": NAME, "item": TEXT, "reason": WHY}, for an archive of
// removals such as Kitten kept (3.2.1). Pass its Removed method as
// Options.Removed and call SetInput before rendering each page: the input
// name is the Log's, so pages that share a Log are rendered one at a time.
// The methods are safe for concurrent use. The zero value is ready.
type Log struct {
	mu    sync.Mutex
	input string
	buf   []byte
	n     int
}

// SetInput names the input whose removals come next.
func (l *Log) SetInput(name string) {
	l.mu.Lock()
	l.input = name
	l.mu.Unlock()
}

// Removed records one removed item; it fits Options.Removed.
func (l *Log) Removed(item, reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	line, _ := json.Marshal(struct {
		Input  string `json:"input"`
		Item   string `json:"item"`
		Reason string `json:"reason"`
	}{l.input, item, reason}) // strings always marshal
	l.buf = append(append(l.buf, line...), '\n')
	l.n++
}

// Bytes returns the lines recorded so far.
func (l *Log) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf[:len(l.buf):len(l.buf)]
}

// Len returns the number of items recorded so far.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}
