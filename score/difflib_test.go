package score

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// difflibVectors is testdata/difflib/vectors.json, written by
// scripts/gen_difflib_vectors.py from CPython's difflib.
type difflibVectors struct {
	Python string `json:"python"`
	Pairs  []struct {
		A      string `json:"a"`
		B      string `json:"b"`
		Blocks []int  `json:"blocks"`
	} `json:"pairs"`
}

func TestMatchingBlocksVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "difflib", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v difflibVectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Pairs) < 1000 {
		t.Fatalf("only %d vectors", len(v.Pairs))
	}
	popular := 0
	for n, p := range v.Pairs {
		a, b := strings.Fields(p.A), strings.Fields(p.B)
		if len(b) >= 200 {
			popular++
		}
		var want []Match
		for i := 0; i+2 < len(p.Blocks); i += 3 {
			want = append(want, Match{p.Blocks[i], p.Blocks[i+1], p.Blocks[i+2]})
		}
		got := MatchingBlocks(a, b)
		if !slices.Equal(got, want) {
			t.Errorf("pair %d (len %d, %d): got %v\nwant (Python %s) %v", n, len(a), len(b), got, v.Python, want)
		}
	}
	if popular == 0 {
		t.Error("no vector has len(b) >= 200")
	}
}

func chars(s string) []string { return strings.Split(s, "") }

func TestMatchingBlocksDocExamples(t *testing.T) {
	// From the difflib documentation.
	tests := []struct {
		a, b string
		want []Match
	}{
		{"abxcd", "abcd", []Match{{0, 0, 2}, {3, 2, 2}, {5, 4, 0}}},
		// The documentation's isjunk makes this {1, 0, 4}; without junk:
		{" abcd", "abcd abcd", []Match{{0, 4, 5}, {5, 9, 0}}},
		{"", "", []Match{{0, 0, 0}}},
		{"abc", "", []Match{{3, 0, 0}}},
	}
	for _, tt := range tests {
		got := MatchingBlocks(chars(tt.a), chars(tt.b))
		if !slices.Equal(got, tt.want) {
			t.Errorf("MatchingBlocks(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	// SequenceMatcher(None, "abcd", "bcde").ratio() == 0.75
	if r := Ratio(chars("abcd"), chars("bcde")); r != 0.75 {
		t.Errorf("Ratio = %v, want 0.75", r)
	}
	if r := Ratio(nil, nil); r != 1 {
		t.Errorf("Ratio(empty, empty) = %v, want 1", r)
	}
}

func TestMatchingBlocksPopular(t *testing.T) {
	// b has 200 elements, "y" 4 times (> 200/100+1: popular), "x" once. A
	// match of popular elements only is never found; one seeded by a
	// non-popular element is extended over popular ones. Expected values
	// checked with CPython 3.11.
	var b []string
	for i := 0; i < 195; i++ {
		b = append(b, "z"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	b = append(b, "x", "y", "y", "y", "y")
	a := []string{"y", "y", "y", "y"}
	if got := MatchingBlocks(a, b); !slices.Equal(got, []Match{{4, 200, 0}}) {
		t.Errorf("popular-only: got %v", got)
	}
	a = []string{"x", "y", "y", "y", "y"}
	if got := MatchingBlocks(a, b); !slices.Equal(got, []Match{{0, 195, 5}, {5, 200, 0}}) {
		t.Errorf("extension over popular: got %v", got)
	}
	// With 199 elements the rule is off: "y" seeds matches.
	a = []string{"y", "y", "y", "y"}
	if got := MatchingBlocks(a, b[1:]); !slices.Equal(got, []Match{{0, 195, 4}, {4, 199, 0}}) {
		t.Errorf("len(b) 199: got %v", got)
	}
}
