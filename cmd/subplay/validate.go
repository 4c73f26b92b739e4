package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/gcloudcmd"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("validate", command{"check configuration files; exit 1 when one has errors", runValidate})
}

func runValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("validate", stderr, []string{
		"Usage: subplay validate [--format text|json] [--input-format json|yaml|gcloud|terraform] [--old FILE] [-q] FILE|- ...",
		"\nChecks each configuration: JSON or YAML, as gcloud or the REST API prints it, or a",
		"gcloud pubsub subscriptions create or update command (.sh, .txt, or text starting with gcloud),",
		"or Terraform holding a google_pubsub_subscription resource (.tf, or text starting with a block).",
		"With --format json, prints the response of the validate operation, one line per file.",
		"Exit status: 0 valid (warnings allowed), 1 errors found, 2 usage or I/O error.",
	}, "text", "json")
	old := fs.String("old", "", "the current configuration, to check that an update from it is allowed")
	quiet := fs.Bool("q", false, "text output: show only errors and warnings, not info notes")
	inFormat := inputFormatFlag(fs)
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
		oldInput = &playground.ConfigInput{Text: &text, File: *old, Format: configFormatOf(*old, *inFormat)}
	}
	code := exitOK
	for _, file := range files {
		text, err := readInput(file, stdin)
		if err != nil {
			return fs.fail(err)
		}
		name := displayName(file)
		req := &playground.ValidateRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: configFormatOf(file, *inFormat)}, Old: oldInput}
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

// inputFormatFlag adds --input-format, which names the format of the
// configuration files (--format names the output's).
func inputFormatFlag(fs *flags) *string {
	return fs.String("input-format", "", "the configuration's format: json, yaml, gcloud or terraform (default: from the file name, else the content)")
}

// configFormatOf is formatOf for a configuration, which may also be a
// gcloud command kept in a script or a note; given (--input-format) wins.
func configFormatOf(path, given string) string {
	switch {
	case given != "":
		return given
	case strings.HasSuffix(path, ".sh"), strings.HasSuffix(path, ".txt"):
		return string(gcloudcmd.Format)
	case strings.HasSuffix(path, ".tf"):
		return "terraform"
	}
	return formatOf(path)
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
