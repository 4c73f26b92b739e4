package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/subplay/subplay/core/httpapi"
)

func init() {
	register("serve", command{"serve the playground page and the HTTP API locally", runServe})
}

// embeddedSite is the built page a release binary carries (site_embed.go,
// -tags embedsite); nil in other builds.
var embeddedSite fs.FS

// defaultSiteDir is where scripts/build-site writes the page in a clone.
const defaultSiteDir = "dist/site"

// apiOnlyNote is what an API-only server answers for the page, and says on
// start.
const apiOnlyNote = `This subplay binary has no playground page, so it serves the HTTP API only
(POST /v1/<operation>, GET /v1/version, GET /v1/openapi.json, GET /healthz).
To serve the page too: in a clone of the repository run scripts/build-site and then
subplay serve --dir dist/site, or build a binary that carries the page with scripts/build-release.`

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	dir := fs.String("dir", "", "serve the page built in this folder (scripts/build-site writes dist/site);\nby default the page this binary carries, else ./dist/site, else the API only")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: subplay serve [--addr 127.0.0.1:8080] [--dir dist/site]")
		fmt.Fprintln(stderr, "\nServes the playground page and, under /v1/ and /healthz, the HTTP API.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitUsage
	}
	what := pageSource(*dir)
	handler := httpapi.APIOnly(apiOnlyNote)
	var err error
	switch what {
	case "":
		fmt.Fprintln(stderr, apiOnlyNote)
	case embeddedName:
		handler, err = httpapi.SiteFS(embeddedSite, "the page built into this binary")
	default:
		handler, err = httpapi.Site(what)
	}
	if err != nil {
		fmt.Fprintln(stderr, "subplay serve:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = httpapi.ListenAndServe(ctx, *addr, handler, func(addr string) {
		// Tests and scripts read this line to learn the port when it was 0.
		if what == "" {
			fmt.Fprintf(stdout, "subplay serve %s: the API is at http://%s/v1/ (no page)\n", version(), addr)
		} else {
			fmt.Fprintf(stdout, "subplay serve %s: the playground is at http://%s/ (API under /v1/; page from %s)\n", version(), addr, what)
		}
	})
	if err != nil {
		fmt.Fprintln(stderr, "subplay serve:", err)
		if ctx.Err() == nil {
			return exitUsage
		}
	}
	return exitOK
}

// pageSource picks what to serve: the folder asked for (which must hold a
// build), else the page this binary carries, else ./dist/site when it is
// built, else nothing (""): the API alone.
func pageSource(dir string) string {
	switch {
	case dir != "":
		return dir
	case embeddedSite != nil:
		return embeddedName
	}
	if _, err := os.Stat(filepath.Join(defaultSiteDir, "index.html")); err == nil {
		return defaultSiteDir
	}
	return ""
}

// embeddedName stands for the embedded page where a folder name would be.
const embeddedName = "this binary"
