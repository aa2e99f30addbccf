package crf

// Attr is one observation attribute of a position, such as "tag=p" or
// "words=3-5". Value weighs the attribute's features; the zero Value stands
// for 1, so Attr{Name: "tag=p"} is a binary indicator. To leave an
// attribute out, omit it rather than give it a zero value.
//
// The key of an attribute, which template key filters match, is the part of
// Name before the first "=" ("tag" for "tag=p"), or all of Name if it has no
// "=".
type Attr struct {
	Name  string
	Value float64
}

// value returns the attribute's weight, with zero meaning 1.
func (a Attr) value() float64 {
	if a.Value == 0 {
		return 1
	}
	return a.Value
}

// Sequence is one training example: the attributes of each position and the
// correct label of each position, as an index into TrainOptions.Labels.
// Attrs and Labels have the same length.
type Sequence struct {
	Attrs  [][]Attr
	Labels []int
	// Weight scales the sequence's term in the training objective, as if
	// it were in the data Weight times; 0 means 1.
	Weight float64
	// Cost, if not nil, holds for each position t and label y the cost
	// Cost[t*L+y] of labelling position t with y, where L is the number of
	// labels: zero for the correct label (Train refuses anything else),
	// zero or more for mistakes. Training then maximises the softmax-margin
	// objective (Gimpel and Smith 2010): the costs are added to the scores
	// in the partition function, so that the model learns to keep costly
	// mistakes further from the correct labelling than cheap ones.
	// Decoding never sees them.
	Cost []float64
}
