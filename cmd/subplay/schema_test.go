package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSchemaCommand(t *testing.T) {
	ocf := filepath.Join(t.TempDir(), "sample.avro")
	tests := []struct {
		name string
		args []string
		code int
		want []string // substrings of stdout+stderr
	}{
		{"storage with topic schema and file", []string{"--config", "testdata/schema-storage.yaml", "--topic-schema", "testdata/schema-order.avsc",
			"--messages", "testdata/schema-messages.json", "--ocf", ocf, "--time", "2024-05-01T12:00:00Z"},
			exitOK, []string{`"name": "publish_time"`, "bytes written to " + ocf}},
		{"bigquery incompatible", []string{"--config", "testdata/schema-bigquery.yaml", "--topic-schema", "testdata/schema-order.avsc",
			"--table-schema", "testdata/schema-table.json"},
			exitFound, []string{"table: INCOMPATIBLE", "bq-type-mismatch", "schema-table.json:3:30", "bq-column-missing"}},
		{"without a config", nil, exitUsage, []string{"Usage: subplay schema"}},
		{"bad format", []string{"--config", "x", "--format", "xml"}, exitUsage, []string{"--format must be one of text, json"}},
		{"ocf without messages", []string{"--config", "testdata/schema-storage.yaml", "--ocf", ocf}, exitUsage, []string{"--ocf needs --messages"}},
		{"missing file", []string{"--config", "testdata/schema-storage.yaml", "--topic-schema", "testdata/nope.avsc"}, exitUsage, []string{"reading testdata/nope.avsc"}},
		{"two inputs on stdin", []string{"--config", "-", "--messages", "-"}, exitUsage, []string{"only one input"}},
		{"ocf for a BigQuery subscription", []string{"--config", "testdata/schema-bigquery.yaml", "--messages", "testdata/schema-messages.json", "--ocf", ocf},
			exitUsage, []string{"no Avro file was written"}},
		{"stray argument", []string{"--config", "testdata/schema-storage.yaml", "extra"}, exitUsage, []string{`unexpected argument "extra"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", append([]string{"schema"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q:\n%s%s", w, stdout, stderr)
				}
			}
		})
	}
	b, err := os.ReadFile(ocf)
	if err != nil || !bytes.HasPrefix(b, []byte("Obj\x01")) {
		t.Errorf("--ocf did not write a container file: %v", err)
	}
}

func TestSchemaCommandJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "schema", "--config", "testdata/schema-bigquery.yaml", "--topic-schema", "testdata/schema-order.avsc",
		"--table-schema", "testdata/schema-table.json", "--format", "json")
	if code != exitFound {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var resp struct {
		BigQuery struct {
			Compatible  bool
			TableSchema []struct{ Name, Type, Mode string }
		}
		Diagnostics []struct{ Code, Path string }
	}
	if err := json.Unmarshal([]byte(stdout), &resp); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if resp.BigQuery.Compatible || len(resp.BigQuery.TableSchema) != 7 || resp.BigQuery.TableSchema[1].Type != "FLOAT" {
		t.Errorf("bigquery %+v", resp.BigQuery)
	}
	found := false
	for _, d := range resp.Diagnostics {
		found = found || (d.Code == "bq-mode-mismatch" && d.Path == "/tableSchema/2/mode")
	}
	if !found {
		t.Errorf("no mode mismatch for the optional note: %+v", resp.Diagnostics)
	}
}
