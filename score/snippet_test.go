package score

import "testing"

func TestSnippets(t *testing.T) {
	out := "Das Wetter in KÖLN\n\nMorgen  wird es\tsonnig.\nLogin"
	with := []string{"das wetter in köln", "Morgen wird es sonnig.", "Wetter in KÖLN", "Regen"}
	without := []string{"login", "Login", "Startseite", ""}
	for _, c := range []struct {
		style SnippetStyle
		want  SnippetResult
	}{
		// Case-insensitive, white space as is: "Morgen wird..." misses
		// (two spaces and a tab in the output).
		{SnippetsWCXB, SnippetResult{WithFound: 2, WithMissing: 2, WithoutFound: 3, WithoutAbsent: 1}},
		// White space collapsed, case kept.
		{SnippetsTrafilatura, SnippetResult{WithFound: 2, WithMissing: 2, WithoutFound: 2, WithoutAbsent: 2}},
		{SnippetsExact, SnippetResult{WithFound: 1, WithMissing: 3, WithoutFound: 2, WithoutAbsent: 2}},
	} {
		if got := Snippets(out, with, without, c.style); got != c.want {
			t.Errorf("style %d: got %+v, want %+v", c.style, got, c.want)
		}
	}

	r := SnippetResult{WithFound: 3, WithMissing: 1, WithoutFound: 1, WithoutAbsent: 3}
	if r.WithRate() != 0.75 || r.WithoutRate() != 0.25 || r.Accuracy() != 0.75 {
		t.Errorf("rates %v %v %v", r.WithRate(), r.WithoutRate(), r.Accuracy())
	}
	if k := r.Counts(); k != (Counts{TP: 3, FP: 1, FN: 1}) {
		t.Errorf("Counts = %+v", k)
	}
	if s := r.Add(r); s != (SnippetResult{6, 2, 2, 6}) {
		t.Errorf("Add = %+v", s)
	}
	// WCXB's snippet_check is 1 for an empty list, without snippets too.
	var none SnippetResult
	if none.WithRate() != 1 || none.WithoutRate() != 1 || none.Accuracy() != 1 {
		t.Errorf("empty: %v %v %v", none.WithRate(), none.WithoutRate(), none.Accuracy())
	}
}

func TestSnippetsUnicode(t *testing.T) {
	out := "ПРИВЕТ, мир!\u00a0Ёлка ΟΔΟΣ 東京タワー"
	got := Snippets(out, []string{"привет, МИР", "мир! ёлка", "οδος", "タワー"}, []string{"東京 タワー"}, SnippetsWCXB)
	// NBSP is not a space for a plain substring test.
	if want := (SnippetResult{WithFound: 3, WithMissing: 1, WithoutAbsent: 1}); got != want {
		t.Errorf("WCXB: got %+v, want %+v", got, want)
	}
	got = Snippets(out, []string{"мир! Ёлка"}, nil, SnippetsTrafilatura)
	if got.WithFound != 1 {
		t.Errorf("trafilatura: NBSP should collapse to a space: %+v", got)
	}
	if got := Snippets("", []string{"a"}, []string{"b"}, SnippetsWCXB); got != (SnippetResult{WithMissing: 1, WithoutAbsent: 1}) {
		t.Errorf("empty output: %+v", got)
	}
}
