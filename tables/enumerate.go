package tables

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// EnumerateMedian is Kitten's limit for reading items as one sentence
// (3.2.3): items whose median is shorter than this many characters are
// joined by commas.
const EnumerateMedian = 60

// EnumerateWords caps an enumeration: items coming to more words than this
// are written one sentence each instead, since a parser copes with a
// run-on enumeration no better than with the items apart (Link Grammar
// gives up on sentences of some 80 words).
const EnumerateWords = 60

// Enumerable reports whether items read as one enumeration (Enumerate):
// their median length is under EnumerateMedian characters and together
// they hold at most EnumerateWords words, besides the extra words given
// (an introduction written before them).
func Enumerable(items []string, extra ...string) bool {
	n := make([]int, len(items))
	words := 0
	for i, it := range items {
		n[i] = utf8.RuneCountInString(it)
		words += len(strings.Fields(it))
	}
	for _, s := range extra {
		words += len(strings.Fields(s))
	}
	slices.Sort(n)
	return len(n) > 0 && n[len(n)/2] < EnumerateMedian && words <= EnumerateWords
}

// Enumerate joins items as an enumeration: each but the last followed by a
// comma, unless it ends with its own (".", "?", "!", ";" or ","). The last
// item is written as it is; the caller ends the sentence.
func Enumerate(items []string) string {
	var sb strings.Builder
	for i, it := range items {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(it)
		if i < len(items)-1 && it != "" && !strings.ContainsAny(it[len(it)-1:], ".?!;,") {
			sb.WriteByte(',')
		}
	}
	return sb.String()
}
