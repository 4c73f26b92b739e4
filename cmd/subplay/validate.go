package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("validate", command{"check configuration files; exit 1 when one has errors", runValidate})
}

func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("validate", stderr, []string{
		"Usage: subplay validate [--format text|json] [--old FILE] [-q] FILE|- ...",
		"\nChecks each configuration (JSON or YAML, as gcloud or the REST API prints it).",
		"With --format json, prints the response of the validate operation, one line per file.",
		"Exit status: 0 valid (warnings allowed), 1 errors found, 2 usage or I/O error.",
	}, "text", "json")
	old := fs.String("old", "", "the current configuration, to check that an update from it is allowed")
	quiet := fs.Bool("q", false, "text output: show only errors and warnings, not info notes")
	if !fs.parse(args) {
		return exitUsage
	}
	files := fs.Args()
	if len(files) == 0 {
		fs.Usage()
		return exitUsage
	}
	var oldInput *playground.ConfigInput
	if *old != "" {
		text, err := readInput(*old, stdin)
		if err != nil {
			return fs.fail(err)
		}
		oldInput = &playground.ConfigInput{Text: &text, File: *old, Format: formatOf(*old)}
	}
	code := exitOK
	for _, file := range files {
		text, err := readInput(file, stdin)
		if err != nil {
			return fs.fail(err)
		}
		name := displayName(file)
		req := &playground.ValidateRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: formatOf(file)}, Old: oldInput}
		var resp playground.ValidateResponse
		out, err := call("validate", req, &resp)
		if err != nil {
			return fs.fail(err)
		}
		if !resp.Valid {
			code = exitFound
		}
		if fs.json() {
			writeResponse(stdout, out)
			continue
		}
		ds := resp.Diagnostics
		if *quiet {
			ds = dropInfo(ds)
		}
		fmt.Fprint(stdout, diag.Render(diag.NewSource(name, text), ds))
		fmt.Fprintln(stdout, summary(name, &resp, *quiet))
	}
	return code
}

func dropInfo(ds []diag.Diagnostic) []diag.Diagnostic {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Severity != diag.Info {
			out = append(out, d)
		}
	}
	return out
}

// summary is the verdict line of one file; quiet leaves out the count of
// the notes it did not print.
func summary(name string, r *playground.ValidateResponse, quiet bool) string {
	verdict := "valid"
	if !r.Valid {
		verdict = "INVALID"
	}
	infos := r.Counts.Infos
	if quiet {
		infos = 0
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{r.Counts.Errors, "error"}, {r.Counts.Warnings, "warning"}, {infos, "note"}} {
		if c.n > 0 {
			s := fmt.Sprintf("%d %s", c.n, c.what)
			if c.n > 1 {
				s += "s"
			}
			parts = append(parts, s)
		}
	}
	out := name + ": " + verdict
	if r.DeliveryType != "" {
		out += " " + string(r.DeliveryType) + " subscription"
	}
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	return out
}

// formatOf picks the format from a file extension; "" lets the decoder
// detect it from the content.
func formatOf(path string) string {
	switch {
	case strings.HasSuffix(path, ".json"):
		return "json"
	case strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"):
		return "yaml"
	}
	return ""
}
