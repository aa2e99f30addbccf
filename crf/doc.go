// Package crf is a linear-chain conditional random field: a sequence
// labeller that knows nothing about HTML. Each position of a sequence (for
// sluice, each text block of a page) carries a bag of observation
// attributes; the model gives every position one of a small set of labels,
// looking at the attributes of nearby positions and at the labels next to
// it.
//
// # Model
//
// For a sequence x of n positions and labels y = y_0 … y_{n-1},
//
//	P(y | x) = exp(score(x, y)) / Z(x)
//	score(x, y) = Σ_t Σ_{features f firing at t} v_f · w[f, y_t]
//	            + Σ_{t>0} T[y_{t-1}, y_t] + S[y_0] + E[y_{n-1}]
//
// where v_f is the feature's value, w the feature weights (one per feature
// and label), T the label transition weights and S and E the start and end
// weights. Z(x) sums exp(score) over all label sequences. Training
// ([Train]) maximises the L2-regularised conditional log-likelihood of
// labelled sequences with L-BFGS; decoding ([Lattice.Viterbi]) finds the
// highest-scoring label sequence; [Lattice.Marginals] gives P(y_t = y | x)
// for every position and label, by forward-backward, for use as a
// confidence.
//
// # Attributes
//
// A position's attributes are a []Attr, each a name such as "tag=p",
// "words=3-5" or "lq=hi" with an optional real value (zero stands for 1).
// The key of an attribute is the part of its name before the first "="
// ("tag"), or the whole name. Attributes the model has not seen in
// training are ignored when decoding.
//
// # Templates
//
// A [Template] says which features exist, in the spirit of CRF++ templates.
// Its text form ([ParseTemplate]) has one template per line; "#" starts a
// comment:
//
//	U[0]                    every attribute of the current position
//	U[-1]:tag,lq            attributes with key "tag" or "lq" of the previous position
//	U[-2..2]:tag            shorthand for U[-2]:tag, U[-1]:tag, …, U[2]:tag
//	U[-1]:split & U[0]:tag  conjunction: each split attribute of the previous
//	                        position with each tag attribute of the current one
//	B                       label bigrams: transition, start and end weights
//
// A unigram line with offset o defines, for each attribute a it selects at
// position t+o, the feature "U[o]:a" with one weight per label of position
// t; its value is a's value. A conjunction defines the feature
// "U[o1]:a & U[o2]:b" with value the product of the two values. Offsets lie
// in -MaxOffset..MaxOffset. Where t+o falls outside the sequence the
// template sees one pseudo-attribute, "_B" before the start and "_E" after
// the end, which every key filter admits: so "U[-1]:_B" is the feature
// "this is the first position". A template without "B" labels positions
// independently.
//
// # Feature representation
//
// Features are kept in a dictionary built at training time (attribute name
// → id; (template line, attribute id) → feature id), not hashed. Features
// seen fewer than TrainOptions.MinCount times, and features whose weights
// are all exactly zero after training, are left out of the model. The
// choice was measured (BenchmarkRepresentation, best of three runs on a
// shared 2-core machine) on a synthetic page of 300 positions × 40
// attributes, 5 labels, about 125 features per position, against hashing
// with FNV-1a 64 of the attribute name, mixed with the template line into
// 2^20 buckets of weights:
//
//	                          dictionary    hashing (2^20 buckets)
//	look up 12,000 names      140 µs        120 µs (FNV-1a, no map)
//	sum the weights           210 µs        310 µs
//	model file                1.6 MB        21 MB dense (1.6 MB sparse, but
//	                                        then decoding needs a map again)
//	weights L-BFGS optimises  0.34 million  5.2 million (its 20 history
//	                                        vectors: 54 MB against 840 MB)
//	collisions                none          6% of the 67,000 features share
//	                                        a bucket
//
// Hashing saves the map lookup, but its weights are spread over a 20 MB
// table, one random read per (line, attribute) pair, where the dictionary
// numbers an attribute's features consecutively so their weights sit side
// by side in a 1.3 MB table. Its remaining gain, no dictionary pass before
// training, is a few seconds on a million positions.
//
// In the hot path no strings are built: each attribute name is looked up
// once per position, and the features it fires at neighbouring positions
// follow from its id and the template offsets by arithmetic.
//
// # Training
//
// [Train] minimises −Σ log P(y | x) + λ/2·‖w‖² from zero weights with the
// minimiser it is given (TrainOptions.Minimizer): package crf/lbfgs gives
// gonum's L-BFGS, kept out of this package so that labelling links no
// optimiser. Forward-backward works in probability space with
// per-position scaling, so sequences of any length are numerically stable.
// The objective and gradient are computed in parallel over contiguous,
// fixed shares of the sequences and the partial sums added in a fixed
// order, so a given input and options give bit-identical weights every
// time. TrainOptions.Progress reports each iteration.
//
// # Decoding
//
// [Model.Score] turns a sequence into a [Lattice] (per-position label
// scores); [Lattice.Viterbi] and [Lattice.Marginals] decode it. A Model is
// safe for concurrent use. On the benchmark page above, Score takes about
// 380 µs (it grows with attributes × template lines that see them: here
// 12,000 name lookups and 37,000 weight rows), then Viterbi 13 µs and
// Marginals 41 µs.
//
// # Model files
//
// [Model.Save] and [Model.MarshalBinary] write a versioned, checksummed
// binary format ("SLCRF", version 1): labels, template text, attribute
// names, the feature lists as varints and the weights as float32. [Load]
// and [Unmarshal] read it back in milliseconds, so a model can be embedded
// with go:embed. Corrupt input gives an error; every count is checked
// against the input's length before anything is allocated.
package crf
