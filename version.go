package sluice

import (
	"runtime/debug"
	"strings"
)

// Version describes the running build: the module version (a release tag,
// a pseudo-version, or "(devel)" for a build from a working tree), then,
// where the build recorded them, the VCS revision and commit time, with
// "modified" when the tree had uncommitted changes, and the Go version.
// For example "(devel) revision 4957b90a1c2e, 2026-11-26T14:40:02Z,
// modified; go1.26.8".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information)"
	}
	return describeBuild(bi)
}

// describeBuild is Version for bi.
func describeBuild(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	var parts []string
	if rev != "" {
		parts = append(parts, "revision "+rev)
	}
	if when != "" {
		parts = append(parts, when)
	}
	if modified {
		parts = append(parts, "modified")
	}
	if len(parts) > 0 {
		v += " " + strings.Join(parts, ", ")
	}
	if bi.GoVersion != "" {
		v += "; " + bi.GoVersion
	}
	return v
}
