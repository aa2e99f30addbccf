package segment

// chunked is an array built by appending, in chunks that are never moved,
// so that growing it never copies it: a page of a million blocks grown by
// append held its old and new arrays at once, with the whole parse tree
// still alive. The first chunk has the size sizes expects, when it is
// small; a large array continues in chunks of chunkLen.
type chunked[T any] struct {
	chunks [][]T
	first  int // the first chunk's capacity
	n      int
}

// chunkLen is the length of the chunks after the first.
const chunkLen = 1 << 14

// newChunked returns an empty array for about hint elements.
func newChunked[T any](hint int) chunked[T] {
	first := min(max(hint, 1), 4*chunkLen)
	return chunked[T]{chunks: [][]T{make([]T, 0, first)}, first: first}
}

// add appends v and returns its index.
func (c *chunked[T]) add(v T) int32 {
	last := &c.chunks[len(c.chunks)-1]
	if len(*last) == cap(*last) {
		c.chunks = append(c.chunks, make([]T, 0, chunkLen))
		last = &c.chunks[len(c.chunks)-1]
	}
	*last = append(*last, v)
	c.n++
	return int32(c.n - 1)
}

// at returns element i.
func (c *chunked[T]) at(i int32) *T {
	if int(i) < c.first {
		return &c.chunks[0][i]
	}
	k := int(i) - c.first
	return &c.chunks[1+k/chunkLen][k%chunkLen]
}

// len returns the number of elements.
func (c *chunked[T]) len() int32 { return int32(c.n) }

// slice returns the elements in one array (the first chunk itself when it
// holds them all), freeing each chunk once copied; c is empty after.
func (c *chunked[T]) slice() []T {
	if len(c.chunks) == 1 {
		out := c.chunks[0]
		*c = chunked[T]{}
		return out
	}
	out := make([]T, 0, c.n)
	for k := range c.chunks {
		out = append(out, c.chunks[k]...)
		c.chunks[k] = nil
	}
	*c = chunked[T]{}
	return out
}
