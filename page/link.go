package page

import "sort"

// Link is a link inside a block: the text and target of an <a href>
// element, recorded only when segmentation is asked to (segment.Options
// Links). A link whose element spans several blocks is recorded in each,
// with the part of its text the block holds.
type Link struct {
	// Block is the index in Page.Blocks of the block holding the link.
	Block int32
	// Text is the anchor text as the block's text has it: white space
	// collapsed to single spaces, trimmed; never empty. The renderers
	// find it in the block's Text by searching forward from the end of
	// the block's previous link, so that repeated anchor texts map in
	// order.
	Text string
	// Href is the href attribute as written (not resolved against the
	// page's URL), trimmed; never empty, at most MaxHref bytes.
	Href string
}

// Image is an image inside a block: an <img> element with a src,
// recorded only when segmentation is asked to (segment.Options.Images).
// An image in no block (no text beside it in its block, alt text
// included) is not recorded.
type Image struct {
	// Block is the index in Page.Blocks of the block holding the image.
	Block int32
	// After is how many of the block's links (BlockLinks) start before
	// the image, and InLink says that it is inside the last of them: the
	// renderers place it among the links by them.
	After  int32
	InLink bool
	// Src is the src attribute as written, trimmed; never empty, at most
	// MaxHref bytes.
	Src string
	// Alt is the alt attribute with white space collapsed, trimmed; it
	// may be empty.
	Alt string
	// InText says that the block's Text holds Alt where the image is
	// (segment.Options.ImageAlt keeps alt texts as text): the renderers
	// put the image in its place, else at the end of the block.
	InText bool
}

// The bounds on what a hostile page can make segmentation record: an href
// or src longer than MaxHref bytes is left out, and so are the links
// after the first MaxBlockLinks of a block, and the images after the
// first MaxBlockLinks.
const (
	MaxHref       = 2 << 10
	MaxBlockLinks = 256
)

// BlockLinks returns the links of block b, in order (a part of p.Links,
// which is ordered by block).
func (p *Page) BlockLinks(b int) []Link {
	return ofBlock(p.Links, b, func(l *Link) int32 { return l.Block })
}

// BlockImages returns the images of block b, in order (a part of
// p.Images, which is ordered by block).
func (p *Page) BlockImages(b int) []Image {
	return ofBlock(p.Images, b, func(im *Image) int32 { return im.Block })
}

// ofBlock returns the run of xs, ordered by block, whose block is b.
func ofBlock[T any](xs []T, b int, block func(*T) int32) []T {
	i := sort.Search(len(xs), func(k int) bool { return int(block(&xs[k])) >= b })
	j := i
	for j < len(xs) && int(block(&xs[j])) == b {
		j++
	}
	return xs[i:j:j]
}
