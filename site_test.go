package sluice_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/site"
)

func sitePage(title, text string) sluice.Input {
	return sluice.Input{Data: []byte(`<html><body><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div id="story"><h1>` + title + `</h1><p>` + text + `</p></div><p>Copyright 2009 The Example Times</p></body></html>`)}
}

func TestCleanSiteInputs(t *testing.T) {
	c, err := sluice.New(sluice.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, b := sitePage("Storm", "The storm reached the coast."), sitePage("Vote", "Voters go to the polls.")
	binary := sluice.Input{Data: []byte("\x00\x01\x02\x03PK\x03\x04\x00\x00\x00")}

	// A binary input fails alone; the others are compared.
	res, err := c.CleanSite(ctx, []sluice.Input{a, binary, b}, sluice.SiteOptions{})
	if err != nil || res[1].Err == nil || res[1].Result != nil || res[0].Outcome.Reference != 2 || res[2].Text() != "Vote\nVoters go to the polls." {
		t.Errorf("binary input among pages: %v, %+v", err, res)
	}
	// The set as a whole: one page, nothing readable, a bad reference.
	if _, err := c.CleanSite(ctx, []sluice.Input{a}, sluice.SiteOptions{}); !errors.Is(err, site.ErrOnePage) {
		t.Errorf("one page: %v", err)
	}
	if _, err := c.CleanSite(ctx, []sluice.Input{binary}, sluice.SiteOptions{}); err == nil || !strings.Contains(err.Error(), "no input could be read") {
		t.Errorf("no readable input: %v", err)
	}
	if _, err := c.CleanSite(ctx, nil, sluice.SiteOptions{}); !errors.Is(err, site.ErrNoPages) {
		t.Errorf("no input: %v", err)
	}
	if _, err := c.CleanSite(ctx, []sluice.Input{a, b}, sluice.SiteOptions{Reference: &binary}); err == nil || !strings.HasPrefix(err.Error(), "reference: ") {
		t.Errorf("binary reference: %v", err)
	}
	// A reference equal to one of the pages: that page is compared with
	// the other, not emptied.
	res, err = c.CleanSite(ctx, []sluice.Input{a, b}, sluice.SiteOptions{Reference: &a})
	if err != nil || res[0].Text() != "Storm\nThe storm reached the coast." || res[0].Outcome.Reference != 1 || res[1].Outcome.Reference != -1 {
		t.Errorf("reference among the pages: %v, %+v", err, res)
	}
	if _, err := c.CleanSite(ctx, []sluice.Input{a}, sluice.SiteOptions{Reference: &a}); !errors.Is(err, site.ErrOnePage) {
		t.Errorf("the reference alone: %v", err)
	}
	// An omitted page is returned empty, with a warning.
	table := sluice.Input{Data: []byte(`<html><body><table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table></body></html>`)}
	res, err = c.CleanSite(ctx, []sluice.Input{a, table, b}, sluice.SiteOptions{MultiFileOptions: site.MultiFileOptions{Sparse: true}})
	if err != nil || res[1].Outcome.Mode != site.Omitted || res[1].Text() != "" || len(res[1].Warnings) == 0 || !strings.HasPrefix(res[1].Warnings[len(res[1].Warnings)-1], "omitted: a sparse page") {
		t.Errorf("sparse page: %v, %+v", err, res[1])
	}
}
