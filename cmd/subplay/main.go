// Command subplay checks and previews Pub/Sub subscription configurations:
// validate them in CI, show their effective settings, test filters, preview
// Cloud Storage object names and schemas, and serve the playground locally.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// Exit codes shared by every command.
const (
	exitOK    = 0 // valid (warnings allowed)
	exitFound = 1 // the input has errors
	exitUsage = 2 // bad usage or an I/O failure
)

// command is one subcommand. Each lives in its own file and registers
// itself in init, so adding one touches nothing else.
type command struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("subplay: command registered twice: " + name)
	}
	commands[name] = c
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "subplay", version())
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "subplay: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "subplay checks and previews Google Cloud Pub/Sub subscription configurations.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: subplay <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "version", "print the version")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'subplay <command> -h' for the flags of a command.")
}

// readInput reads a file, or standard input for "-".
func readInput(path string, stdin io.Reader) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(io.LimitReader(stdin, maxInputRead))
	} else {
		var f *os.File
		f, err = os.Open(path)
		if err == nil {
			defer f.Close()
			b, err = io.ReadAll(io.LimitReader(f, maxInputRead))
		}
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", displayName(path), err)
	}
	return string(b), nil
}

// maxInputRead reads one byte past the decoder's 1 MiB limit so that the
// decoder, not the reader, reports an oversized input, with its size.
const maxInputRead = 1<<20 + 1

func displayName(path string) string {
	if path == "-" {
		return "<stdin>"
	}
	return path
}

// formatFlag checks a --format value against the allowed ones.
func formatFlag(v string, allowed ...string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return fmt.Errorf("--format must be one of %s, not %q", strings.Join(allowed, ", "), v)
}
