// Command subplay checks and previews Pub/Sub subscription configurations:
// validate them in CI, show their effective settings, test filters, preview
// Cloud Storage object names and schemas, and serve the playground locally.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/subplay/subplay/core/playground"
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

// flags is the flag set of one command, with what every command shares:
// errors and usage go to stderr, --format is checked against the formats
// the command knows, and a failure is reported as "subplay CMD: ...".
type flags struct {
	*flag.FlagSet
	name    string
	stderr  io.Writer
	format  *string
	formats []string
}

// newFlags makes the flags of command name. usage is the synopsis and the
// lines that explain it; formats are the --format values, the first being
// the default (none: the command has no --format).
func newFlags(name string, stderr io.Writer, usage []string, formats ...string) *flags {
	f := &flags{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), name: name, stderr: stderr, formats: formats}
	f.SetOutput(stderr)
	if len(formats) > 0 {
		f.format = f.String("format", formats[0], "output format: "+strings.Join(formats, " or "))
	}
	f.Usage = func() {
		for _, line := range usage {
			fmt.Fprintln(stderr, line)
		}
		f.PrintDefaults()
	}
	return f
}

// parse parses args and checks --format; false means the command must
// exit with exitUsage (the reason is printed).
func (f *flags) parse(args []string) bool {
	if err := f.Parse(args); err != nil {
		return false
	}
	if f.format != nil && !slices.Contains(f.formats, *f.format) {
		f.fail(fmt.Errorf("--format must be one of %s, not %q", strings.Join(f.formats, ", "), *f.format))
		return false
	}
	return true
}

// json reports whether the output is the contract's JSON.
func (f *flags) json() bool { return f.format != nil && *f.format == "json" }

// set reports which flags were given on the command line.
func (f *flags) set() map[string]bool {
	set := map[string]bool{}
	f.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	return set
}

// fail reports an error of usage or I/O and returns exitUsage.
func (f *flags) fail(err any) int {
	fmt.Fprintf(f.stderr, "subplay %s: %v\n", f.name, err)
	return exitUsage
}

// call runs operation op of the contract exactly as the page and the HTTP
// API do: req is encoded to JSON, playground.Call answers with JSON, and
// those bytes are what --format json prints. resp receives the decoded
// response, for text output.
func call(op string, req, resp any) ([]byte, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	out, ok := playground.Call(op, body)
	if !ok {
		var e playground.ErrorResponse
		if err := json.Unmarshal(out, &e); err != nil || e.Error == nil {
			return nil, fmt.Errorf("operation %s failed: %s", op, out)
		}
		return nil, fmt.Errorf("%s", e.Error.Message)
	}
	if err := json.Unmarshal(out, resp); err != nil {
		return nil, fmt.Errorf("decoding the response of %s: %w", op, err)
	}
	return out, nil
}

// writeResponse prints one response of the contract, byte for byte, as
// one line: several make NDJSON.
func writeResponse(w io.Writer, out []byte) {
	w.Write(out)
	io.WriteString(w, "\n")
}
