package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

// writePipeline writes, before a names or schema preview, what the
// subscription's transforms and filter did to the sample messages: the
// preview holds only those that came through, as transformed.
func writePipeline(w io.Writer, p *playground.Pipeline, cfgSrc *diag.Source) {
	if p == nil {
		return
	}
	fmt.Fprint(w, diag.Render(cfgSrc, p.Diagnostics))
	var ran []string
	if p.Transforms > 0 {
		ran = append(ran, fmt.Sprintf("%d %s", p.Transforms, plural(p.Transforms, "transform")))
	}
	if p.Filter != "" {
		ran = append(ran, "the filter "+diag.Printable(p.Filter))
	}
	if len(ran) == 0 {
		// Nothing runs: the pipeline is there for invalid sample messages.
		fmt.Fprintln(w, "before the preview: sample messages with errors are left out (the service would refuse to publish them)")
	} else {
		fmt.Fprintf(w, "before the preview: %s (%s)\n", strings.Join(ran, ", then "), p.Order)
	}
	width := len(fmt.Sprint(len(p.Messages) - 1))
	for _, m := range p.Messages {
		line := fmt.Sprintf("  %*d  %-9s", width, m.Index, strings.ToUpper(m.Outcome))
		switch {
		case m.By != nil:
			line += fmt.Sprintf("  by transform %d", *m.By)
		case m.Outcome == "acked":
			line += "  the filter does not match the transformed message: not written"
		case m.Outcome == "invalid":
			line += "  the message has errors (above): the service would refuse to publish it, so it is not written"
		case m.Changed:
			line += "  written as transformed"
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		fmt.Fprint(w, diag.Render(cfgSrc, m.Diagnostics))
	}
	fmt.Fprintf(w, "written: %d of %d messages\n", len(p.Written), len(p.Messages))
}

// pipelineFailed says whether a transform failed a sample message or a
// UDF's code has errors: the preview then misses messages the user meant
// to see.
func pipelineFailed(p *playground.Pipeline) bool {
	return p != nil && (p.Failed > 0 || diag.HasErrors(p.Diagnostics))
}
