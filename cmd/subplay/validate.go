package main

import (
	"encoding/json"
	"flag"
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
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text or json")
	old := fs.String("old", "", "the current configuration, to check that an update from it is allowed")
	quiet := fs.Bool("q", false, "show only errors and warnings, not info notes")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: subplay validate [--format text|json] [--old FILE] [-q] FILE|- ...")
		fmt.Fprintln(stderr, "\nChecks each configuration (JSON or YAML, as gcloud or the REST API prints it).")
		fmt.Fprintln(stderr, "Exit status: 0 valid (warnings allowed), 1 errors found, 2 usage or I/O error.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if err := formatFlag(*format, "text", "json"); err != nil {
		fmt.Fprintln(stderr, "subplay validate:", err)
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
			fmt.Fprintln(stderr, "subplay validate:", err)
			return exitUsage
		}
		oldInput = &playground.ConfigInput{Text: &text, File: *old, Format: formatOf(*old)}
	}
	type result struct {
		File string `json:"file"`
		*playground.ValidateResponse
	}
	var results []result
	code := exitOK
	for _, file := range files {
		text, err := readInput(file, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "subplay validate:", err)
			return exitUsage
		}
		name := displayName(file)
		req := &playground.ValidateRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: formatOf(file)}, Old: oldInput}
		resp, err := playground.Validate(req)
		if err != nil {
			fmt.Fprintln(stderr, "subplay validate:", err)
			return exitUsage
		}
		if !resp.Valid {
			code = exitFound
		}
		if *quiet {
			resp.Diagnostics = dropInfo(resp.Diagnostics)
		}
		if *format == "json" {
			results = append(results, result{name, resp})
			continue
		}
		fmt.Fprint(stdout, diag.Render(diag.NewSource(name, text), resp.Diagnostics))
		fmt.Fprintln(stdout, summary(name, resp))
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if len(results) == 1 {
			enc.Encode(results[0].ValidateResponse)
		} else {
			enc.Encode(results)
		}
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

func summary(name string, r *playground.ValidateResponse) string {
	verdict := "valid"
	if !r.Valid {
		verdict = "INVALID"
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{r.Counts.Errors, "error"}, {r.Counts.Warnings, "warning"}, {r.Counts.Infos, "note"}} {
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
