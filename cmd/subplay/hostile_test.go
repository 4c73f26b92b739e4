package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/subplay/subplay/core/playground/hostile"
)

// TestHostile runs every hostile case through run, as a person would with
// the request's texts in files: no panic, an exit status the command
// documents, bounded output, and the budgets.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED with -short: scripts/test runs the hostile corpus once natively (core/playground's TestHostile); scripts/test --full runs it through every entry")
	}
	for _, c := range hostile.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			args := hostileArgs(t, c)
			var stdout, stderr bytes.Buffer
			var code int
			cost := hostile.Measure(func() { code = run(args, bytes.NewReader(nil), &stdout, &stderr) })
			if code != exitOK && code != exitFound && code != exitUsage {
				t.Errorf("exit status %d", code)
			}
			if n := stdout.Len() + stderr.Len(); n > hostile.BudgetOutput {
				t.Errorf("printed %d bytes", n)
			}
			if bytes.Contains(stderr.Bytes(), []byte("panic")) || bytes.Contains(stdout.Bytes(), []byte("internal error")) {
				t.Errorf("a panic was reported: %.300s", stderr.String())
			}
			for _, o := range cost.Over() {
				t.Error(o)
			}
		})
	}
}

// hostileArgs turns a contract request into the command line that asks the
// same, writing each text of the request to a file.
func hostileArgs(t *testing.T, c hostile.Case) []string {
	t.Helper()
	var req map[string]json.RawMessage
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		t.Fatalf("the case's body is not a JSON object: %v", err)
	}
	dir := t.TempDir()
	file := func(name string, raw json.RawMessage, asText bool) string {
		data := []byte(raw)
		if asText {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				t.Fatalf("%s is not a string: %v", name, err)
			}
			data = []byte(s)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	str := func(raw json.RawMessage) string {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	}
	var config string
	if raw, ok := req["text"]; ok {
		ext := ".txt"
		if f := str(req["format"]); f != "" {
			ext = "." + f
		}
		config = file("config"+ext, raw, true)
	} else if raw, ok := req["config"]; ok {
		config = file("config.json", raw, false)
	}
	args := []string{c.Op}
	if c.Op == "validate" || c.Op == "effective" {
		return append(args, config)
	}
	if config != "" {
		args = append(args, "--config", config)
	}
	for key, flag := range map[string]string{"topicSchema": "--topic-schema", "tableSchema": "--table-schema"} {
		if raw, ok := req[key]; ok {
			args = append(args, flag, file(key, raw, true))
		}
	}
	if raw, ok := req["messages"]; ok {
		args = append(args, "--messages", file("messages.json", raw, false))
	}
	if raw, ok := req["messagesText"]; ok {
		args = append(args, "--messages", file("messages."+cmpOr(str(req["messagesFormat"]), "txt"), raw, true))
	}
	if raw, ok := req["filter"]; ok {
		args = append(args, "--filter", str(raw))
	}
	for _, key := range []string{"time", "uuid"} {
		if raw, ok := req[key]; ok {
			args = append(args, "--"+key, str(raw))
		}
	}
	if raw, ok := req["count"]; ok {
		args = append(args, "--count", string(raw))
	}
	if raw, ok := req["stream"]; ok {
		var s struct {
			Rate     float64 `json:"rate"`
			Size     int64   `json:"size"`
			Duration string  `json:"duration"`
		}
		_ = json.Unmarshal(raw, &s)
		args = append(args, "--rate", strconv.FormatFloat(s.Rate, 'g', -1, 64), "--size", strconv.FormatInt(s.Size, 10), "--duration", s.Duration)
	}
	return args
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
