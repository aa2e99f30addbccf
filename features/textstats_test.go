package features

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sluice-project/sluice/bullet"
)

func TestScanText(t *testing.T) {
	for _, tc := range []struct {
		text                  string
		sents                 int32
		begin, end            uint8
		alpha, num, tokOther  int32
		tokAlpha, tokNum, mix int32
	}{
		{"Hello world. Bye", 2, beginUpper, endAlnum, 13, 0, 0, 3, 0, 0},
		{"the price is 3.50 dollars!", 1, beginLower, endStop, 17, 3, 0, 4, 1, 0},
		{"“Quoted.”", 1, beginUpper, endStop, 6, 0, 0, 1, 0, 0},
		{"Contact:", 1, beginUpper, endColon, 7, 0, 0, 1, 0, 0},
		{"read more...", 1, beginLower, endEllipsis, 8, 0, 0, 2, 0, 0},
		{"你好。再见。", 2, beginLetter, endStop, 4, 0, 0, 1, 0, 0},
		{"| » 42 a1", 1, beginOther, endAlnum, 1, 3, 2, 0, 1, 1},
		{"", 0, beginOther, endOther, 0, 0, 0, 0, 0, 0},
	} {
		var st blockStats
		scanText(tc.text, &st, nil)
		if st.sents != tc.sents || st.begin != tc.begin || st.end != tc.end || st.alpha != tc.alpha || st.num != tc.num ||
			st.tokOther != tc.tokOther || st.tokAlpha != tc.tokAlpha || st.tokNum != tc.tokNum || st.tokMix != tc.mix {
			t.Errorf("%q: sents %d begin %s end %s alpha %d num %d tokens alpha/num/mix/other %d/%d/%d/%d",
				tc.text, st.sents, beginNames[st.begin], endNames[st.end], st.alpha, st.num,
				st.tokAlpha, st.tokNum, st.tokMix, st.tokOther)
		}
	}
}

func FuzzScanText(f *testing.F) {
	for _, s := range []string{"Hello world. Bye", "你好。再见。", "© 2024 ACME, +1 (555) 123-4567", "1.2.3. x", "a@b.", "\t\tcode();", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var st blockStats
		scanText(s, &st, nil)
		if int(st.runes) != utf8.RuneCountInString(s) {
			t.Errorf("%q: %d runes, want %d", s, st.runes, utf8.RuneCountInString(s))
		}
		if st.alpha+st.num+st.punct+st.white+st.other != st.runes || st.tokAlpha+st.tokNum+st.tokMix+st.tokOther != st.tokens {
			t.Errorf("%q: counts do not add up: %+v", s, st)
		}
		if st.tokens > int32(len(strings.Fields(s)))+int32(strings.Count(s, "\t")) || st.sents > st.runes {
			t.Errorf("%q: %d tokens, %d sentences", s, st.tokens, st.sents)
		}
		patterns(s, &st, int32(len(strings.Fields(s))))
		bullet.Of(s)
		cues(s, new(tokenBuf))
	})
}
