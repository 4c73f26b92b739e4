package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/core/storage"
	"github.com/subplay/subplay/core/subscription"
)

func init() {
	register("names", command{"preview the object names and files of a Cloud Storage subscription", runNames})
}

func runNames(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("names", stderr, []string{
		"Usage: subplay names --config FILE [--time RFC3339] [--uuid STR] [--count N]",
		"                     [--messages FILE | --rate N [--size BYTES] [--duration D]] [--format text|json]",
		"\nPreviews the object names a Cloud Storage subscription writes and, given messages",
		"or a synthetic stream, the files they are batched into.",
		"Exit status: 0 ok, 1 the Cloud Storage settings have errors, 2 usage or I/O error.",
	}, "text", "json")
	config := fs.String("config", "", "the subscription configuration, JSON or YAML (- for standard input)")
	at := fs.String("time", "", "when the first file is created, RFC 3339 (default: now)")
	uuid := fs.String("uuid", "", "the uuid of the first file; later ones derive from it (default: random)")
	count := fs.Int("count", 1, "how many names to preview without messages, one maxDuration apart (an assumption: the earliest roll-over by duration)")
	messages := fs.String("messages", "", "sample messages to batch, JSON or YAML REST PubsubMessages")
	rate := fs.Float64("rate", 0, "simulate a synthetic stream of this many messages per second")
	size := fs.Int64("size", 1000, "with --rate: the size of each message in bytes")
	duration := fs.String("duration", "600s", `with --rate: how long the stream lasts ("600s" or "10m")`)
	if !fs.parse(args) {
		return exitUsage
	}
	fail := fs.fail
	if *count < 1 {
		return fail("--count must be at least 1")
	}
	if *config == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	set := fs.set()
	if *messages != "" && set["rate"] {
		return fail("give --messages or --rate, not both")
	}
	if (set["size"] || set["duration"]) && !set["rate"] {
		return fail("--size and --duration describe a stream: add --rate")
	}
	if *messages == "-" && *config == "-" {
		return fail("only one of --config and --messages can read standard input")
	}

	text, err := readInput(*config, stdin)
	if err != nil {
		return fail(err)
	}
	name := displayName(*config)
	req := &playground.NamesRequest{
		ConfigInput: playground.ConfigInput{Text: &text, File: name, Format: formatOf(*config)},
		Time:        *at, UUID: *uuid, Count: *count,
	}
	var msgText string
	if *messages != "" {
		msgText, err = readInput(*messages, stdin)
		if err != nil {
			return fail(err)
		}
		req.MessagesText, req.MessagesFormat = &msgText, formatOf(*messages)
	}
	if set["rate"] {
		d, err := streamDuration(*duration)
		if err != nil {
			return fail(err)
		}
		req.Stream = &playground.StreamInput{Rate: *rate, Size: *size, Duration: d}
	}

	resp := &playground.NamesResponse{}
	out, err := call("names", req, resp)
	if err != nil {
		return fail(err)
	}
	code := exitOK
	if !resp.Valid || pipelineFailed(resp.Pipeline) {
		code = exitFound
	}
	if fs.json() {
		writeResponse(stdout, out)
		return code
	}
	fmt.Fprint(stdout, diag.Render(diag.NewSource(name, text), resp.Diagnostics))
	if len(resp.MessageDiagnostics) > 0 {
		fmt.Fprint(stdout, diag.Render(diag.NewSource(displayName(*messages), msgText), resp.MessageDiagnostics))
	}
	writePipeline(stdout, resp.Pipeline, diag.NewSource(name, text))
	writeNames(stdout, resp)
	return code
}

// streamDuration accepts the REST form ("600s") and, for convenience on a
// command line, Go's ("10m", "1h30m").
func streamDuration(s string) (string, error) {
	if _, err := subscription.ParseDuration(s); err == nil {
		return s, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return "", fmt.Errorf("--duration %q is not a duration such as \"600s\" or \"10m\"", s)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s", nil
}

func writeNames(w io.Writer, r *playground.NamesResponse) {
	if r.Template == "" {
		return
	}
	fmt.Fprintln(w, "layout:", r.Template)
	fmt.Fprintln(w, "glob:  ", r.Glob)
	if len(r.Folders) > 0 {
		fmt.Fprintln(w, "folders:")
		for _, f := range r.Folders {
			fmt.Fprintf(w, "  %-40s %s (the \"/\" at byte %d of %s)\n", f.Pattern, perText(f.Per), f.Offset, strings.TrimPrefix(f.Field, "/cloudStorageConfig/"))
		}
	}
	if r.Summary == nil {
		fmt.Fprintln(w, "names:")
		for _, n := range r.Names {
			fmt.Fprintln(w, "  "+diag.Printable(n))
		}
		if r.Spacing != "" {
			fmt.Fprintln(w, "note: "+r.Spacing)
		}
		return
	}
	lim := r.Limits
	fmt.Fprintf(w, "files (%s output; maxDuration %s, maxBytes %s, maxMessages %s):\n",
		lim.Output, lim.MaxDuration, limitText(lim.MaxBytes), limitText(lim.MaxMessages))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  #\tname\tmessages\tbytes\tfirst message\tlast message\tclosed by")
	for _, f := range r.Files {
		by := string(f.ClosedBy)
		if f.Oversized {
			by += " (one message larger than maxBytes)"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%d\t%d\t%s\t%s\t%s\n", f.Index, diag.Printable(f.Name), f.Messages, f.Bytes,
			timeText(f.FirstMessage), timeText(f.LastMessage), by)
	}
	tw.Flush()
	s := r.Summary
	var by []string
	for _, l := range []storage.Limit{storage.ByDuration, storage.ByBytes, storage.ByMessages} {
		if n := s.ClosedBy[l]; n > 0 {
			by = append(by, fmt.Sprintf("%s %d", l, n))
		}
	}
	fmt.Fprintf(w, "total: %d files, %d messages, %d bytes", s.Files, s.Messages, s.Bytes)
	if len(by) > 0 {
		fmt.Fprintf(w, "; closed by %s", strings.Join(by, ", "))
	}
	if s.Oversized > 0 {
		fmt.Fprintf(w, "; %d oversized", s.Oversized)
	}
	fmt.Fprintln(w)
	if s.Truncated {
		fmt.Fprintf(w, "(only the first %d files are listed)\n", len(r.Files))
	}
	writeContents(w, r.Contents)
}

func writeContents(w io.Writer, c *playground.FileContents) {
	if c == nil {
		return
	}
	for _, a := range c.Avro {
		fmt.Fprintf(w, "file %d: Avro, %d records of %s, %d payload bytes\n", a.Index, a.Records, a.Schema, a.PayloadBytes)
	}
	for _, t := range c.Text {
		fmt.Fprintf(w, "file %d (%d bytes):\n", t.Index, t.Bytes)
		if t.Text == "" && t.Base64 != "" {
			fmt.Fprintln(w, "  (binary; base64) "+t.Base64)
			continue
		}
		for _, line := range strings.Split(t.Text, "\n") {
			fmt.Fprintln(w, "  | "+diag.Printable(line))
		}
	}
	if c.Truncated {
		fmt.Fprintln(w, "(later files left out)")
	}
}

// timeText writes whole seconds in RFC 3339 and anything finer with
// milliseconds, so a column of times lines up.
func timeText(t time.Time) string {
	if t.Nanosecond() == 0 {
		return t.UTC().Format(time.RFC3339)
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

func perText(per string) string {
	switch per {
	case "fixed":
		return "one folder"
	case "object":
		return "a folder per object"
	}
	return "a new folder every " + per
}

func limitText(n int64) string {
	if n <= 0 {
		return "none"
	}
	return strconv.FormatInt(n, 10)
}
