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
