package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/render"
	"github.com/sluice-project/sluice/site"
)

// siteFlags are the flags of sluice clean --site multifile, WC Cleaner's
// multiple-file mode (sluice.Cleaner.CleanSite).
type siteFlags struct {
	site, reference           string
	prune, fromTarget, sparse bool
	siteOpts                  sluice.SiteOptions
}

func (f *siteFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.site, "site", "", "clean the inputs as pages of one site against each other: `multifile` (WC Cleaner's multiple-file mode; see above)")
	fs.StringVar(&f.reference, "reference", "", "with --site multifile: compare every page with the page in `FILE` (default: the input of median size)")
	fs.BoolVar(&f.prune, "prune", false, "with --site multifile: clean a page whose structure differs from the reference's by its target node instead")
	fs.BoolVar(&f.fromTarget, "from-target", false, "with --site multifile: compare only the target nodes (the densest text) of a page and its reference")
	fs.BoolVar(&f.sparse, "sparse", false, "with --site multifile: omit sparse pages (under 10 characters per structural element): written empty, with a warning")
}

// checkSite refuses the modes without --site multifile, and with it the
// flags that choose how to decide content, which it does not use.
func (c *cleanCmd) checkSite() error {
	modes := []struct {
		set  bool
		name string
	}{{c.reference != "", "--reference"}, {c.prune, "--prune"}, {c.fromTarget, "--from-target"}, {c.sparse, "--sparse"}}
	if c.site == "" {
		for _, m := range modes {
			if m.set {
				return fmt.Errorf("%s is a mode of multiple-file cleaning: give --site multifile too (sluice clean --site multifile %s FILE...)", m.name, m.name)
			}
		}
		return nil
	}
	if c.site != "multifile" {
		return fmt.Errorf("--site %q: sluice clean knows --site multifile (WC Cleaner's multiple-file mode); the site model is sluice corpus --site", c.site)
	}
	deciders := []struct {
		set  bool
		name string
	}{{c.filter != "", "--filter"}, {c.model != "", "--model"}, {c.filterSet != "", "--filter-set"}, {c.style != "", "--style"},
		{c.threshold != 0, "--threshold"}, {c.precision, "--precision"}, {c.recall, "--recall"}}
	for _, d := range deciders {
		if d.set {
			return fmt.Errorf("--site multifile and %s: multiple-file cleaning keeps what a page does not share with its reference; it uses no model, filter or threshold", d.name)
		}
	}
	if len(c.args) == 0 {
		return errors.New("--site multifile: give the pages of one site (FILE... or DIR)")
	}
	c.siteOpts.MultiFileOptions = site.MultiFileOptions{Prune: c.prune, FromTarget: c.fromTarget, Sparse: c.sparse}
	return nil
}

// readReference reads --reference FILE and checks that it is a page.
func (c *cleanCmd) readReference() error {
	if c.reference == "" {
		return nil
	}
	data, err := inputs.Read(c.reference, nil, maxRead)
	if err != nil {
		return fmt.Errorf("--reference: %w", err)
	}
	in := sluice.Input{Data: data, ContentType: c.contentType}
	if _, err := c.cleaner.Segment(context.Background(), in); err != nil {
		return fmt.Errorf("--reference %s: %w", c.reference, err)
	}
	c.siteOpts.Reference = &in
	return nil
}

// runSite is sluice clean --site multifile: every input is read, the set
// cleaned at once, and the pages written in input order.
func (c *cleanCmd) runSite(ctx context.Context) int {
	srcs, failed, code := c.start()
	if code >= 0 {
		return code
	}
	if c.out != nil {
		defer c.out.Close()
	}
	all := len(srcs) + failed
	var ins []sluice.Input
	var read []int // the index in srcs of each input read
	damaged := map[int]error{}
	for i, s := range srcs {
		in, dmg, err := c.input(ctx, s, nil)
		if err != nil {
			fmt.Fprintf(c.stderr, "sluice clean: %s: %v\n", s.Name, err)
			failed++
			continue
		}
		if dmg != nil {
			damaged[i] = dmg
		}
		ins = append(ins, in)
		read = append(read, i)
	}
	results, err := c.cleaner.CleanSite(ctx, ins, c.siteOpts)
	if err != nil {
		for k, r := range results {
			if r.Err != nil {
				fmt.Fprintf(c.stderr, "sluice clean: %s: %v\n", srcs[read[k]].Name, r.Err)
			}
		}
		fmt.Fprintf(c.stderr, "sluice clean: --site multifile: %v\n", err)
		return exitFailed
	}
	var stream *render.Stream
	if c.outDir == "" && len(srcs) > 1 {
		stream = render.NewStream(c.stdout, c.renderer)
	}
	for k, r := range results {
		i, s := read[k], srcs[read[k]]
		if r.Err != nil {
			fmt.Fprintf(c.stderr, "sluice clean: %s: %v\n", s.Name, r.Err)
			failed++
			continue
		}
		c.finishPage(s, r.Result)
		c.warn(s, r.Warnings)
		ok, stop := c.output(stream, i, s, cleaned{res: r.Result, damaged: damaged[i]})
		if !ok {
			failed++
		}
		if stop {
			break
		}
	}
	failed += c.closeOutputs(stream, failed)
	c.siteSummary(results)
	return c.finish(failed, all)
}

// siteSummary reports, unless -q, how the pages were cleaned, and warns
// when they come from several hosts.
func (c *cleanCmd) siteSummary(results []sluice.SiteResult) {
	if c.quiet {
		return
	}
	var n [3]int
	var hosts []string
	for _, r := range results {
		if r.Err != nil {
			continue
		}
		n[min(int(r.Outcome.Mode), 2)]++
		if u, err := url.Parse(r.Page.Meta.URL); err == nil && u.Host != "" && !slices.Contains(hosts, u.Host) {
			hosts = append(hosts, u.Host)
		}
	}
	fmt.Fprintf(c.stderr, "sluice clean: --site multifile: %d pages: %d compared with their reference, %d cleaned alone, %d omitted as sparse\n",
		n[0]+n[1]+n[2], n[site.Diffed], n[site.Single], n[site.Omitted])
	if len(hosts) > 1 {
		fmt.Fprintf(c.stderr, "sluice clean: warning: the pages come from %d hosts (%s): they were taken as one site; give one site at a time\n", len(hosts), strings.Join(hosts[:min(len(hosts), 3)], ", "))
	}
}
