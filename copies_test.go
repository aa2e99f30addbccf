package sluice

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/label"
)

// TestFarCopiesOnce cleans a product page that writes its description
// twice, in a desktop and a mobile layout (testdata/copies.html): in the
// main style the description comes out once, with the rest of the page's
// content; in the cleaneval style, whose annotators kept a page's text as
// it ran, both copies stay (label/copies.go).
func TestFarCopiesOnce(t *testing.T) {
	data := readTestdata(t, "copies.html")
	const (
		description = "Made by hand in our workshop from solid walnut"
		delivery    = "Delivery takes three to four weeks"
	)
	for _, tt := range []struct {
		style  string
		copies int
	}{
		{label.MainStyle, 1},
		{label.CleanEvalStyle, 2},
	} {
		text := cleanWith(t, Options{Style: tt.style}, data).Text()
		if n := strings.Count(text, description); n != tt.copies {
			t.Errorf("style %s: the description %d times, want %d:\n%s", tt.style, n, tt.copies, text)
		}
		if !strings.Contains(text, delivery) {
			t.Errorf("style %s: the delivery paragraph is missing:\n%s", tt.style, text)
		}
	}
}

// readTestdata returns the bytes of testdata/name.
func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// cleanWith cleans data with a Cleaner of opts, failing the test on an
// error.
func cleanWith(t *testing.T, opts Options, data []byte) *Result {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Clean(context.Background(), Input{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
