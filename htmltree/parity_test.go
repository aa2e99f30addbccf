package htmltree_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/dataset"
	"github.com/sluice-project/sluice/htmltree"
	"github.com/sluice-project/sluice/ingest"
)

// parityFloor is the share of pages of each shared set whose text nodes and
// block structure must equal html.Parse's.
const parityFloor = 0.99

// decodePage decodes a page to UTF-8 as ingest does (the data set's
// charset as a Content-Type, the CleanEval wrapper, the <meta> prescan),
// without ingest's repairs of unclosed raw-text elements.
func decodePage(p *dataset.Page) []byte {
	ct := ""
	if p.Charset != "" {
		ct = "text/html; charset=" + p.Charset
	}
	w, _ := ingest.FindWrapper(p.HTML)
	text, _ := ingest.DetectCharset(p.HTML, ct, w.Encoding).Decode(p.HTML)
	return text
}

// setParity is the parity figures of one set.
type setParity struct {
	pages, refused, sameText, sameBlocks, sameFull int
	textNodes, rawExact                            int
}

// TestParity compares, on every page of every shared set, the text nodes
// (text and block-level path) and the block-level element tree of
// htmltree with html.Parse's. $HTMLTREE_DIFFS names a folder to write the
// first difference of each differing page to.
func TestParity(t *testing.T) {
	sets, err := dataset.Sets()
	if err != nil {
		t.Skipf("no shared data: %v", err)
	}
	var b htmltree.Builder
	diffs := os.Getenv("HTMLTREE_DIFFS")
	for _, name := range sets {
		s, err := dataset.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var sp setParity
		for p, err := range s.Pages() {
			if err != nil {
				t.Fatal(err)
			}
			src := decodePage(p)
			doc, err := refParse(src)
			if err != nil {
				sp.refused++
				continue
			}
			sp.pages++
			tr := b.Build(src)
			want, got := refTexts(doc), treeTexts(tr)
			i := firstTextDiff(want, got)
			wb, gb := refBlocks(doc), treeBlocks(tr)
			j := firstByteDiff(wb, gb)
			if i < 0 {
				sp.sameText++
			}
			if j < 0 {
				sp.sameBlocks++
			}
			if diffs != "" && (i >= 0 || j >= 0) {
				writeDiff(t, filepath.Join(diffs, name+"_"+p.ID+".txt"), want, got, i, wb, gb, j)
			}
			nodes, exact := rawShare(t, tr)
			sp.textNodes += nodes
			sp.rawExact += exact
			wf, gf := refFull(doc), treeFull(tr)
			if k := firstByteDiff(wf, gf); k < 0 {
				sp.sameFull++
			} else if diffs != "" {
				lo := max(0, k-200)
				d := fmt.Sprintf("full tree differs at byte %d\n  ref  %s\n  tree %s\n", k, wf[lo:min(len(wf), k+200)], gf[lo:min(len(gf), k+200)])
				if err := os.WriteFile(filepath.Join(diffs, "full_"+name+"_"+p.ID+".txt"), []byte(d), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if sp.pages == 0 {
			continue
		}
		text, blocks := float64(sp.sameText)/float64(sp.pages), float64(sp.sameBlocks)/float64(sp.pages)
		t.Logf("%-16s %5d pages (%d refused by html.Parse): text nodes identical %6.2f%%, block structure identical %6.2f%%, whole tree identical %6.2f%%",
			name, sp.pages, sp.refused, 100*text, 100*blocks, 100*float64(sp.sameFull)/float64(sp.pages))
		t.Logf("%-16s %d text nodes, %.2f%% with a raw span that decodes to their text", name, sp.textNodes, 100*float64(sp.rawExact)/float64(max(1, sp.textNodes)))
		if text < parityFloor || blocks < parityFloor {
			t.Errorf("%s: parity under %.0f%%", name, 100*parityFloor)
		}
	}
}

// writeDiff writes the first differences of one page.
func writeDiff(t *testing.T, path string, want, got []textNode, i int, wb, gb string, j int) {
	var sb strings.Builder
	if i >= 0 {
		fmt.Fprintf(&sb, "text node %d of %d/%d\n", i, len(want), len(got))
		for k := max(0, i-2); k < i+3; k++ {
			if k < len(want) {
				fmt.Fprintf(&sb, "  ref  %d %q @ %s\n", k, clip(want[k].text), want[k].path)
			}
			if k < len(got) {
				fmt.Fprintf(&sb, "  tree %d %q @ %s\n", k, clip(got[k].text), got[k].path)
			}
		}
	}
	if j >= 0 {
		lo := max(0, j-120)
		fmt.Fprintf(&sb, "blocks differ at byte %d\n  ref  %s\n  tree %s\n", j, wb[lo:min(len(wb), j+120)], gb[lo:min(len(gb), j+120)])
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
