package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("convert", command{"write a configuration as JSON, YAML, a gcloud command or Terraform", runConvert})
}

func runConvert(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("convert", stderr, []string{
		"Usage: subplay convert [--to json|yaml|gcloud|terraform] [--effective] [--old FILE] [--import] [--resource LABEL]",
		"                       [--input-format json|yaml|gcloud|terraform] [--format text|json] FILE|-",
		"\nWrites the configuration in another form: the REST resource as JSON, describe-style YAML,",
		"a gcloud pubsub subscriptions create command (update, with --old: only the flags that change),",
		"or a google_pubsub_subscription resource (with an import block, given --old or --import).",
		"What the form cannot express is said on stderr, with the field. --effective fills every default.",
		"Exit status: 0 written, 1 the configuration has errors (still written when it could be read),",
		"2 usage or I/O error.",
	}, "text", "json")
	to := fs.String("to", "", "the form to write: "+strings.Join(playground.ConvertForms, ", ")+" (default: every form, each after a \"== FORM\" line)")
	effective := fs.Bool("effective", false, "write the effective configuration: every default filled in")
	old := fs.String("old", "", "the existing configuration: gcloud writes an update command, terraform an import block")
	imp := fs.Bool("import", false, "terraform: add an import block for the existing subscription")
	resource := fs.String("resource", "", "the Terraform resource label to read (in a file with several) and to write")
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
	req := &playground.ConvertRequest{
		ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: configFormatOf(file, *inFormat), TerraformResource: *resource},
		To:          *to, Effective: *effective, Import: *imp, Resource: *resource,
	}
	if *old != "" {
		otext, err := readInput(*old, stdin)
		if err != nil {
			return fs.fail(err)
		}
		req.Old = &playground.ConfigInput{Text: &otext, File: *old, Format: configFormatOf(*old, *inFormat), TerraformResource: *resource}
	}
	var resp playground.ConvertResponse
	out, err := call("convert", req, &resp)
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
	for _, o := range resp.Outputs {
		if len(resp.Outputs) > 1 {
			fmt.Fprintf(stdout, "== %s\n", o.Format)
		}
		io.WriteString(stdout, o.Text)
		for _, n := range o.Notes {
			at := n.Path
			if at == "" {
				at = "(the whole configuration)"
			}
			fmt.Fprintf(stderr, "%s: %s: %s: %s [%s]\n", name, n.Severity, at, n.Message, n.Code)
		}
		paths := make([]string, 0, len(o.Files))
		for p := range o.Files {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, p := range paths {
			fmt.Fprintf(stderr, "%s: the command reads %s; write it beside the command:\n%s", name, p, o.Files[p])
		}
	}
	return code
}
