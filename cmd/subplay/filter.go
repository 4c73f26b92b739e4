package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("filter", command{"check a filter and show which sample messages it delivers", runFilter})
}

func runFilter(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("filter", stderr, []string{
		"Usage: subplay filter --filter EXPR | --config FILE [--messages FILE] [--format text|json]",
		"\nChecks a subscription filter, prints its canonical and CEL forms, and runs it on",
		"the sample messages: DELIVERED, or ACKED (acknowledged by the service unseen).",
		"Exit status: 0 the filter is valid, 1 it is not (or a message has errors), 2 usage or I/O error.",
	}, "text", "json")
	expr := fs.String("filter", "", "the filter expression")
	config := fs.String("config", "", "take the filter from this configuration file (JSON or YAML) instead")
	messages := fs.String("messages", "", "sample messages: a JSON or YAML array of REST PubsubMessages, or - for standard input")
	if !fs.parse(args) {
		return exitUsage
	}
	set := fs.set()
	fail := fs.fail
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected argument %q; the filter goes in --filter", fs.Arg(0)))
	}
	if set["filter"] == set["config"] {
		fs.Usage()
		return exitUsage
	}

	req := &playground.FilterRequest{}
	filterSrc := diag.NewSource("filter", *expr)
	if set["filter"] {
		req.Filter = expr
	} else {
		text, err := readInput(*config, stdin)
		if err != nil {
			return fail(err)
		}
		req.ConfigInput = playground.ConfigInput{Text: &text, File: displayName(*config), Format: formatOf(*config)}
		filterSrc = diag.NewSource(displayName(*config), text)
	}
	var msgSrc *diag.Source
	if *messages != "" {
		if *messages == "-" && *config == "-" {
			return fail(fmt.Errorf("--config and --messages cannot both read standard input"))
		}
		text, err := readInput(*messages, stdin)
		if err != nil {
			return fail(err)
		}
		req.MessagesText, req.MessagesFormat = &text, formatOf(*messages)
		msgSrc = diag.NewSource(displayName(*messages), text)
	}

	resp := &playground.FilterResponse{}
	out, err := call("filter", req, resp)
	if err != nil {
		return fail(err)
	}
	code := exitOK
	if !resp.Valid || messagesHaveErrors(resp) {
		code = exitFound
	}
	if fs.json() {
		writeResponse(stdout, out)
		return code
	}
	writeFilterText(stdout, resp, filterSrc, msgSrc)
	return code
}

func messagesHaveErrors(resp *playground.FilterResponse) bool {
	if diag.HasErrors(resp.MessageDiagnostics) {
		return true
	}
	for _, r := range resp.Results {
		if diag.HasErrors(r.Diagnostics) {
			return true
		}
	}
	return false
}

// writeFilterText writes the verdict for a terminal: the filter's
// diagnostics, its two printed forms, then one line per message.
func writeFilterText(w io.Writer, resp *playground.FilterResponse, filterSrc, msgSrc *diag.Source) {
	fmt.Fprint(w, diag.Render(filterSrc, resp.Diagnostics))
	fmt.Fprint(w, diag.Render(msgSrc, resp.MessageDiagnostics))
	if !resp.Valid {
		n := diag.Count(resp.Diagnostics, diag.Error)
		fmt.Fprintf(w, "the filter is INVALID (%d %s)\n", n, plural(n, "error"))
	} else {
		canonical := resp.Canonical
		if canonical == "" {
			canonical = "(empty: every message is delivered)"
		}
		fmt.Fprintln(w, "canonical: "+diag.Printable(canonical))
		if resp.CEL != "" {
			fmt.Fprintln(w, "cel:       "+diag.Printable(resp.CEL))
		}
	}
	width := len(fmt.Sprint(len(resp.Results) - 1))
	for _, r := range resp.Results {
		// An invalid message has its outcome even when the filter did not
		// run: it needs no filter to know the service refuses it.
		if r.Outcome != "" {
			fmt.Fprintf(w, "%*d  %-9s  %s\n", width, r.Index, strings.ToUpper(r.Outcome), diag.Printable(r.Reason))
		}
		fmt.Fprint(w, diag.Render(msgSrc, r.Diagnostics))
	}
	if resp.Evaluated && len(resp.Results) > 0 {
		fmt.Fprintf(w, "%d %s: %d delivered, %d acked (acknowledged by the service, never delivered)%s\n",
			len(resp.Results), plural(len(resp.Results), "message"), resp.Delivered, resp.Acked, invalidText(resp.Invalid))
	}
}

// invalidText counts, after a tally, the sample messages that got no
// verdict because the service would refuse to publish them.
func invalidText(n int) string {
	if n == 0 {
		return ""
	}
	them := "them"
	if n == 1 {
		them = "it"
	}
	return fmt.Sprintf(", %d invalid (the service would refuse to publish %s: no verdict)", n, them)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return strings.TrimSuffix(word, "s") + "s"
}
