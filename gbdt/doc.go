// Package gbdt is binary classification by gradient-boosted regression
// trees with the logistic loss (Friedman, "Greedy function approximation: a
// gradient boosting machine", 2001), with split finding on histograms of
// binned feature values as in LightGBM and XGBoost's "hist" method.
//
// # Model
//
// A [Model] gives a row x the score
//
//	F(x) = F₀ + Σ_t f_t(x),   P(y=1 | x) = σ(F(x)) = 1/(1+e^−F(x))
//
// where F₀ is the log-odds of the weighted mean training target and each
// f_t is a regression tree: a split sends a row left if its value of the
// split's feature is at most the split's threshold, right if it is above,
// and, if the value is missing (NaN), the way learnt for missing values
// at that split.
//
// # Training
//
// [Train] minimises the weighted log loss
//
//	Σ_i w_i (log(1+e^F(x_i)) − y_i F(x_i))
//
// one tree at a time. Each tree is grown on the gradients g_i = w_i(p_i−y_i)
// and hessians h_i = w_i p_i(1−p_i) of the loss at the current scores: a
// node with gradient sum G and hessian sum H is split where the gain
//
//	G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ)
//
// is largest and positive, each child keeping a hessian sum of at least
// Options.MinLeaf, down to Options.Depth; a leaf's value is the Newton step
// −G/(H+λ) shrunk by Options.LearningRate. λ is Options.L2.
//
// Before the first tree each feature's values are cut into at most
// Options.Bins bins at quantiles of the training values (every distinct
// value gets its own bin when there are few), plus a bin for missing
// values, and every row is reduced to its bin numbers. A node then sums
// the gradient pairs of its rows per bin of each feature (a histogram) and
// tries only the bin edges as thresholds, with the missing values sent
// either way; of two children only the smaller is summed, the other's
// histograms being the parent's less the smaller's. Histograms are built
// on Options.Workers goroutines, each summing whole features, so the model
// is the same whatever the number of workers.
//
// With Options.Subsample below 1, each tree sees a fraction of the rows
// chosen without replacement from Options.Seed (stochastic gradient
// boosting). Rows of weight 0 are left out of training entirely, bin
// edges included.
//
// # Files
//
// [Model.MarshalBinary] writes a compact little-endian format with a magic
// string, a version and a checksum; [Unmarshal] reads it back, checking
// every field.
package gbdt
