package textunit_test

import (
	"fmt"

	"github.com/sluice-project/sluice/textunit"
)

func ExampleAll() {
	for u := range textunit.All("Don't panic: 2018年GDP增长6.6%.") {
		fmt.Println(u.Kind, u.Text)
	}
	// Output:
	// word Don't
	// word panic
	// number 2018
	// char 年
	// word GDP
	// char 增
	// char 长
	// number 6.6
}

func ExampleWordEquivalents() {
	fmt.Println(textunit.Count("The quick brown fox"), textunit.WordEquivalents("The quick brown fox"))
	fmt.Println(textunit.Count("中华人民共和国"), textunit.WordEquivalents("中华人民共和国"))
	// Output:
	// 4 4
	// 7 4.375
}
