package label

import (
	"maps"
	"strings"

	"github.com/sluice-project/sluice/crf"
	"github.com/sluice-project/sluice/features"
)

// unreadGroupsOff switches off, in cfg, the optional feature groups
// (those off by default, features.DefaultConfig) that are on but that no
// model among stages reads: no attribute name of the CRFs or column of
// the trees has one of the group's keys. A model file made before a group
// existed does not list it among its groups off, so the group would be
// computed for every block and its attributes thrown away; a model
// trained with the group on reads it, and it stays on.
func unreadGroupsOff(cfg features.Config, stages []Stage) features.Config {
	keys := map[string]bool{} // the keys of the names the models read
	add := func(name string) {
		key, _, _ := strings.Cut(name, "=")
		keys[key] = true
	}
	addCRF := func(m *crf.Model) {
		if m != nil {
			for name := range m.Attrs() {
				add(name)
			}
		}
	}
	for _, st := range stages {
		switch s := st.(type) { // a stage without its model fails in bindStage
		case CRFStage:
			addCRF(s.Model)
		case StackStage:
			addCRF(s.Model)
		case *TreesStage:
			if s != nil {
				for name := range s.dict {
					add(name)
				}
			}
		}
	}
	for g := range features.DefaultConfig().Off {
		if cfg.Off[g] {
			continue
		}
		read := false
		for _, key := range features.GroupKeys(g) {
			read = read || keys[key]
		}
		if !read {
			cfg.Off = maps.Clone(cfg.Off)
			if cfg.Off == nil {
				cfg.Off = map[features.Group]bool{}
			}
			cfg.Off[g] = true
		}
	}
	return cfg
}
