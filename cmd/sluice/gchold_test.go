package main

import (
	"os"
	"runtime/debug"
	"sync"
	"testing"
)

func TestCollectLaterRestores(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: collectLater leaves the collector alone")
	}
	before := debug.SetGCPercent(137)
	defer debug.SetGCPercent(before)
	// Overlapping holds, released out of order and twice: the setting
	// is off while any is held and comes back once all are released.
	a, b := collectLater(), collectLater()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("while held, GC percent %d, want -1 (off)", p)
	}
	a()
	a()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("one hold of two released (twice), GC percent %d, want -1 still", p)
	}
	b()
	if p := debug.SetGCPercent(137); p != 137 {
		t.Errorf("all holds released, GC percent %d, want 137 back", p)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { collectLater()() })
	}
	wg.Wait()
	if p := debug.SetGCPercent(137); p != 137 {
		t.Errorf("after eight concurrent holds, GC percent %d, want 137 back", p)
	}
}
