package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/playground"
)

func init() {
	register("schema", command{"show the Avro or BigQuery schemas a subscription writes, and every incompatibility", runSchema})
}

func runSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("schema", stderr, []string{
		"Usage: subplay schema --config FILE [--topic-schema FILE] [--table-schema FILE] [--messages FILE] [--ocf OUT] [--format text|json]",
		"\nShows the Avro schema a Cloud Storage subscription writes its files with (and, with",
		"--messages and --ocf, writes the file it would write), or checks a BigQuery",
		"subscription's table against the topic schema and its options, generates a table",
		"that fits, and previews the row each message becomes.",
		"Exit status: 0 compatible, 1 something is incompatible or invalid, 2 usage or I/O error.",
	}, "text", "json")
	config := fs.String("config", "", "the subscription configuration (JSON or YAML), or - for standard input")
	topicSchema := fs.String("topic-schema", "", "the topic's schema: Avro JSON or a .proto file")
	topicType := fs.String("topic-schema-type", "", "AVRO or PROTOCOL_BUFFER, when the file's content does not say")
	tableSchema := fs.String("table-schema", "", "the BigQuery table's schema, as bq show --schema prints it")
	messages := fs.String("messages", "", "sample messages: a JSON or YAML array of REST PubsubMessages")
	ocfOut := fs.String("ocf", "", "write the sample Avro file of the messages here")
	at := fs.String("time", "", "publish time (RFC 3339) of messages that have none; now when empty")
	if !fs.parse(args) {
		return exitUsage
	}
	fail := fs.fail
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected argument %q; the configuration goes in --config", fs.Arg(0)))
	}
	if *config == "" {
		fs.Usage()
		return exitUsage
	}
	if *ocfOut != "" && *messages == "" {
		return fail(fmt.Errorf("--ocf needs --messages: the file holds the sample messages"))
	}
	stdinUsers := 0
	for _, p := range []string{*config, *topicSchema, *tableSchema, *messages} {
		if p == "-" {
			stdinUsers++
		}
	}
	if stdinUsers > 1 {
		return fail(fmt.Errorf("only one input can be read from standard input"))
	}

	srcs := sources{}
	read := func(path, name string) (*string, error) {
		if path == "" {
			return nil, nil
		}
		text, err := readInput(path, stdin)
		if err != nil {
			return nil, err
		}
		srcs[name] = diag.NewSource(displayName(path), text)
		return &text, nil
	}
	cfgText, err := read(*config, diag.InputConfig)
	if err != nil {
		return fail(err)
	}
	req := &playground.SchemaRequest{
		ConfigInput:     playground.ConfigInput{Text: cfgText, File: displayName(*config), Format: formatOf(*config)},
		TopicSchemaType: *topicType,
		Time:            *at,
	}
	if req.TopicSchema, err = read(*topicSchema, diag.InputTopicSchema); err != nil {
		return fail(err)
	}
	if req.TableSchema, err = read(*tableSchema, diag.InputTableSchema); err != nil {
		return fail(err)
	}
	if req.MessagesText, err = read(*messages, diag.InputMessages); err != nil {
		return fail(err)
	}
	req.MessagesFormat = formatOf(*messages)

	resp := &playground.SchemaResponse{}
	out, err := call("schema", req, resp)
	if err != nil {
		return fail(err)
	}
	code := exitOK
	if diag.HasErrors(resp.Diagnostics) || diag.HasErrors(resp.MessageDiagnostics) ||
		(resp.BigQuery != nil && resp.BigQuery.Checked && !resp.BigQuery.Compatible) || pipelineFailed(resp.Pipeline) {
		code = exitFound
	}
	ocfMissing := *ocfOut != "" && resp.OCF == nil
	if *ocfOut != "" && resp.OCF != nil {
		if err := os.WriteFile(*ocfOut, resp.OCF, 0o644); err != nil {
			return fail(err)
		}
	}
	if fs.json() {
		writeResponse(stdout, out)
	} else {
		writeSchemaText(stdout, resp, srcs, *ocfOut, len(resp.OCF))
	}
	if ocfMissing {
		fmt.Fprintln(stderr, "subplay schema: no Avro file was written: the subscription does not write Avro files, or none of the messages could be encoded")
		if code == exitOK {
			code = exitUsage
		}
	}
	return code
}

// sources are the texts diagnostics point into, by input.
type sources map[string]*diag.Source

// render writes diagnostics, each against the text of its input.
func (s sources) render(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(diag.Render(s[d.Input], []diag.Diagnostic{d}))
	}
	return b.String()
}

func writeSchemaText(w io.Writer, resp *playground.SchemaResponse, srcs sources, ocfOut string, ocfSize int) {
	fmt.Fprint(w, srcs.render(resp.Diagnostics))
	fmt.Fprint(w, srcs.render(resp.MessageDiagnostics))
	writePipeline(w, resp.Pipeline, srcs[diag.InputConfig])
	if resp.Avro != nil {
		fmt.Fprintln(w, "Avro schema of the files:")
		fmt.Fprintln(w, indentJSON(resp.Avro))
		if ocfOut != "" {
			fmt.Fprintf(w, "sample file: %d bytes written to %s\n", ocfSize, ocfOut)
		}
	}
	if bq := resp.BigQuery; bq != nil {
		switch {
		case !bq.Checked:
			fmt.Fprintln(w, "table: not checked (give --table-schema)")
		case bq.Compatible:
			fmt.Fprintln(w, "table: compatible")
		default:
			n := diag.Count(resp.Diagnostics, diag.Error) + diag.Count(resp.MessageDiagnostics, diag.Error)
			fmt.Fprintf(w, "table: INCOMPATIBLE (%d %s)\n", n, plural(n, "error"))
		}
		if len(bq.TableSchema) > 0 {
			b, _ := json.Marshal(bq.TableSchema)
			fmt.Fprintln(w, "a table that fits (bq mk --schema FILE):")
			fmt.Fprintln(w, indentJSON(b))
		}
		for _, r := range bq.Rows {
			if r.Written {
				fmt.Fprintf(w, "message %d: written %s\n", r.Message, diag.Printable(string(r.Values)))
			} else {
				fmt.Fprintf(w, "message %d: NOT WRITTEN, stays in the backlog: %s\n", r.Message, diag.Printable(r.Problem))
			}
			if len(r.Dropped) > 0 {
				fmt.Fprintf(w, "  dropped: %s\n", diag.Printable(strings.Join(r.Dropped, ", ")))
			}
			for _, n := range r.Notes {
				fmt.Fprintf(w, "  note: %s\n", diag.Printable(n))
			}
		}
	}
}

func indentJSON(raw []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}
