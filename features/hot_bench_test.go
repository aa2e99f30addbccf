package features

import (
	"strings"
	"testing"
)

// Benchmarks of the per-block functions on their own, less noisy than
// BenchmarkAttrs for a change to one of them.

// scanTexts are block texts in a few scripts, for BenchmarkScanText.
var scanTexts = []struct{ name, text string }{
	{"ascii", strings.Repeat("The river rose by two metres overnight, and the bridge was closed at 6 p.m. (officials said). ", 6)},
	{"latin", strings.Repeat("Der Fluss stieg über Nacht um zwei Meter; die Brücke wurde gesperrt, sagte die Behörde. Élève à côté. ", 6)},
	{"cyrillic", strings.Repeat("Река поднялась за ночь на два метра, и мост был закрыт в 18 часов. ", 6)},
	{"cjk", strings.Repeat("河水一夜之间上涨了两米，桥梁于下午六点关闭。官员表示，居民应当撤离。", 6)},
}

func BenchmarkScanText(b *testing.B) {
	for _, tc := range scanTexts {
		b.Run(tc.name, func(b *testing.B) {
			var st blockStats
			key := scanText(tc.text, &st, nil)
			b.SetBytes(int64(len(tc.text)))
			b.ReportAllocs()
			for b.Loop() {
				key = scanText(tc.text, &st, key)
			}
		})
	}
}

// digitTexts are block texts with digit runs, for BenchmarkDigitPatterns.
var digitTexts = []string{
	"Posted on 12.03.2024 at 14:30 by admin",
	"Call +49 30 1234567 or (030) 123-4567, Mon-Fri 9:00 to 17:30",
	"Tuesday, 12 March 2024",
	"Scores: 25 29 10 9 and 1.234.567 visitors, pi is 3.14159265",
	"2024-03-12 08:15:00 UTC",
	"Page 1 2 3 4 5 6 7 8 9 10 11 12 Next",
	"Room 101, 3rd floor, 221B Baker Street, London NW1 6XE, tel. 020 7224 3688",
	"In 1998 the club had 312 members; by 2023 it had 4512.",
}

func BenchmarkDigitPatterns(b *testing.B) {
	runs := make([][]digitRun, len(digitTexts))
	words := make([]int32, len(digitTexts))
	for i, s := range digitTexts {
		var r [maxRuns]digitRun
		runs[i] = digitRuns(s, &r)
		words[i] = int32(len(strings.Fields(s)))
	}
	b.ReportAllocs()
	var set uint32
	for b.Loop() {
		for i, s := range digitTexts {
			set |= digitPatterns(s, runs[i], words[i])
		}
	}
	if set == 0 {
		b.Fatal("no patterns")
	}
}
