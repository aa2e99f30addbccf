package label

import (
	"fmt"
	"testing"
)

// TestDictCache: the cache gives the dictionary's entry for every name,
// whether the name's bytes are the same string's each time or built anew,
// and forgets its entries when asked about another dictionary.
func TestDictCache(t *testing.T) {
	d := attrDict{}
	names := make([]string, 3000) // more names than slots: collisions
	for i := range names {
		names[i] = fmt.Sprintf("name=%d", i)
		if i%3 != 0 { // a third unknown
			d[names[i]] = dictEntry{crf: int32(i), bin: int32(i % 7), real: -1, val: float32(i)}
		}
	}
	var c dictCache
	for round := range 3 {
		for i, name := range names {
			if round == 2 {
				name = fmt.Sprintf("name=%d", i) // the same text at another address
			}
			if got, want := c.at(&d, name), d.at(name); got != want {
				t.Fatalf("round %d: %q: %+v, want %+v", round, name, got, want)
			}
		}
	}
	other := attrDict{names[1]: {crf: 99, bin: -1, real: -1}}
	if got := c.at(&other, names[1]); got.crf != 99 {
		t.Errorf("another dictionary: %+v, want its own entry", got)
	}
	var none *dictCache
	if got := none.at(&d, names[2]); got != d.at(names[2]) {
		t.Errorf("no cache: %+v, want %+v", got, d.at(names[2]))
	}
	if got := c.at(&other, ""); got != noEntry {
		t.Errorf("the empty name: %+v, want noEntry", got)
	}
}
