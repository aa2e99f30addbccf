package server

import (
	"container/list"
	"sync"

	"github.com/sluice-project/sluice"
)

// cleanerKey is what makes two requests' cleaners differ.
type cleanerKey struct {
	set       int64  // a stored filter set's version id (store.FilterSet.VersionID); 0 for none
	model     int64  // a stored model's id (store.Model.ID); 0 for none
	filter    string // "" for the trained model
	style     string
	threshold float64
}

// cleanerCache keeps the cleaners built for the options requests asked
// for, the most recently used first, at most size of them (and those
// being built). Concurrent
// requests for a missing cleaner wait for one build. Failed builds are not
// kept.
type cleanerCache struct {
	model []byte // nil for the embedded model
	size  int

	mu      sync.Mutex
	entries map[cleanerKey]*list.Element // of *cacheEntry
	order   list.List                    // most recently used at the front
}

type cacheEntry struct {
	key   cleanerKey
	ready chan struct{} // closed when built
	cl    *sluice.Cleaner
	err   error
}

func newCleanerCache(size int, model []byte) *cleanerCache {
	return &cleanerCache{model: model, size: size, entries: map[cleanerKey]*list.Element{}}
}

// get returns the cleaner for k, building it from k's options if needed.
func (c *cleanerCache) get(k cleanerKey) (*sluice.Cleaner, error) {
	return c.getWith(k, func() (*sluice.Cleaner, error) {
		opts := sluice.Options{Filter: k.filter, Style: k.style, Threshold: k.threshold}
		if k.filter == "" {
			opts.Model = c.model
		}
		return sluice.New(opts)
	})
}

// getWith returns the cleaner for k, building it with build if needed.
func (c *cleanerCache) getWith(k cleanerKey, build func() (*sluice.Cleaner, error)) (*sluice.Cleaner, error) {
	c.mu.Lock()
	if el, ok := c.entries[k]; ok {
		c.order.MoveToFront(el)
		e := el.Value.(*cacheEntry)
		c.mu.Unlock()
		<-e.ready
		return e.cl, e.err
	}
	e := &cacheEntry{key: k, ready: make(chan struct{})}
	c.entries[k] = c.order.PushFront(e)
	c.mu.Unlock()

	e.cl, e.err = build()
	close(e.ready)
	c.mu.Lock()
	if el, ok := c.entries[k]; ok && el.Value == e && e.err != nil {
		c.order.Remove(el)
		delete(c.entries, k)
	}
	// Evicted only once a build succeeded, the least recently used first.
	for c.order.Len() > c.size {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.entries, old.Value.(*cacheEntry).key)
	}
	c.mu.Unlock()
	return e.cl, e.err
}

// len returns the number of cleaners kept.
func (c *cleanerCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
