package parsertext

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	"github.com/sluice-project/sluice/ingest"
	"github.com/sluice-project/sluice/internal/pagetest"
	"github.com/sluice-project/sluice/page"
	"github.com/sluice-project/sluice/segment"
	"github.com/sluice-project/sluice/structure"
)

// keepAll parses body and keeps every block, labelled by structure, so
// that the tests do not depend on a model's choices.
func keepAll(t testing.TB, body string) *page.Page {
	p := pagetest.Parse(t, "<html><body>"+body+"</body></html>")
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
	}
	structure.Label(p, structure.Threshold)
	return p
}

func check(t *testing.T, body string, opts Options, want ...string) {
	t.Helper()
	got := Sentences(keepAll(t, body), opts)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// The wedding-dress list of Kitten's Figure 7: short items, one sentence.
const weddingDress = `<p>The following list contains a general guideline of different body styles and wedding dress styles to consider:</p>
<ul><li>Hourglass-shaped brides</li><li>Pear-shaped brides</li><li>Petite brides</li><li>Plus-size brides</li><li>Tall brides</li></ul>`

func TestWeddingDressList(t *testing.T) {
	check(t, weddingDress, Options{},
		"The following list contains a general guideline of different body styles and wedding dress styles to consider: Hourglass-shaped brides, Pear-shaped brides, Petite brides, Plus-size brides, Tall brides.")
}

// The college list of Kitten's Figure 8: the clause ends in "to", a
// trigger word, so it is repeated before each item.
func TestCollegeList(t *testing.T) {
	check(t, `<p>Before selecting a college, parents need to:</p><ol>
<li>determine how much funding can be available from conventional sources such as savings, income from the family budget, trusts, and part-time jobs, if more money is needed</li>
<li>explore the availability of scholarships, low-interest student and parent loans, second mortgages, and conventional loans</li>
<li>examine their own life insurance policies and retirement programs to ensure that college funds will be available in the event of their death</li></ol>`, Options{},
		"Before selecting a college, parents need to determine how much funding can be available from conventional sources such as savings, income from the family budget, trusts, and part-time jobs, if more money is needed.",
		"Before selecting a college, parents need to explore the availability of scholarships, low-interest student and parent loans, second mortgages, and conventional loans.",
		"Before selecting a college, parents need to examine their own life insurance policies and retirement programs to ensure that college funds will be available in the event of their death.")
}

// French trigger words come from the page's language.
func TestFrenchTrigger(t *testing.T) {
	p := pagetest.Parse(t, `<html lang="fr"><body><p>Les enfants peuvent jouer avec:</p><ul><li>des ballons</li><li>des cordes</li></ul></body></html>`)
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
	}
	structure.Label(p, structure.Threshold)
	got := Sentences(p, Options{})
	want := []string{"Les enfants peuvent jouer avec des ballons.", "Les enfants peuvent jouer avec des cordes."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Long items each become a sentence, with the full stop added or fixed.
func TestLongItems(t *testing.T) {
	long := strings.Repeat("word ", 14)
	check(t, `<p>Three things matter here:</p><ul><li>`+long+`one;</li><li>`+long+`two</li><li>`+long+`three!</li></ul>`, Options{},
		"Three things matter here.", long+"one.", long+"two.", long+"three!")
}

func TestBullets(t *testing.T) {
	for _, b := range []string{"* ", "- ", "• ", "· ", "1) ", "1. ", "a) ", "iv. ", "(2) "} {
		check(t, `<ul><li>`+b+`Apples are red</li></ul>`, Options{}, "Apples are red.")
	}
	check(t, `<ul><li>-5 degrees at night</li></ul>`, Options{}, "-5 degrees at night.")
}

func TestLinkList(t *testing.T) {
	var removed []string
	check(t, `<ul><li><a href="/">Home</a></li><li><a href="/c">Cite</a></li>
<li><a href="/x">A long link with many words in it</a></li></ul><p>Body text here.</p>`,
		Options{Removed: func(s, reason string) {
			removed = append(removed, s)
			if reason != ReasonLinkItem {
				t.Errorf("reason %q", reason)
			}
		}},
		"A long link with many words in it.", "Body text here.")
	if want := []string{"Home", "Cite"}; !reflect.DeepEqual(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	// A list with one plain item is not a link list.
	check(t, `<ul><li><a href="/">Home</a></li><li>Plain</li></ul>`, Options{}, "Home.", "Plain.")
}

func TestNestedListNotFlattened(t *testing.T) {
	check(t, `<p>Fruit:</p><ul><li>Apples<ul><li>Red</li></ul></li><li>Pears</li></ul>`, Options{},
		"Fruit.", "Apples.", "Red.", "Pears.")
}

func TestFullStops(t *testing.T) {
	check(t, `<h1>Our history</h1><p>Founded in 1901</p><p>Still here today!</p><h2>Contact:</h2><p>Write to us</p>`, Options{},
		"Our history.", "Founded in 1901.", "Still here today!", "Contact.", "Write to us.")
}

// The <br> paragraph of Kitten's Figure 9: six lines, three sentences.
const figure9 = `<p>Accessible Arts is the peak arts organisation in NSW<br>promoting creative expression and participation<br>in arts and cultural activities by people with disabilities.<br>This site provides information<br>on art and disability<br>in NSW.</p>`

func TestBreakParagraph(t *testing.T) {
	want := []string{
		"Accessible Arts is the peak arts organisation in NSW promoting creative expression and participation in arts and cultural activities by people with disabilities.",
		"This site provides information on art and disability in NSW.",
	}
	check(t, figure9, Options{}, want...)
	// The model path: every piece labelled a paragraph of its own.
	p := keepAll(t, strings.ReplaceAll(figure9, "<br>", "<br><br>"))
	for i := range p.Blocks {
		p.Blocks[i].Label = page.Paragraph
	}
	if got := Sentences(p, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("model path: got %q, want %q", got, want)
	}
}

// Kitten's Figure 10: with abbreviation titles on (segment.Options
// AbbrTitles, sluice clean --abbr-titles), the title of an acronym follows
// it in brackets, inside its sentence.
func TestAcronymTitle(t *testing.T) {
	src := `<html><body><p>Accessible Arts is the peak arts organisation in <acronym title="New South Wales">NSW</acronym> promoting creative expression and participation in arts and cultural activities by people with disabilities. This site provides information on art and disability in <abbr title="New South Wales">NSW</abbr>.</p></body></html>`
	doc, err := ingest.Parse([]byte(src), ingest.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	opts := segment.DefaultOptions()
	opts.AbbrTitles = true
	p := segment.Segment(doc, opts)
	for i := range p.Blocks {
		p.Blocks[i].Score = 1
	}
	structure.Label(p, structure.Threshold)
	want := []string{
		"Accessible Arts is the peak arts organisation in NSW (New South Wales) promoting creative expression and participation in arts and cultural activities by people with disabilities.",
		"This site provides information on art and disability in NSW (New South Wales).",
	}
	if got := Sentences(p, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestOptionDropped(t *testing.T) {
	p := keepAll(t, `<p>Choose a size</p><div>small</div>`)
	// Pretend ingest kept an option: put the second block under one.
	n := int32(len(p.Nodes))
	p.Nodes = append(p.Nodes, page.Node{Tag: "option", Parent: p.Blocks[1].Node})
	p.Nodes[n].Atom = atom.Option
	p.Blocks[1].Node = n
	if got := Sentences(p, Options{}); !reflect.DeepEqual(got, []string{"Choose a size."}) {
		t.Errorf("got %q", got)
	}
}

func TestSplit(t *testing.T) {
	en := loadLanguage("en")
	for in, want := range map[string][]string{
		"Mr. Smith went home. He slept.":       {"Mr. Smith went home.", "He slept."},
		"J. R. Tolkien wrote it. 1954 saw it.": {"J. R. Tolkien wrote it.", "1954 saw it."},
		"It costs 3.5 dollars. Cheap!":         {"It costs 3.5 dollars.", "Cheap!"},
		`He said "Stop." Then "Go!" ok.`:       {`He said "Stop."`, `Then "Go!" ok.`},
		"e.g. this one. And more":              {"e.g. this one.", "And more"},
		"1. Heat the oil. Then stir.":          {"1. Heat the oil.", "Then stir."},
		"Great :) I mean it. (see 3) Ok":       {"Great :)", "I mean it. (see 3) Ok"},
		"It works well. >> See Also: Best":     {"It works well.", ">> See Also: Best"},
		"今天很好。明天也好！":                           {"今天很好。", "明天也好！"},
	} {
		if got := splitSentences(nil, in, en); !reflect.DeepEqual(got, want) {
			t.Errorf("split %q = %q, want %q", in, got, want)
		}
	}
}

// Bad input: deep and long lists take bounded time and do not panic.
func TestBadLists(t *testing.T) {
	deep := strings.Repeat("<ul><li>x ", 1000) + strings.Repeat("</li></ul>", 1000)
	if got := Sentences(keepAll(t, deep), Options{}); len(got) == 0 {
		t.Error("deep list: no text")
	}
	var sb strings.Builder
	sb.WriteString("<p>Items:</p><ul>")
	for i := range 100_000 {
		fmt.Fprintf(&sb, "<li>item %d</li>", i)
	}
	sb.WriteString("</ul>")
	// Too many words to flatten: the introduction, then a sentence an item.
	got := Sentences(keepAll(t, sb.String()), Options{})
	if len(got) != 100_001 || got[0] != "Items." || got[100_000] != "item 99999." {
		t.Errorf("long list: %d sentences", len(got))
	}
}

func TestPreKept(t *testing.T) {
	check(t, "<p>Run this</p><pre>make\n  install</pre>", Options{}, "Run this.", "make", "  install")
}

func TestLog(t *testing.T) {
	var l Log
	p := keepAll(t, `<ul><li><a href="/">Home</a></li><li><a href="/c">"Cite" ↗</a></li></ul>`)
	l.SetInput("a.html")
	Sentences(p, Options{Removed: l.Removed})
	l.SetInput("dir/b.html")
	Sentences(p, Options{Removed: l.Removed})
	want := `{"input":"a.html","item":"Home","reason":"link-list item of fewer than 5 words"}
{"input":"a.html","item":"\"Cite\" ↗","reason":"link-list item of fewer than 5 words"}
{"input":"dir/b.html","item":"Home","reason":"link-list item of fewer than 5 words"}
{"input":"dir/b.html","item":"\"Cite\" ↗","reason":"link-list item of fewer than 5 words"}
`
	if got := string(l.Bytes()); got != want || l.Len() != 4 {
		t.Errorf("log (%d items):\n%s\nwant\n%s", l.Len(), got, want)
	}
}

// A definition list is a list too: its terms and definitions are items.
func TestDefinitionList(t *testing.T) {
	check(t, `<p>The parts of a mill:</p><dl><dt>Wheel</dt><dd>turned by water</dd><dt>Stones</dt><dd>grind the grain</dd></dl>`, Options{},
		"The parts of a mill: Wheel: turned by water, Stones: grind the grain.")
	// Without an introduction each term and its descriptions are one sentence.
	check(t, `<dl><dt>Wheel</dt><dd>Turned by water</dd><dd>made of oak</dd><dt>Stones?</dt><dd>They grind the grain</dd><dd>Sharp.</dd></dl>`, Options{},
		"Wheel: Turned by water; made of oak.", "Stones?", "They grind the grain; Sharp.")
}

// Flattening (Kitten 3.2.3): below a median of 60 characters the items
// join one sentence, a comma added where no allowed mark (. ? ! ; ,) ends
// an item; from 60 on, each item is a sentence.
func TestFlattenMedian(t *testing.T) {
	short := strings.Repeat("x", 59)
	check(t, `<p>Items:</p><ul><li>one;</li><li>two?</li><li>`+short+`</li><li>four,</li><li>five</li></ul>`, Options{},
		"Items: one; two? "+short+", four, five.")
	long := strings.Repeat("y", 60)
	check(t, `<p>Items:</p><ul><li>a</li><li>`+long+`</li><li>`+long+` (sic)</li></ul>`, Options{},
		"Items.", "a.", long+".", long+" (sic).")
	// Without a colon the list is not flattened.
	check(t, `<p>Items</p><ul><li>one</li><li>two</li></ul>`, Options{}, "Items.", "one.", "two.")
}

// A link list whose items are all removed takes no introduction: the
// clause before it does not flatten into the next list.
func TestIntroBeforeRemovedList(t *testing.T) {
	check(t, `<p>Elsewhere on the site:</p><ul><li><a href="/">Home</a></li><li><a href="/c">Cite</a></li></ul>
<ul><li>Flour from our mill</li><li>Bread from our bakery</li></ul>`, Options{},
		"Elsewhere on the site.", "Flour from our mill.", "Bread from our bakery.")
}

// TestTables: with Options.Tables a data table is one sentence a row, in
// its place; without, its cells are sentences of their own.
func TestTables(t *testing.T) {
	body := `<p>Sizes of handhelds:</p><table><tr><th></th><th>DS Lite</th><th>PSP</th></tr>
<tr><th>Length</th><td>133.0mm</td><td>170.0mm</td></tr><tr><th>Weight</th><td>218g</td><td>260g</td></tr></table><p>Small ones</p>`
	check(t, body, Options{Tables: true}, "Sizes of handhelds.",
		"DS Lite ; Length: 133.0mm / PSP ; Length: 170.0mm.", "DS Lite ; Weight: 218g / PSP ; Weight: 260g.", "Small ones.")
	if got := Sentences(keepAll(t, body), Options{}); len(got) != 10 {
		t.Errorf("without Tables: %q", got)
	}
	// A cell holding sentences gives them a line each.
	jobs := `<table><tr><th>Job</th><th>Type</th></tr><tr><td>Clerk</td><td>Full time. We are hiring now.</td></tr><tr><td>Driver</td><td>Part time</td></tr></table>`
	check(t, jobs, Options{Tables: true}, "Job ; Clerk / Type ; Full time.", "We are hiring now.", "Job ; Driver / Type ; Part time.")
}

// Citation marks after a full stop end the sentence with it (Wikipedia's
// "text.[18] Next"), and a flattened list longer than tables.EnumerateWords words
// stays one sentence an item.
func TestCitationsAndLongLists(t *testing.T) {
	check(t, `<p>The river floods.[18] Farmers wait.[a][b] The mill turns.[citation needed] It is old [sic] and slow.</p>`, Options{},
		"The river floods.[18]", "Farmers wait.[a][b]", "The mill turns.[citation needed]", "It is old [sic] and slow.")
	var items strings.Builder
	var want []string
	want = append(want, "The stations.")
	for i := range 15 {
		fmt.Fprintf(&items, "<li>station number %d here</li>", i)
		want = append(want, fmt.Sprintf("station number %d here.", i))
	}
	check(t, `<p>The stations:</p><ul>`+items.String()+`</ul>`, Options{}, want...)
}

func TestSplitExported(t *testing.T) {
	got := Split("Mr. Smith went home. He slept", "en-GB")
	if want := []string{"Mr. Smith went home.", "He slept"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Split = %q, want %q", got, want)
	}
}

// Lines after a <br> that open with a capital or a digit (an address, a
// phone number) are pieces of their own; Figure 9's lower-case lines join.
func TestBrLinesNotJoined(t *testing.T) {
	check(t, `<p>Acme Mills<br>12 Main Street<br>Boston<br>617-623-0744</p><p>Open daily<br>from nine<br>to five</p>`, Options{},
		"Acme Mills.", "12 Main Street.", "Boston.", "617-623-0744.", "Open daily from nine to five.")
}

// A sentence of more than 60 words is cut after its semicolons and at the
// separators of a row of links; a shorter one, and a data table's row
// clause (" ; " with a space before), are left whole.
func TestLongSentencesCut(t *testing.T) {
	clause := func(n int) string {
		return strings.TrimSpace(strings.Repeat("the court may order ", n/4))
	}
	long := clause(24) + "; " + clause(24) + "; and " + clause(20) + "."
	check(t, "<p>"+long+"</p>", Options{},
		clause(24)+".", clause(24)+".", "and "+clause(20)+".")
	short := clause(12) + "; " + clause(12) + "."
	check(t, "<p>"+short+"</p>", Options{}, short)
	var row []string
	for i := range 25 {
		row = append(row, fmt.Sprintf("Venue %d: Hall", i))
	}
	want := make([]string, len(row))
	for i, r := range row {
		want[i] = r + "."
	}
	check(t, "<p>"+strings.Join(row, " | ")+"</p>", Options{}, want...)
	table := strings.TrimSpace(strings.Repeat("Model ; Size: large / ", 13)) + "."
	check(t, "<p>"+table+"</p>", Options{}, table)
}

// A title labelled a continuation of the paragraph below it is still a
// sentence of its own; a block that goes on after "by" or in lower case
// is joined.
func TestTitleNotJoined(t *testing.T) {
	p := keepAll(t, `<div>Aura Credit Monitoring</div><div>We rate Aura as one of the best services.</div><div>Written by</div><div>Jane Smith and her team.</div><div>It was built</div><div>in a week.</div>`)
	for i := range p.Blocks {
		p.Blocks[i].Label = page.Continuation
	}
	p.Blocks[0].Label = page.Paragraph
	want := []string{"Aura Credit Monitoring.", "We rate Aura as one of the best services.", "Written by Jane Smith and her team.", "It was built in a week."}
	if got := Sentences(p, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// An emoticon ends a sentence without a full stop after it; symbols alone
// are not a sentence.
func TestEmoticonsAndSymbols(t *testing.T) {
	check(t, `<p>Well I am really pleased :)</p><p>Chin up ;-)</p><p>___</p><p>* * *</p><p>See the map</p><p>Done (mostly)</p>`, Options{},
		"Well I am really pleased :)", "Chin up ;-)", "See the map.", "Done (mostly).")
	check(t, `<p>No clue how to get there :-P Anyway, see you. Great :D Bye. Read the Note:P Then go.</p>`, Options{},
		"No clue how to get there :-P", "Anyway, see you.", "Great :D", "Bye.", "Read the Note:P Then go.")
}

// The first word of an item takes lower case after a repeated trigger
// clause when it is capitalised only for being first; names keep theirs.
func TestTriggerItemCase(t *testing.T) {
	check(t, `<p>The aims of the research were to:</p><ul><li>Show how places change</li><li>Measure what they cost</li><li>New York and Paris</li><li>NASA staff</li></ul>`, Options{},
		"The aims of the research were to show how places change.",
		"The aims of the research were to measure what they cost.",
		"The aims of the research were to New York and Paris.",
		"The aims of the research were to NASA staff.")
}

// A long run of sentences written in lower case is cut after each full
// stop that ends a word, not after an abbreviation.
func TestLowerCaseSentencesCut(t *testing.T) {
	first := "on my system " + strings.Repeat("it takes a while ", 10) + "to start, e.g. about half a second."
	second := "the hack brings " + strings.Repeat("the start time down ", 10) + "by a lot!"
	third := "that's much better"
	en := loadLanguage("en")
	got := cutLong(nil, first+" "+second+" "+third, en)
	if want := []string{first, second, third}; !reflect.DeepEqual(got, want) {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	short := "it works. the end"
	if got := cutLong(nil, short, en); !reflect.DeepEqual(got, []string{short}) {
		t.Errorf("short sentence cut: %q", got)
	}
}

// A title and its paragraph in one list item are two sentences.
func TestTitleInListItem(t *testing.T) {
	check(t, `<ul><li><h3>Aura Credit Monitoring</h3><p>We rate Aura as one of the best services.</p></li><li><h3>Written by</h3><p>Jane Smith.</p></li></ul>`, Options{},
		"Aura Credit Monitoring.", "We rate Aura as one of the best services.", "Written by Jane Smith.")
}

// A data table none of whose rows has a data cell with text (ticks drawn
// as images) is read as blocks, not dropped.
func TestTableWithoutClausesAsBlocks(t *testing.T) {
	tick := `<td><img src=tick.png width=20></td>`
	var sb strings.Builder
	sb.WriteString(`<table><tr><th></th><th>UX draft</th><th>UX review</th><th>Final review</th></tr>`)
	for _, row := range []string{"Load map", "Save map", "Graphics settings"} {
		sb.WriteString("<tr><th>" + row + "</th>" + tick + tick + tick + "</tr>")
	}
	sb.WriteString(`</table>`)
	p := keepAll(t, sb.String())
	got := Sentences(p, Options{Tables: true})
	for _, want := range []string{"UX draft.", "Load map.", "Graphics settings."} {
		if !slices.Contains(got, want) {
			t.Errorf("%q missing from %q", want, got)
		}
	}
}

// TestItemRows: items written on one line between separators are read as
// a list: an enumeration when short, one sentence an item when long.
func TestItemRows(t *testing.T) {
	long := "The council met on Monday to agree the budget for the coming year"
	check(t, `<p>Measured Maximum Speed: 32.3 km/h | 20.1 mph</p>
<p>The Huffington Post | Salon // Forbes · Slate • Time</p>
<p>`+long+` | `+long+` again</p><p>Left | | right</p>`, Options{},
		"Measured Maximum Speed: 32.3 km/h, 20.1 mph.",
		"The Huffington Post, Salon, Forbes, Slate, Time.",
		long+".", long+" again.",
		"Left, right.")
}
