package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/subplay/subplay/core/httpapi"
)

func init() {
	register("serve", command{"serve the playground page and the HTTP API locally", runServe})
}

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	dir := fs.String("dir", "dist/site", "the built playground (scripts/build-site writes it)")
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
	handler, err := httpapi.Site(*dir)
	if err != nil {
		fmt.Fprintln(stderr, "subplay serve:", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err = httpapi.ListenAndServe(ctx, *addr, handler, func(addr string) {
		// Tests and scripts read this line to learn the port when it was 0.
		fmt.Fprintf(stdout, "subplay serve: the playground is at http://%s/ (API under /v1/)\n", addr)
	})
	if err != nil {
		fmt.Fprintln(stderr, "subplay serve:", err)
		if ctx.Err() == nil {
			return exitUsage
		}
	}
	return exitOK
}
