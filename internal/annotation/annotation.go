// Package annotation plans the work of sluice annotate: which annotation
// file goes with each page (beside it, in an output folder, or in an
// annotated data set's ann/ folder), and describes a page's labels for its
// messages. Writing and checking the files is package train's.
package annotation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sluice-project/sluice/inputs"
	"github.com/sluice-project/sluice/internal/outdir"
	"github.com/sluice-project/sluice/page"
)

// Ext is the ending of annotation files.
const Ext = ".ann"

// Job is one page to annotate or check.
type Job struct {
	Page string // the page's file
	Ann  string // its annotation file
	Gold string // with --gold: its gold file
}

// Jobs turns the arguments into pages with their annotation files:
// a file is a page; a data set folder (html/ and ann/ in it) gives
// html/NAME.html with ann/NAME.ann, as package dataset reads them; another
// directory is walked for HTML files. The annotation is named after the
// page, beside it or in outDir. With check, the annotations of a data set
// folder that have no page are returned as orphans. The pages a directory's
// walk leaves out (links leading out of it or to directories, special
// files: see inputs.Walker) are told to skipped, with the reason.
func Jobs(args []string, outDir string, check bool, skipped func(path, reason string)) (jobs, orphans []Job, errs []error) {
	annFor := func(path, rel string) string {
		if outDir != "" {
			return filepath.Join(outDir, outdir.Name(rel, Ext))
		}
		return outdir.Name(path, Ext)
	}
	seen := map[string]string{} // annotation file → page
	add := func(j Job) {
		if prev, ok := seen[j.Ann]; ok {
			errs = append(errs, fmt.Errorf("%s: its annotation %s is also that of %s; rename one of them", j.Page, j.Ann, prev))
			return
		}
		seen[j.Ann] = j.Page
		jobs = append(jobs, j)
	}
	for _, a := range args {
		if a == "-" {
			errs = append(errs, errors.New("-: annotate reads page files, not standard input (the annotation file is named after the page)"))
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch {
		case !st.IsDir():
			add(Job{Page: a, Ann: annFor(a, filepath.Base(a))})
		case isDir(filepath.Join(a, "html")) && isDir(filepath.Join(a, "ann")) && outDir == "":
			pages, err := filepath.Glob(filepath.Join(a, "html", "*.html"))
			if err != nil || len(pages) == 0 {
				errs = append(errs, fmt.Errorf("%s: a data set folder without pages: put them in %s", a, filepath.Join(a, "html", "NAME.html")))
				continue
			}
			sort.Slice(pages, func(i, j int) bool { return inputs.NaturalLess(pages[i], pages[j]) })
			for _, p := range pages {
				name := strings.TrimSuffix(filepath.Base(p), ".html")
				add(Job{Page: p, Ann: filepath.Join(a, "ann", name+Ext)})
			}
			if !check {
				continue
			}
			anns, _ := filepath.Glob(filepath.Join(a, "ann", "*"+Ext))
			for _, ann := range anns {
				if _, ok := seen[ann]; !ok {
					name := strings.TrimSuffix(filepath.Base(ann), Ext)
					orphans = append(orphans, Job{Page: filepath.Join(a, "html", name+".html"), Ann: ann})
				}
			}
		default:
			var found []Job
			w := inputs.Walker{OnError: func(err error) { errs = append(errs, err) },
				OnSkip: func(p, reason string) {
					if inputs.IsMarkup(p) {
						skipped(p, reason)
					}
				}}
			w.Walk(a, func(p string, d fs.DirEntry) bool {
				if inputs.IsMarkup(d.Name()) {
					rel, _ := filepath.Rel(a, p)
					found = append(found, Job{Page: p, Ann: annFor(p, rel)})
				}
				return true
			})
			if len(found) == 0 {
				errs = append(errs, fmt.Errorf("%s: no .html or .htm files in this directory", a))
			}
			sort.Slice(found, func(i, j int) bool { return inputs.NaturalLess(found[i].Page, found[j].Page) })
			for _, j := range found {
				add(j)
			}
		}
	}
	return jobs, orphans, errs
}

// Unjoin returns the errors joined in err (by errors.Join), or err alone.
func Unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// Describe says how many blocks have each label: "12 blocks: 1
// heading, 3 paragraphs, 2 continuations, 6 other".
func Describe(labels []page.Label) string {
	var n [page.Continuation + 1]int
	for _, l := range labels {
		if int(l) < len(n) {
			n[l]++
		}
	}
	var parts []string
	for _, x := range []struct {
		l          page.Label
		one, other string
	}{
		{page.Heading, "heading", "headings"},
		{page.Paragraph, "paragraph", "paragraphs"},
		{page.ListItem, "list item", "list items"},
		{page.Continuation, "continuation", "continuations"},
		{page.Other, "other", "other"},
	} {
		switch c := n[x.l]; c {
		case 0:
		case 1:
			parts = append(parts, "1 "+x.one)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", c, x.other))
		}
	}
	blocks := "blocks"
	if len(labels) == 1 {
		blocks = "block"
	}
	return fmt.Sprintf("%d %s: %s", len(labels), blocks, strings.Join(parts, ", "))
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
