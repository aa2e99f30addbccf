package sluice_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/filter"
	"github.com/sluice-project/sluice/render"
)

func ExampleCleaner_Clean() {
	page := []byte(`<html><head><title>Mills</title></head><body>
<header><nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul></nav></header>
<article><h1>The mill wheel turns again</h1>
<p>After sixty years of silence the wheel of the old corn mill turned again
this spring, thanks to four summers of work by local volunteers who rebuilt
the launder, recast the broken cogs and re-dressed the stones by hand.</p>
<p>Visitors can watch it grind flour on the second Sunday of every month.</p></article>
<footer><p><a href="/terms">Terms</a> | <a href="/privacy">Privacy</a></p></footer>
</body></html>`)
	c, err := sluice.New(sluice.Options{}) // the embedded trained model
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.Clean(context.Background(), sluice.Input{Data: page})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := render.Lookup("cleaneval", render.Options{})
	r.Render(os.Stdout, res.Page)
	// Output:
	// <h> The mill wheel turns again
	//
	// <p> After sixty years of silence the wheel of the old corn mill turned again this spring, thanks to four summers of work by local volunteers who rebuilt the launder, recast the broken cogs and re-dressed the stones by hand.
	//
	// <p> Visitors can watch it grind flour on the second Sunday of every month.
}

// A heuristic filter pipeline instead of the trained model: CombinE-style
// serial composition of the link quota filter and WC Cleaner's target node.
func ExampleOptions_filter() {
	page := []byte(`<html><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul>
<div><h1>The mill wheel turns again</h1>
<p>After sixty years of silence the wheel of the old corn mill turned again
this spring, thanks to four summers of work by local volunteers.</p></div>
<p class="footer"><a href="/terms">Terms</a> | <a href="/privacy">Privacy</a></p>
</body></html>`)
	c, err := sluice.New(sluice.Options{Filter: "lqf>targetnode"})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.Clean(context.Background(), sluice.Input{Data: page})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Text())
	// Output:
	// The mill wheel turns again
	// After sixty years of silence the wheel of the old corn mill turned again this spring, thanks to four summers of work by local volunteers.
}

// A pipeline built with parameters (package filter, or a filter set file
// through package filterset): the link quota filter drops a lone short
// link at the foot of the page, unless lone link blocks are kept
// (lone_words 0).
func ExampleOptions_pipeline() {
	page := []byte(`<html><body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/about">About</a></li></ul>
<div><h1>The mill wheel turns again</h1>
<p>After sixty years of silence the wheel of the old corn mill turned again
this spring, thanks to four summers of work by local volunteers.</p></div>
<p class="footer"><a href="/terms">Terms and conditions of use</a></p>
</body></html>`)
	for _, params := range []filter.Params{nil, {"lone_words": 0}} {
		f, err := filter.ParseWith("lqf", map[string]filter.Params{"lqf": params})
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := sluice.New(sluice.Options{Pipeline: f})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := c.Clean(context.Background(), sluice.Input{Data: page})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v:\n%s\n", params, res.Text())
	}
	// Output:
	// map[]:
	// The mill wheel turns again
	// After sixty years of silence the wheel of the old corn mill turned again this spring, thanks to four summers of work by local volunteers.
	// map[lone_words:0]:
	// The mill wheel turns again
	// After sixty years of silence the wheel of the old corn mill turned again this spring, thanks to four summers of work by local volunteers.
	// Terms and conditions of use
}

// Options.Links and Options.Images keep the links and images of the kept
// text, which the markdown, html and json formats write.
func ExampleOptions_links() {
	page := []byte(`<html><head><title>Mills</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
<article><h1>The mill wheel turns again</h1>
<p>After sixty years of silence the wheel of <a href="/mills/corn">the old corn mill</a>
turned again this spring, thanks to four summers of work by local volunteers who rebuilt
the launder, recast the broken cogs and re-dressed the stones by hand.</p>
<p><img src="/img/wheel.jpg" alt="The wheel"> turns on the second Sunday of every month.</p></article>
</body></html>`)
	c, err := sluice.New(sluice.Options{Links: true, Images: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.Clean(context.Background(), sluice.Input{Data: page})
	if err != nil {
		fmt.Println(err)
		return
	}
	md, _ := render.Lookup("markdown", render.Options{})
	md.Render(os.Stdout, res.Page)
	// Output:
	// # The mill wheel turns again
	//
	// After sixty years of silence the wheel of [the old corn mill](/mills/corn) turned again this spring, thanks to four summers of work by local volunteers who rebuilt the launder, recast the broken cogs and re-dressed the stones by hand.
	//
	// ![The wheel](/img/wheel.jpg) turns on the second Sunday of every month.
}

func ExampleCleaner_CleanSite() {
	page := func(title, text string) sluice.Input {
		return sluice.Input{Data: []byte(`<html><body>
<ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul>
<div id="story"><h1>` + title + `</h1><p>` + text + `</p></div>
<p>Copyright 2009 The Example Times</p></body></html>`)}
	}
	c, err := sluice.New(sluice.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	pages := []sluice.Input{
		page("Storm hits the coast", "The storm reached the coast on Monday night."),
		page("Elections next week", "Voters go to the polls next Tuesday."),
	}
	res, err := c.CleanSite(context.Background(), pages, sluice.SiteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res {
		fmt.Printf("%s (%s against page %d)\n", r.Text(), r.Outcome.Mode, r.Outcome.Reference)
	}
	// Output:
	// Storm hits the coast
	// The storm reached the coast on Monday night. (diffed against page 1)
	// Elections next week
	// Voters go to the polls next Tuesday. (diffed against page 0)
}
