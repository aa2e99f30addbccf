package features

import (
	"slices"
	"strings"
	"testing"
)

func TestPatterns(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"See https://example.org/a for details", []string{"pat=url"}},
		{"www.Example.com", []string{"pat=url"}},
		{"Write to jane.doe@example.co.uk.", []string{"pat=email"}},
		{"@home with friends", nil},
		{"Posted 2024-03-12 09:15", []string{"pat=date", "pat=time"}},
		{"12.3.2024", []string{"pat=date"}},
		{"3/12/24", []string{"pat=date"}},
		{"März 12, 2024", []string{"pat=date"}},
		{"2024年3月12日", []string{"pat=date"}},
		{"Version 1.2.3 released", nil},
		{"Call +49 30 1234567 now", []string{"pat=phone"}},
		{"(555) 123-4567", []string{"pat=phone"}},
		{"Population 1.234.567", nil},
		{"pi is 3.14159265", nil},
		{"25 29 10 9 26 12", nil},
		{"Tel. 030 1234567", []string{"pat=phone"}},
		{"555-1234 567", []string{"pat=phone"}},
		{"Copyright 1999 ACME", []string{"pat=copyright"}},
		{"© ACME. Tous droits réservés.", []string{"pat=copyright", "pat=rights"}},
		{"Alle Rechte vorbehalten", []string{"pat=rights"}},
		{"We reserve a table", nil},
		{"版权所有", []string{"pat=rights"}},
		{"It was 10 to 12 when we left", nil},
	} {
		var st blockStats
		scanText(tc.text, &st, nil)
		set := patterns(tc.text, &st, int32(len(strings.Fields(tc.text))))
		var got []string
		for k, n := range patternNames {
			if set&(1<<k) != 0 {
				got = append(got, n)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}
