package main

import (
	"fmt"
	"io"
	"os"
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
		"Usage: subplay validate [--format text|json|sarif|github] [--input-format json|yaml|gcloud|terraform] [--resource LABEL] [--old FILE] [--pass-over] [-q] PATH|- ...",
		"\nChecks each configuration: JSON or YAML, as gcloud or the REST API prints it, or a",
		"gcloud pubsub subscriptions create or update command (.sh, .txt, or text starting with gcloud),",
		"or Terraform holding google_pubsub_subscription resources or calls of Google's pubsub module",
		"(.tf, terragrunt.hcl, or text starting with a block). A directory is walked: every subscription of",
		"its .tf, terragrunt.hcl, .json, .yaml, .yml and .sh files is checked (.git, .terraform, node_modules",
		"and what .gitignore ignores are left out; files holding no subscription are passed over).",
		"With --format json, prints the response of the validate operation; with several paths or a",
		"directory, one line per subscription (NDJSON). --format sarif writes SARIF 2.1.0 for code",
		"scanning; --format github writes GitHub Actions workflow commands (annotations).",
		"Exit status: 0 valid (warnings allowed), 1 errors found, 2 usage or I/O error.",
	}, "text", "json", "sarif", "github")
	old := fs.String("old", "", "the current configuration, to check that an update from it is allowed")
	quiet := fs.Bool("q", false, "text output: show only errors and warnings, not info notes")
	inFormat := inputFormatFlag(fs)
	resource := resourceFlag(fs)
	passOver := fs.Bool("pass-over", false, "pass over files named on the command line that hold no subscription, as a directory's are (for hooks that pass every changed file)")
	if !fs.parse(args) {
		return exitUsage
	}
	paths := fs.Args()
	if len(paths) == 0 {
		fs.Usage()
		return exitUsage
	}
	var oldInput *playground.ConfigInput
	if *old != "" {
		text, err := readInput(*old, stdin)
		if err != nil {
			return fs.fail(err)
		}
		oldInput = &playground.ConfigInput{Text: &text, File: *old, Format: configFormatOf(*old, *inFormat), TerraformResource: *resource}
	}
	// One file named alone is read as it always was: its response is the
	// contract's, byte for byte. Anything more is a repository: every
	// subscription of every file, each named by its source.
	if len(paths) == 1 && !isDir(paths[0]) && !*passOver {
		return validateOne(fs, paths[0], stdin, stdout, oldInput, *inFormat, *resource, *quiet)
	}
	return validateRepo(fs, paths, stdin, stdout, stderr, oldInput, *inFormat, *resource, *quiet, !*passOver)
}

func isDir(path string) bool {
	if path == "-" {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// validateOne checks one file as subplay always has: the response of the
// validate operation for its text.
func validateOne(fs *flags, file string, stdin io.Reader, stdout io.Writer, oldInput *playground.ConfigInput, inFormat, resource string, quiet bool) int {
	text, err := readInput(file, stdin)
	if err != nil {
		return fs.fail(err)
	}
	name := displayName(file)
	req := &playground.ValidateRequest{ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: configFormatOf(file, inFormat), TerraformResource: resource}, Old: oldInput}
	var resp playground.ValidateResponse
	out, err := call("validate", req, &resp)
	if err != nil {
		return fs.fail(err)
	}
	code := exitOK
	if !resp.Valid {
		code = exitFound
	}
	rep := newReport(*fs.format, quiet)
	switch *fs.format {
	case "json":
		writeResponse(stdout, out)
		return code
	case "text":
		if len(resp.Subscriptions) == 0 {
			ds := resp.Diagnostics
			if quiet {
				ds = dropInfo(ds)
			}
			fmt.Fprint(stdout, diag.Render(diag.NewSource(name, text), ds))
			fmt.Fprintln(stdout, summary(name, &resp, quiet))
			return code
		}
	}
	rep.file(name, text, &resp, out, false)
	rep.finish(stdout, false)
	return code
}

// validateRepo checks every subscription of every path: files named,
// and the files of directories walked.
func validateRepo(fs *flags, paths []string, stdin io.Reader, stdout, stderr io.Writer, oldInput *playground.ConfigInput, inFormat, resource string, quiet, strict bool) int {
	rep := newReport(*fs.format, quiet)
	for _, p := range paths {
		if !isDir(p) {
			text, err := readInput(p, stdin)
			if err != nil {
				return fs.fail(err)
			}
			if !rep.check(fs, p, text, inFormat, resource, oldInput, strict) {
				return exitUsage
			}
			continue
		}
		w := &walker{}
		w.walk(p)
		for _, f := range w.files {
			text, why := readWalked(f.path)
			if why != "" {
				rep.skips = append(rep.skips, skip{f.path, why})
				continue
			}
			if !rep.check(fs, f.path, text, inFormat, resource, oldInput, false) {
				return exitUsage
			}
		}
		rep.skips = append(rep.skips, w.skips...)
		if w.stopped != "" {
			rep.skips = append(rep.skips, skip{p, w.stopped})
		}
	}
	for _, s := range rep.skips {
		fmt.Fprintf(stderr, "subplay validate: skipped %s: %s\n", displayName(s.path), s.why)
	}
	rep.finish(stdout, true)
	if rep.errors > 0 {
		return exitFound
	}
	return exitOK
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

// resourceFlag adds --resource, which picks the google_pubsub_subscription
// resource of a Terraform file by its label (the first one otherwise).
func resourceFlag(fs *flags) *string {
	return fs.String("resource", "", "in Terraform text with several google_pubsub_subscription resources, the label of the one to read (default: the first)")
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
