// Package grow resizes scratch slices that are reused from page to page.
package grow

// Slice returns s with length n, reusing its array when it is large
// enough and making a new one otherwise. The elements are not cleared.
func Slice[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
