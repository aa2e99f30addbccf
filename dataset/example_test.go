package dataset_test

import (
	"fmt"
	"log"

	"github.com/sluice-project/sluice/dataset"
)

// Reading a data set: a bare name such as "cleaneval-dev" opens it under
// ../shared/data; a path opens that folder.
func Example() {
	set, err := dataset.Open("testdata/dragnet")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(set.Name, set.Kind, set.Len())
	for p, err := range set.Pages() {
		if err != nil {
			fmt.Println("skipped:", err)
			continue
		}
		fmt.Printf("%s: %d bytes of HTML, gold %q\n", p.ID, len(p.HTML), p.Gold.Text)
	}
	// Output:
	// dragnet dragnet 4
	// 1: 82 bytes of HTML, gold "Title one\n\nBody one.\n\nSecond line.\n\nCOMMENTS"
	// 2: 43 bytes of HTML, gold "It’s here – “quoted”\n\nDone."
	// 5: 41 bytes of HTML, gold ""
	// R10: 56 bytes of HTML, gold "Forgiving your enemies\n\nby Paulo Coelho"
}

// The L3S-GN1 gold is a list of annotated spans; Gold.Text holds the
// headline and full text, SpanText other combinations.
func ExampleGold_SpanText() {
	set, err := dataset.Open("testdata/l3s")
	if err != nil {
		log.Fatal(err)
	}
	p, err := set.Page("0a1b2c3d-0000-4000-8000-000000000001")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", p.Gold.SpanText(dataset.ClassHeadline, dataset.ClassSupplemental))
	// Output:
	// "Storm hits the coast\n\nBy A. Reporter"
}

// Each kind of data set says what scoring and training need to know of its
// gold; Open tries the kinds in this order.
func ExampleKinds() {
	for _, k := range dataset.Kinds() {
		fmt.Printf("%-11s %-9s %-8s annotated=%v style of \"cleaneval-dev\": %s\n",
			k.Kind(), k.MainMetric(), k.Alignment(), k.Annotated(), k.DefaultStyle("cleaneval-dev"))
	}
	// Output:
	// annotated   cleaneval segments annotated=true style of "cleaneval-dev": main
	// l3s         bow       spans    annotated=false style of "cleaneval-dev": main
	// readability bow       text     annotated=false style of "cleaneval-dev": main
	// wcxb        bow       text     annotated=false style of "cleaneval-dev": main
	// cleaneval   cleaneval segments annotated=false style of "cleaneval-dev": cleaneval
	// dragnet     bow       text     annotated=false style of "cleaneval-dev": main
}
