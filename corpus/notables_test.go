package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice"
)

const tablePage = `<html><body><article><h1>Kettle sizes</h1>
<p>We measured the capacity and the boiling time of four kettles in our <a href="/kitchen">test kitchen</a> over two weeks of daily use.</p>
<table><tr><th>Kettle</th><th>Capacity</th><th>Boil time</th></tr>
<tr><td>Copper</td><td>2.0 l</td><td>4 min 10 s</td></tr>
<tr><td>Steel</td><td>1.7 l</td><td>3 min 40 s</td></tr>
<tr><td>Glass</td><td>1.5 l</td><td>3 min 55 s</td></tr>
<tr><td>Travel</td><td>0.5 l</td><td>1 min 50 s</td></tr></table>
<p>The steel kettle was the fastest for its size, and the copper one kept the water hot the longest after boiling.</p></article></body></html>`

// TestNoTablesAndLinks: Options.NoTables leaves a data table out of the
// jsonl text, and a cleaner made with Links gives each block's links.
func TestNoTablesAndLinks(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "kettles.html")
	if err := os.WriteFile(page, []byte(tablePage), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := sluice.New(sluice.Options{Links: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, noTables := range []bool{false, true} {
		out := filepath.Join(dir, "out", map[bool]string{false: "with", true: "without"}[noTables])
		runCorpus(t, out, []string{page}, Options{Cleaner: c, NoTables: noTables})
		docs := readDocs(t, out)
		if len(docs) != 1 {
			t.Fatalf("%d documents", len(docs))
		}
		d := docs[0]
		if got := strings.Contains(d.Text, "Copper"); got == noTables {
			t.Errorf("NoTables %v: table text in the output %v:\n%s", noTables, got, d.Text)
		}
		if !strings.Contains(d.Text, "fastest for its size") {
			t.Errorf("NoTables %v: the prose is gone:\n%s", noTables, d.Text)
		}
		found := false
		for _, b := range d.Blocks {
			for _, l := range b.Links {
				found = found || l.Href == "/kitchen" && l.Text == "test kitchen"
			}
		}
		if !found {
			t.Errorf("NoTables %v: no link to /kitchen in the blocks", noTables)
		}
	}
}
