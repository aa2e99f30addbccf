package sluice

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeBuild(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "4957b90a1c2e4f0a9b8c7d6e5f4a3b2c1d0e9f8a"},
		{Key: "vcs.time", Value: "2026-11-26T14:40:02Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got, want := describeBuild(bi), "v0.3.0 revision 4957b90a1c2e, 2026-11-26T14:40:02Z, modified; go1.26.8"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	bi = &debug.BuildInfo{GoVersion: "go1.26.8", Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "false"}}}
	if got, want := describeBuild(bi), "(devel); go1.26.8"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if v := Version(); !strings.Contains(v, "go1.") {
		t.Errorf("Version() = %q: no Go version", v)
	}
}
