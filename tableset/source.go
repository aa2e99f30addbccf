package tableset

import (
	"context"
	"errors"
	"fmt"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/page"
)

// Source finds the pages that labels refer to: it opens the data sets by
// name through package dataset and segments their pages. It keeps the
// last page it segmented, so labels sorted by page segment each page once.
// A Source is not safe for concurrent use.
type Source struct {
	cl   *sluice.Cleaner
	sets map[string]*dataset.Set
	open func(name string) (*dataset.Set, error)

	lastSet, lastID string
	lastSite        string // the dataset's Site of the last page
	last            *page.Page
}

// NewSource returns a Source over the data sets of dataset.Root
// ($SLUICE_DATA, else ../shared/data); it fails with a clear message when
// there is no data folder.
func NewSource() (*Source, error) {
	if _, err := dataset.Root(); err != nil {
		return nil, fmt.Errorf("no data sets to resolve the labels against (set $%s to the folder of the shared data sets): %w", dataset.EnvData, err)
	}
	return newSource(dataset.Open)
}

// NewDirSource returns a Source whose set names are folders under dir
// (for tests and for sets kept elsewhere).
func NewDirSource(dir string) (*Source, error) {
	return newSource(func(name string) (*dataset.Set, error) {
		return dataset.Open(dir + "/" + name)
	})
}

func newSource(open func(string) (*dataset.Set, error)) (*Source, error) {
	// The labels number the tables of pages segmented with the consent
	// panels in, as sluice did when they were made: a panel's tables
	// (cookie lists) are labelled too, and keep the numbers after them.
	cl, err := sluice.New(sluice.Options{Filter: "lqf", KeepConsent: true})
	if err != nil {
		return nil, err
	}
	return &Source{cl: cl, sets: map[string]*dataset.Set{}, open: open}, nil
}

// Set returns the data set of that name, opened once.
func (s *Source) Set(name string) (*dataset.Set, error) {
	if set, ok := s.sets[name]; ok {
		return set, nil
	}
	set, err := s.open(name)
	if err != nil {
		return nil, err
	}
	s.sets[name] = set
	return set, nil
}

// Page returns page id of set name, segmented (its Tables filled).
func (s *Source) Page(ctx context.Context, name, id string) (*page.Page, error) {
	if s.last != nil && s.lastSet == name && s.lastID == id {
		return s.last, nil
	}
	set, err := s.Set(name)
	if err != nil {
		return nil, err
	}
	dp, err := set.Page(id)
	if err != nil {
		return nil, err
	}
	p, err := Segment(ctx, s.cl, dp)
	if err != nil {
		return nil, err
	}
	s.lastSet, s.lastID, s.lastSite, s.last = name, id, dp.Site, p
	return p, nil
}

// Segment segments a data set page with cl, passing the charset the set
// states as a Content-Type header, as evaluation and training do.
func Segment(ctx context.Context, cl *sluice.Cleaner, dp *dataset.Page) (*page.Page, error) {
	in := sluice.Input{Data: dp.HTML, URL: dp.URL}
	if dp.Charset != "" {
		in.ContentType = "text/html; charset=" + dp.Charset
	}
	r, err := cl.Segment(ctx, in)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", dp.Set, dp.ID, err)
	}
	if r.Page == nil {
		return nil, errors.New(dp.Set + "/" + dp.ID + ": no page")
	}
	return r.Page, nil
}
