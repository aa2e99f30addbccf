package pipeline

import (
	"cmp"
	"fmt"
	"math"
)

// order places a page in the order sluice corpus writes pages, which
// decides which copy of a duplicate is kept: corpus keeps the first it
// writes. corpus reads its inputs in the order given (sorted, as a glob
// gives them, for parity) and within an archive record by record; it
// writes a page when it reads it, but with --site it holds a host's pages
// until their batch is complete or the input ends (see corpus.Options.Site).
//
// So a page is placed by its file, then by the position of the record on
// which corpus writes it (At, AtSub): its own, or with Site the record
// that completes its batch, or the end of the file for the batches written
// there, in the order their first pages came (From, FromSub); then by its
// place in its batch (Index). Without Site, At and AtSub are the record's
// own position and the rest is zero.
type order struct {
	File          string
	At, AtSub     int64
	From, FromSub int64
	Index         int
}

// atEnd is the position of the end of a file, where the batches still held
// are written.
const atEnd = math.MaxInt64

func (o order) compare(p order) int {
	if c := cmp.Compare(o.File, p.File); c != 0 {
		return c
	}
	for _, c := range [...]int{cmp.Compare(o.At, p.At), cmp.Compare(o.AtSub, p.AtSub),
		cmp.Compare(o.From, p.From), cmp.Compare(o.FromSub, p.FromSub), cmp.Compare(o.Index, p.Index)} {
		if c != 0 {
			return c
		}
	}
	return 0
}

// key is a string that names the page: the key that joins what is decided
// about it to it.
func (o order) key() string {
	return fmt.Sprintf("%s\x00%d.%d.%d.%d.%d", o.File, o.At, o.AtSub, o.From, o.FromSub, o.Index)
}
