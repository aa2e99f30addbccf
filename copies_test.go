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
	data, err := os.ReadFile("testdata/copies.html")
	if err != nil {
		t.Fatal(err)
	}
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
		c, err := New(Options{Style: tt.style})
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Clean(context.Background(), Input{Data: data})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text()
		if n := strings.Count(text, description); n != tt.copies {
			t.Errorf("style %s: the description %d times, want %d:\n%s", tt.style, n, tt.copies, text)
		}
		if !strings.Contains(text, delivery) {
			t.Errorf("style %s: the delivery paragraph is missing:\n%s", tt.style, text)
		}
	}
}
