package tableset_test

import (
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/tableset"
)

func ExampleParseTables() {
	file := "# set\tpage\ttable\tlabel\n" +
		"wcxb-dev\t4072\t2\tdata\tspecs\n" +
		"l3s-gn1\tx\t0\tlayout\n" +
		"l3s-gn1\tx\t1\tlabel me\n"
	_, err := tableset.ParseTables(strings.NewReader(file), "tables.tsv")
	fmt.Println(err)
	ls, _ := tableset.ParseTables(strings.NewReader(file[:strings.LastIndex(file, "l3s")]), "tables.tsv")
	for _, l := range ls {
		fmt.Println(l.Ref, l.Label, l.Note)
	}
	// Output:
	// tables.tsv:4: label "label me": want data, layout or ?
	// wcxb-dev/4072 table 2 data specs
	// l3s-gn1/x table 0 layout
}
