//go:build embedsite

package main

import (
	"embed"
	"io/fs"
)

// site is the built playground, copied here by scripts/build-release
// before it builds with -tags embedsite.
//
//go:embed all:site
var site embed.FS

func init() {
	sub, err := fs.Sub(site, "site")
	if err != nil {
		panic(err) // fs.Sub fails only on an invalid name
	}
	embeddedSite = sub
}
