package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("transform", command{"run the configuration's JavaScript transforms (UDFs) on sample messages", runTransform})
}

func runTransform(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("transform", stderr, []string{
		"Usage: subplay transform --config FILE --messages FILE [--time RFC3339] [--format text|json]",
		"\nRuns the subscription's enabled JavaScript UDFs, in order, on each sample message,",
		"then its filter on what they produce: DELIVERED, DROPPED (a UDF returned null),",
		"FAILED (a UDF threw or returned a wrong shape) or ACKED (the filter does not match).",
		"Exit status: 0 no errors, 1 a UDF or the configuration has errors, 2 usage or I/O error.",
	}, "text", "json")
	config := fs.String("config", "", "the configuration file (JSON, YAML or a gcloud command)")
	messages := fs.String("messages", "", "sample messages: a JSON or YAML array of REST PubsubMessages, or - for standard input")
	at := fs.String("time", "", "what Date.now() returns in a UDF for a message without a publishTime (RFC 3339; default 1970-01-01T00:00:00Z)")
	if !fs.parse(args) {
		return exitUsage
	}
	fail := fs.fail
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected argument %q; the configuration goes in --config", fs.Arg(0)))
	}
	if *config == "" || *messages == "" {
		fs.Usage()
		return exitUsage
	}
	if *messages == "-" && *config == "-" {
		return fail(fmt.Errorf("--config and --messages cannot both read standard input"))
	}
	text, err := readInput(*config, stdin)
	if err != nil {
		return fail(err)
	}
	msgText, err := readInput(*messages, stdin)
	if err != nil {
		return fail(err)
	}
	req := &playground.TransformRequest{
		ConfigInput:   playground.ConfigInput{Text: &text, File: displayName(*config), Format: formatOf(*config)},
		MessagesInput: playground.MessagesInput{MessagesText: &msgText, MessagesFormat: formatOf(*messages)},
		Time:          *at,
	}
	resp := &playground.TransformResponse{}
	out, err := call("transform", req, resp)
	if err != nil {
		return fail(err)
	}
	code := exitOK
	if transformHasErrors(resp) {
		code = exitFound
	}
	if fs.json() {
		writeResponse(stdout, out)
		return code
	}
	writeTransformText(stdout, resp, diag.NewSource(displayName(*config), text), diag.NewSource(displayName(*messages), msgText))
	return code
}

func transformHasErrors(resp *playground.TransformResponse) bool {
	if diag.HasErrors(resp.Diagnostics) || diag.HasErrors(resp.MessageDiagnostics) {
		return true
	}
	for _, r := range resp.Results {
		if diag.HasErrors(r.Diagnostics) || r.Outcome == "failed" {
			return true
		}
	}
	return false
}

// writeTransformText writes the pipeline for a terminal: the
// configuration's findings, the transforms, then for each message its
// verdict and one line per step with what the step changed.
func writeTransformText(w io.Writer, resp *playground.TransformResponse, cfgSrc, msgSrc *diag.Source) {
	fmt.Fprint(w, diag.Render(cfgSrc, resp.Diagnostics))
	fmt.Fprint(w, diag.Render(msgSrc, resp.MessageDiagnostics))
	name := map[int]string{}
	for _, t := range resp.Transforms {
		label := t.Kind
		if t.FunctionName != "" {
			label = t.FunctionName
		}
		name[t.Index] = label
		state := "runs"
		if !t.Runs {
			state = t.Note
		}
		fmt.Fprintf(w, "transform %d  %s: %s\n", t.Index, diag.Printable(label), state)
	}
	if resp.Filter != "" {
		fmt.Fprintln(w, "filter: "+diag.Printable(resp.Filter))
	}
	fmt.Fprintln(w, "order: "+resp.Order)
	width := len(fmt.Sprint(len(resp.Results) - 1))
	for _, r := range resp.Results {
		line := fmt.Sprintf("%*d  %-9s", width, r.Index, strings.ToUpper(r.Outcome))
		switch {
		case r.By != nil:
			line += "  by transform " + fmt.Sprint(*r.By) + " (" + diag.Printable(name[*r.By]) + ")"
		case r.Reason != "":
			line += "  " + diag.Printable(r.Reason)
		}
		if r.Match != nil && r.MatchOriginal != nil && *r.Match != *r.MatchOriginal {
			line += fmt.Sprintf(" (the message as published: %s)", verdict(*r.MatchOriginal))
		}
		fmt.Fprintln(w, line)
		fmt.Fprint(w, diag.Render(msgSrc, r.Diagnostics))
		for _, s := range r.Steps {
			var parts []string
			for _, c := range s.Changes {
				p := c.Field + " " + c.Kind
				if c.After != nil {
					p += " " + diag.Quote(*c.After)
				}
				parts = append(parts, p)
			}
			fmt.Fprintf(w, "%*s  %d %s: %s", width, "", s.Transform, diag.Printable(name[s.Transform]), s.Outcome)
			if len(parts) > 0 {
				fmt.Fprint(w, " ("+diag.Printable(strings.Join(parts, ", "))+")")
			}
			fmt.Fprintln(w)
			fmt.Fprint(w, diag.Render(cfgSrc, s.Diagnostics))
		}
		if r.Final != nil && r.Final.Text != nil {
			fmt.Fprintf(w, "%*s  data: %s\n", width, "", diag.Quote(*r.Final.Text))
		}
	}
	fmt.Fprintf(w, "%d %s: %d delivered, %d dropped, %d failed, %d acked%s\n", len(resp.Results), plural(len(resp.Results), "message"),
		resp.Delivered, resp.Dropped, resp.Failed, resp.Acked, invalidText(resp.Invalid))
}

func verdict(match bool) string {
	if match {
		return "delivered"
	}
	return "acked"
}
