package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/sluice-project/sluice"
	"github.com/sluice-project/sluice/store"
)

// modelCleaner returns the cleaner of the stored model a clean request
// names (POST /v1/train stores them), in the request's style and with its
// threshold; built once per model id, style and threshold from the
// model's file, read from the store only when the cleaner is built.
func (s *Server) modelCleaner(ctx context.Context, req *cleanRequest) (*sluice.Cleaner, *APIError) {
	switch {
	case s.cfg.Store == nil:
		return nil, newError(http.StatusBadRequest, "bad_options", "this server keeps no models (sluice serve --db): use filter, style and threshold")
	case req.Filter != "" || req.FilterSet != "":
		return nil, newError(http.StatusBadRequest, "bad_options", "model decides the filter: give model (with style and threshold), filter or filter_set, only one of them")
	}
	info, err := s.cfg.Store.ModelInfo(ctx, req.Model)
	if errors.Is(err, store.ErrNotFound) {
		var names []string
		if models, err := s.cfg.Store.Models(ctx); err == nil {
			for _, m := range models {
				names = append(names, m.Name)
			}
		}
		return nil, newError(http.StatusBadRequest, "unknown_model", fmt.Sprintf("there is no model %q (GET /v1/models lists them)", req.Model), WithValid(names))
	}
	if err != nil {
		return nil, storeError(err)
	}
	build := func(style string, threshold float64) func() (*sluice.Cleaner, error) {
		return func() (*sluice.Cleaner, error) {
			m, err := s.cfg.Store.Model(context.WithoutCancel(ctx), req.Model)
			switch {
			case err != nil:
				return nil, err
			case m.ID != info.ID:
				return nil, fmt.Errorf("model %q was replaced while it was being loaded: retry", req.Model)
			}
			return sluice.New(sluice.Options{Model: m.Data, Style: style, Threshold: threshold})
		}
	}
	base, err := s.cleaners.getWith(cleanerKey{model: info.ID}, build("", 0))
	if err != nil {
		return nil, newError(http.StatusInternalServerError, "model", fmt.Sprintf("loading model %q: %v", req.Model, err))
	}
	if styles := base.Styles(); req.Style != "" && !slices.Contains(styles, req.Style) {
		return nil, newError(http.StatusBadRequest, "unknown_style", fmt.Sprintf("model %q knows no style %q", req.Model, req.Style), WithValid(styles))
	}
	k := cleanerKey{model: info.ID, style: req.Style, threshold: req.Threshold}
	if k == (cleanerKey{model: info.ID}) {
		return base, nil
	}
	cl, err := s.cleaners.getWith(k, build(k.style, k.threshold))
	if err != nil {
		return nil, newError(http.StatusBadRequest, "bad_options", fmt.Sprintf("model %q: %v", req.Model, err))
	}
	return cl, nil
}
