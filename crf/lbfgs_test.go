package crf

import (
	"context"

	"github.com/sluice-project/sluice/crf/lbfgs"
)

// trainLBFGS is Train with the L-BFGS minimiser, unless opts names one.
func trainLBFGS(ctx context.Context, data []Sequence, opts TrainOptions) (*Model, error) {
	if opts.Minimizer == nil {
		opts.Minimizer = lbfgs.Minimizer{}
	}
	return Train(ctx, data, opts)
}
