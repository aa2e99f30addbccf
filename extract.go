package sluice

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"
	"sync"

	"github.com/sluice-project/sluice/render"
)

// Document is a cleaned page as Extract returns it: its text and what its
// markup says of it.
type Document struct {
	// Text is the kept text, exactly as `sluice clean -f text` writes it
	// (a blank line between segments, no final newline).
	Text string
	// Title is the page's headline without the site's name, else its
	// <title> (see package metadata).
	Title string
	// Language is the language of the text (ISO 639-1, "en"), with the
	// declared one as evidence (see package langid); DeclaredLanguage is
	// the one the markup declares, as written ("en-US"), empty when none.
	// Result.BlockLanguages gives the blocks in another language.
	Language, DeclaredLanguage string
	// Author (several joined with ", "), Published and Modified
	// (YYYY-MM-DD), SiteName, Description, Canonical (the canonical
	// address), Image (the main image's address), License, Categories and
	// Tags are what the markup says; empty when it says nothing.
	Author, Published, Modified, SiteName string
	Description, Canonical                string
	Image, License                        string
	Categories, Tags                      []string
	// URL is the CleanEval wrapper's id, when the page has one.
	URL string
	// Result is the whole result: every block with its label and score.
	// Render it with package render for the other formats.
	Result *Result
}

// defaultCleaner is the Cleaner of Extract with zero Options, built once.
var defaultCleaner = sync.OnceValues(func() (*Cleaner, error) { return New(Options{}) })

// Extract cleans the page read from r with opts and returns its text and
// metadata. It reads at most one byte more than Options.MaxBytes (16 MiB
// by default), so that a page that goes on is cut there, with a warning in
// Result.Warnings, as Clean cuts it. The zero Options clean with the embedded
// model, and that Cleaner is built once and reused; other options build a
// Cleaner per call, so a program cleaning many pages with them should call
// New once and Cleaner.Clean. It fails when r fails, or when the page is
// empty or binary (see Cleaner.Clean).
func Extract(r io.Reader, opts Options) (*Document, error) {
	var c *Cleaner
	var err error
	if reflect.ValueOf(opts).IsZero() {
		c, err = defaultCleaner()
	} else {
		c, err = New(opts)
	}
	if err != nil {
		return nil, err
	}
	if limit := c.ingest.MaxBytes; limit > 0 {
		r = io.LimitReader(r, int64(limit)+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("sluice: reading the page: %w", err)
	}
	res, err := c.Clean(context.Background(), Input{Data: data})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := (render.Text{}).Render(&buf, res.Page); err != nil {
		return nil, err
	}
	res.Language()
	m := &res.Page.Meta
	d := &Document{
		Text: string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), Title: m.Headline,
		Author: m.Author, Published: m.Published, Modified: m.Modified, SiteName: m.SiteName,
		Description: m.Description, Language: m.Language, DeclaredLanguage: m.Lang, Canonical: m.Canonical, Image: m.Image,
		License: m.License, Categories: m.Categories, Tags: m.Tags, URL: m.URL, Result: res,
	}
	if d.Title == "" {
		d.Title = m.Title
	}
	return d, nil
}
