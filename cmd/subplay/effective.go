package main

import (
	"fmt"
	"io"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("effective", command{"print a configuration with every default filled in", runEffective})
}

func runEffective(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("effective", stderr, []string{
		"Usage: subplay effective [--format yaml|json] [--input-format json|yaml|gcloud|terraform] FILE|-",
		"\nPrints what the subscription will really do: every default filled in.",
		"In YAML, values that come from a default say so in a comment; JSON is the",
		"response of the effective operation (settings, origins and diagnostics).",
	}, "yaml", "json")
	inFormat := inputFormatFlag(fs)
	if !fs.parse(args) {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	file := fs.Arg(0)
	text, err := readInput(file, stdin)
	if err != nil {
		return fs.fail(err)
	}
	name := displayName(file)
	req := &playground.EffectiveRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: configFormatOf(file, *inFormat)}, YAML: !fs.json()}
	var resp playground.EffectiveResponse
	out, err := call("effective", req, &resp)
	if err != nil {
		return fs.fail(err)
	}
	code := exitOK
	if !resp.Valid {
		code = exitFound
	}
	if fs.json() {
		writeResponse(stdout, out)
		return code
	}
	if errs := onlyErrors(resp.Diagnostics); len(errs) > 0 {
		fmt.Fprint(stderr, diag.Render(diag.NewSource(name, text), errs))
	}
	if resp.Effective == nil && resp.Valid {
		// Only an update command is valid without effective settings.
		fmt.Fprintf(stderr, "%s: no effective settings: an update changes only the fields it names; the rest is the existing subscription's\n", name)
	}
	io.WriteString(stdout, resp.YAML)
	return code
}

func onlyErrors(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}
