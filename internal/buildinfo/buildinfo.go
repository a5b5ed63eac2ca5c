// Package buildinfo says which build of ploy is running, from what the Go
// toolchain recorded in the binary: a release's tag, or a clone's commit
// and its time. The command's --version and the bindings' version call
// say the same.
package buildinfo

import (
	"regexp"
	"runtime/debug"
)

// Version says which build of ploy is running (Of).
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Of(&debug.BuildInfo{})
	}
	return Of(info)
}

// pseudoVersion matches the version the Go toolchain makes up for a
// commit without a tag, in its three forms: no tag before it
// (v0.0.0-20261202094439-f1032331cbdf), after a release
// (v1.4.1-0.20261202094439-f1032331cbdf) and after a pre-release
// (v1.4.0-rc.1.0.20261202094439-f1032331cbdf), +dirty when built from a
// checkout with changes. It names a revision, not a release.
var pseudoVersion = regexp.MustCompile(`[-.](?:0\.)?[0-9]{14}-[0-9a-f]{12}(?:\+dirty)?$`)

// Of is what ploy --version (and the C library's ploy_version) says of a
// build:
//   - a release (go install github.com/ploy-ai/ploy/cmd/ploy@v1.4.0): its
//     tag, v1.4.0;
//   - a build in a clone (go build, go install ./cmd/ploy), where the
//     toolchain records the commit: "(devel) revision f1032331cbdf,
//     2026-12-02T09:44:39Z", and ", with local changes" when the checkout
//     had some;
//   - a module-path install of an untagged commit (...@latest, @main):
//     the toolchain's pseudo-version, which holds the commit's time and
//     revision;
//   - otherwise (go run, or -buildvcs=false): "(devel)", saying that no
//     revision was recorded.
func Of(info *debug.BuildInfo) string {
	v := info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	release := v != "" && v != "(devel)" && !pseudoVersion.MatchString(v)
	switch rev := settings["vcs.revision"]; {
	case release:
		return v
	case len(rev) >= 12:
		out := "(devel) revision " + rev[:12]
		if t := settings["vcs.time"]; t != "" {
			out += ", " + t
		}
		if settings["vcs.modified"] == "true" {
			out += ", with local changes"
		}
		return out
	case v != "" && v != "(devel)":
		return v
	}
	return "(devel), no revision recorded (go run and -buildvcs=false record none; go build or go install in a clone do)"
}
