package bullet

import "testing"

func TestOf(t *testing.T) {
	for text, want := range map[string]Kind{
		"• item": Dot, "·Item": Dot, "- item": Dash, "-5 degrees": None,
		"* star": Star, "» more": Arrow, "> quote": Arrow, "1. First": Num,
		"12) twelve": Num, "(3) three": Num, "2024. A year": None, "3.4 Feature extraction": Section,
		"1.2.3. Deep": Section, "a) first": Alpha, "(b) second": Alpha, "iv. fourth": Roman,
		"IV) fourth": Roman, "Inc.": None, "etc. and": None, "3.5 million": Section,
		"Hello": None, "": None, "1.5": None,
	} {
		if got := Of(text); got != want {
			t.Errorf("Of(%q) = %s, want %s", text, Names[got], Names[want])
		}
	}
}
