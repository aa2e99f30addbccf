// Command pagetypes measures what the default cleaner keeps and drops
// wrongly on each WCXB page type (docs/page-types.md). It cleans every page
// of wcxb-dev with the embedded model, scores it with the set's
// bag-of-words metric, attributes each kept word that is not in the gold
// (and each gold word missed) to a block, puts every such block in a kind by
// observable rules (container class and id cues, tag path, link density,
// repeated sibling structures, data-table membership, length), and measures
// what naive removal rules would gain and lose.
//
//	go run ./scripts/pagetypes [-set wcxb-dev] [-blocks blocks.tsv] [-pages pages.tsv]
//
// It reads the data from $SLUICE_DATA (else ../shared/data). It is an
// analysis tool, not part of go test.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/evaluate"
)

func main() {
	setName := flag.String("set", "wcxb-dev", "data set (name or folder)")
	blocksOut := flag.String("blocks", "", "write one line per wrongly kept or wrongly dropped block to this TSV file")
	pagesOut := flag.String("pages", "", "write one line per page to this TSV file")
	flag.Parse()
	if err := run(*setName, *blocksOut, *pagesOut); err != nil {
		fmt.Fprintln(os.Stderr, "pagetypes:", err)
		os.Exit(1)
	}
}

func run(setName, blocksOut, pagesOut string) error {
	set, err := dataset.Open(setName)
	if err != nil {
		return err
	}
	cl, err := sluice.New(sluice.Options{})
	if err != nil {
		return err
	}
	pages := evaluate.ReadPages(set, 0, func(err error) { fmt.Fprintln(os.Stderr, err) })
	res, errs := evaluate.MapPages(context.Background(), pages, runtime.NumCPU(), nil,
		func(ctx context.Context, p *dataset.Page) (*pageResult, error) { return analyse(ctx, cl, p) })
	var done []*pageResult
	for i, r := range res {
		if errs[i] != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", pages[i].ID, errs[i])
			continue
		}
		done = append(done, r)
	}
	report(os.Stdout, done)
	if blocksOut != "" {
		if err := writeBlocks(blocksOut, done); err != nil {
			return err
		}
	}
	if pagesOut != "" {
		return writePages(pagesOut, done)
	}
	return nil
}
