package textunit

// Bigrams returns the word-like units of s, for uses that need something
// closer to a word than a character (a vocabulary, a repeated phrase): Word
// and Number units as they are, and, in each run of adjacent Char units, every
// pair of neighbours ("中国人" gives "中国" and "国人", of Kind Char); a run of
// one character gives that character.
func Bigrams(s string, fn func(Unit) bool) {
	var prev Unit // the last Char unit of the current run
	alone := false
	ok := true
	walk(s, func(u Unit) bool {
		if u.Kind != Char {
			if alone {
				ok = fn(prev)
			}
			alone, prev = false, Unit{}
			return ok && fn(u)
		}
		if prev.Kind == Char && prev.Start+len(prev.Text) == u.Start {
			alone = false
			ok = fn(Unit{Text: s[prev.Start : u.Start+len(u.Text)], Start: prev.Start, Kind: Char})
			prev = u
			return ok
		}
		if alone {
			ok = fn(prev)
		}
		prev, alone = u, true
		return ok
	})
	if ok && alone {
		fn(prev)
	}
}
