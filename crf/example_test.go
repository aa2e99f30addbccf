package crf_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/crf/lbfgs"
)

// A toy problem: label words of a sentence as determiners (D), nouns (N)
// or verbs (V). Attributes are the word and its last letter.
func Example() {
	attrs := func(sentence string) [][]crf.Attr {
		var seq [][]crf.Attr
		for _, w := range strings.Fields(sentence) {
			seq = append(seq, []crf.Attr{
				{Name: "w=" + w},
				{Name: "suffix=" + w[len(w)-1:]},
			})
		}
		return seq
	}
	labels := []string{"D", "N", "V"}
	var data []crf.Sequence
	for _, ex := range []struct {
		sentence string
		tags     []int
	}{
		{"the dog barks", []int{0, 1, 2}},
		{"a cat sleeps", []int{0, 1, 2}},
		{"the cat sees a dog", []int{0, 1, 2, 0, 1}},
		{"a dog chases the cat", []int{0, 1, 2, 0, 1}},
	} {
		data = append(data, crf.Sequence{Attrs: attrs(ex.sentence), Labels: ex.tags})
	}
	tmpl, err := crf.ParseTemplate(`
U[-1..1]   # the word and suffix of the previous, current and next position
B          # label transitions
`)
	if err != nil {
		log.Fatal(err)
	}
	model, err := crf.Train(context.Background(), data, crf.TrainOptions{
		Labels:    labels,
		Template:  tmpl,
		L2:        0.1,
		Minimizer: lbfgs.Minimizer{},
	})
	if err != nil {
		log.Fatal(err)
	}

	// A model survives a round trip through its file format.
	var file bytes.Buffer
	if err := model.Save(&file); err != nil {
		log.Fatal(err)
	}
	model, err = crf.Load(&file)
	if err != nil {
		log.Fatal(err)
	}

	// "bird" and "sings" were never seen: the suffix and the neighbours decide.
	sentence := "a bird sings"
	lat := model.Score(attrs(sentence))
	path, _ := lat.Viterbi()
	marg := lat.Marginals()
	for t, w := range strings.Fields(sentence) {
		fmt.Printf("%s/%s (%.2f)\n", w, labels[path[t]], marg[t][path[t]])
	}
	// Output:
	// a/D (0.96)
	// bird/N (0.95)
	// sings/V (0.88)
}
