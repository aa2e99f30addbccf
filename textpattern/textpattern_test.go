package textpattern

import (
	"strings"
	"testing"
)

func TestDigits(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Set
	}{
		{"Posted 2024-03-12 09:15", Date | Time},
		{"12.3.2024", Date},
		{"3/12/24", Date},
		{"März 12, 2024", Date},
		{"2024年3月12日", Date},
		{"Version 1.2.3 released", 0},
		{"Call +49 30 1234567 now", Phone},
		{"(555) 123-4567", Phone},
		{"Tel. 030 1234567", Phone},
		{"555-1234 567", Phone},
		{"Population 1.234.567", 0},
		{"pi is 3.14159265", 0},
		{"25 29 10 9 26 12", 0},
		{"It was 10 to 12 when we left", 0},
		{"Copyright 1999 ACME", 0},
	} {
		if got := Digits(tc.text, int32(len(strings.Fields(tc.text)))); got != tc.want {
			t.Errorf("Digits(%q) = %03b, want %03b", tc.text, got, tc.want)
		}
	}
	long := "It happened on March 12, 2024, " + strings.Repeat("and the story goes on ", 3)
	if got := Digits(long, int32(len(strings.Fields(long)))); got != 0 {
		t.Errorf("a month-name date in a long text: %03b, want none (only short texts are read for it)", got)
	}
}

func TestEmail(t *testing.T) {
	for s, want := range map[string]bool{
		"Write to jane.doe@example.co.uk.": true,
		"info@example.org":                 true,
		"@home with friends":               false,
		"a@b":                              false,
		"user@localhost":                   false,
		"me @ example.org":                 false,
	} {
		if got := Email(s); got != want {
			t.Errorf("Email(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestRightsReserved(t *testing.T) {
	for s, want := range map[string]bool{
		"© ACME. All rights reserved.": true,
		"Tous droits réservés":         true,
		"Alle Rechte vorbehalten":      true,
		"Všechna práva vyhrazena":      true,
		"Wszelkie prawa zastrzeżone":   true,
		"版权所有":                         true,
		"ALL RIGHTS RESERVED":          true,
		"We reserve a table for two":   false,
		"An ordinary sentence.":        false,
	} {
		if got := RightsReserved(s); got != want {
			t.Errorf("RightsReserved(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	for s, want := range map[string]bool{
		"Original Price: {{priceAnchor.info.price}}": true,
		"Hello ${user.name}, welcome":                true,
		"Lorem ipsum dolor sit amet":                 true,
		"LOREM IPSUM":                                true,
		"The {{ and }} of Go templates":              true,
		"A set {x} and a price of $5":                false,
		"${} is empty":                               false,
		"Lorem, the ipsum":                           false,
		"An ordinary sentence.":                      false,
	} {
		if got := Placeholder(s); got != want {
			t.Errorf("Placeholder(%q) = %v, want %v", s, got, want)
		}
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
	words := make([]int32, len(digitTexts))
	for i, s := range digitTexts {
		words[i] = int32(len(strings.Fields(s)))
	}
	b.ReportAllocs()
	var set Set
	for b.Loop() {
		for i, s := range digitTexts {
			set |= Digits(s, words[i])
		}
	}
	if set == 0 {
		b.Fatal("no patterns")
	}
}
