package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestNamesJSON(t *testing.T) {
	code, out, errs := runCLI(t, "", "names", "--config", "testdata/names-seeds.yaml", "--time", "2023-09-25T04:10:00Z",
		"--uuid", "uNiQuE", "--rate", "10", "--size", "100", "--duration", "600s", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Names       []string         `json:"names"`
		Files       []map[string]any `json:"files"`
		Diagnostics []map[string]any `json:"diagnostics"`
		Summary     map[string]any   `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// 10 messages of 100 bytes a second: 9 (908 bytes) fit under maxBytes 1000.
	if len(r.Files) != 667 || len(r.Names) != 667 || r.Names[0] != "prod_2023-09-25/04_10_00Z_uNiQuE_archive" {
		t.Errorf("%d files, %d names, first %q", len(r.Files), len(r.Names), r.Names[0])
	}
	if r.Files[0]["closedBy"] != "maxBytes" || r.Summary["messages"] != float64(6000) || r.Diagnostics == nil {
		t.Errorf("file 0 %v, summary %v", r.Files[0], r.Summary)
	}
}

func TestNamesStdin(t *testing.T) {
	cfg, err := os.ReadFile("testdata/names-seeds.yaml")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, string(cfg), "names", "--config", "-", "--time", "2023-09-25T04:10:00Z", "--uuid", "u")
	if code != exitOK || !strings.Contains(out, "\n  prod_2023-09-25/04_10_00Z_u_archive\n") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

func TestNamesUsage(t *testing.T) {
	seeds := "testdata/names-seeds.yaml"
	tests := []struct {
		name string
		args []string
		out  string
	}{
		{"no config", nil, "Usage: subplay names"},
		{"stray argument", []string{"--config", seeds, "extra"}, "Usage: subplay names"},
		{"bad format", []string{"--config", seeds, "--format", "yaml"}, "--format must be one of text, json"},
		{"unknown flag", []string{"--frob"}, "flag provided but not defined"},
		{"missing file", []string{"--config", "testdata/nope.yaml"}, "reading testdata/nope.yaml"},
		{"missing messages", []string{"--config", seeds, "--messages", "testdata/nope.json"}, "reading testdata/nope.json"},
		{"messages and rate", []string{"--config", seeds, "--messages", "x.json", "--rate", "1"}, "not both"},
		{"size without rate", []string{"--config", seeds, "--size", "10"}, "add --rate"},
		{"two stdins", []string{"--config", "-", "--messages", "-"}, "standard input"},
		{"bad time", []string{"--config", seeds, "--time", "noon"}, `"time" must be an RFC 3339 time`},
		{"bad count", []string{"--config", seeds, "--count", "0"}, "--count must be at least 1"},
		{"count too large", []string{"--config", seeds, "--count", "5000"}, `"count"`},
		{"bad duration", []string{"--config", seeds, "--rate", "1", "--duration", "soon"}, `--duration "soon"`},
		{"bad rate", []string{"--config", seeds, "--rate", "-1"}, "stream.rate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", append([]string{"names"}, tc.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(out+errs, tc.out) {
				t.Errorf("output lacks %q:\n%s%s", tc.out, out, errs)
			}
		})
	}
}

func TestNamesCountZeroMeansOne(t *testing.T) {
	// --count 0 is refused above; the flag's default previews one name.
	code, out, _ := runCLI(t, "", "names", "--config", "testdata/names-seeds.yaml", "--uuid", "u")
	if code != exitOK || strings.Count(out, "_u_archive") != 1 {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestValidateUsesStorageRules(t *testing.T) {
	// subplay validate and subplay names judge the same configuration alike.
	code, out, _ := runCLI(t, "", "validate", "testdata/names-broken.json")
	if code != exitFound {
		t.Errorf("validate exit %d, want %d", code, exitFound)
	}
	for _, c := range []string{"[bucket-name-scheme]", "[filename-suffix-slash]", "[datetime-format-matcher]"} {
		if !strings.Contains(out, c) {
			t.Errorf("validate output lacks %s:\n%s", c, out)
		}
	}
}
