package main

import (
	"runtime/debug"

	"github.com/subplay/subplay/core/playground"
)

// init gives a binary built without -ldflags (go install, go run) a version
// from what the Go toolchain recorded, and writes it where the core keeps
// it: `subplay version`, the server's /v1/version and the page's module
// then say one thing. Release and script builds stamp
// core/playground.Version with scripts/version instead.
func init() {
	if playground.Version != "dev" {
		return
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		playground.Version = fromBuildInfo(info)
	}
}

// fromBuildInfo is the module version of a `go install ...@vX`, else the
// commit in the form `git describe --always --dirty` prints it (what
// scripts/version says in a clone without tags), else "dev".
func fromBuildInfo(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev == "" {
		return "dev"
	}
	return rev + dirty
}

func version() string { return playground.Version }
