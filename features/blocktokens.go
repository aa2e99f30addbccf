package features

import "github.com/sluice-project/sluice/cuetable"

// The text tokens of a page's blocks, read once. The text cues, the
// section cues and the title match all read a block's first tokens
// (cuetable.TextTokens); each read them on its own before, the text cues
// once per block and the title again for every short block. readTokens
// reads each block once, as far as the farthest of them reads it, and
// keeps the tokens as 64-bit hashes (cuetable.TokenHash) with their place among the
// block's units, so that the text cue table is looked up by number
// (Extractor.textCueH) rather than by string.

// textTokenCache is the page's block tokens, computed by scratch.tokens.
type textTokenCache struct {
	hash []uint64 // the tokens' hashes, block after block
	unit []uint8  // each token's place among its block's units, from 1
	at   []int32  // block i's tokens are hash[at[i]:at[i+1]]
	done bool     // computed for the current page
}

// tokens returns the hashes and unit places of block i's tokens: its first
// titleTokens units when the title group reads it (a block of titleTokens
// words or fewer, the title group on, the page titled), else its first
// textCueTokens.
func (s *scratch) tokens(i int) ([]uint64, []uint8) {
	t := &s.toks
	if !t.done {
		s.readTokens()
	}
	return t.hash[t.at[i]:t.at[i+1]], t.unit[t.at[i]:t.at[i+1]]
}

// readTokens fills s.toks for the page.
func (s *scratch) readTokens() {
	t := &s.toks
	t.hash, t.unit, t.at = t.hash[:0], t.unit[:0], append(t.at[:0], 0)
	title := s.titleOn && s.p.Meta.Title != "" // matchTitle reads no block without one
	for i := range s.p.Blocks {
		b := &s.p.Blocks[i]
		limit := textCueTokens
		if title && b.Words > 0 && b.Words <= titleTokens {
			limit = titleTokens
		}
		s.low = cuetable.TextTokenHashes(b.Text, limit, s.low, func(h uint64, unit int) {
			t.hash = append(t.hash, h)
			t.unit = append(t.unit, uint8(unit))
		})
		t.at = append(t.at, int32(len(t.hash)))
	}
	t.done = true
}

// textCueValues returns the text cue values of block i's first
// textCueTokens tokens.
func (s *scratch) textCueValues(i int) cueValues {
	var v cueValues
	hash, unit := s.tokens(i)
	for k, h := range hash {
		if unit[k] > textCueTokens {
			break
		}
		if x, ok := s.textCueH.get(h); ok {
			v.add(x)
		}
	}
	return v
}
