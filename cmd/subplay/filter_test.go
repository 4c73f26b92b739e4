package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/subplay/subplay/internal/golden"
)

func TestFilterCommandJSON(t *testing.T) {
	code, out, _ := runCLI(t, "", "filter", "--filter", `hasPrefix(attributes.name, "co")`, "--messages", "testdata/filter-messages.json", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var r struct {
		Valid       bool   `json:"valid"`
		Canonical   string `json:"canonical"`
		CEL         string `json:"cel"`
		Diagnostics []any  `json:"diagnostics"`
		Results     []struct {
			Index  int    `json:"index"`
			Match  bool   `json:"match"`
			Reason string `json:"reason"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var delivered []int
	for _, res := range r.Results {
		if res.Match {
			delivered = append(delivered, res.Index+1) // the fixture numbers messages from 1
		}
		if res.Reason == "" {
			t.Errorf("message %d has no reason", res.Index)
		}
	}
	if !r.Valid || r.Canonical != `hasPrefix(attributes.name, "co")` || r.CEL == "" || r.Diagnostics == nil {
		t.Errorf("%+v", r)
	}
	if got := strings.Trim(strings.Join(strings.Fields(strings.Trim(jsonText(delivered), "[]")), ""), ","); got != "1,4,7,9,12" {
		t.Errorf("delivered %v, want the pstest answer 1,4,7,9,12", delivered)
	}

	code, out, _ = runCLI(t, "", "filter", "--filter", `attributes:a AND`, "--format", "json")
	if code != 1 || !strings.Contains(out, `"valid":false`) || !strings.Contains(out, `"filter-missing-condition"`) {
		t.Errorf("invalid filter as JSON: exit %d\n%s", code, out)
	}
}

func jsonText(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestFilterCommandUsage(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no filter", []string{"filter"}, "Usage: subplay filter"},
		{"filter and config", []string{"filter", "--filter", "attributes:a", "--config", "x.yaml"}, "Usage: subplay filter"},
		{"bad format", []string{"filter", "--filter", "attributes:a", "--format", "xml"}, "--format must be one of"},
		{"missing messages file", []string{"filter", "--filter", "attributes:a", "--messages", "testdata/nope.json"}, "nope.json"},
		{"missing config file", []string{"filter", "--config", "testdata/nope.yaml"}, "nope.yaml"},
		{"filter as an argument", []string{"filter", "attributes:a"}, "the filter goes in --filter"},
		{"both from stdin", []string{"filter", "--config", "-", "--messages", "-"}, "cannot both read standard input"},
		{"unknown flag", []string{"filter", "--filtre", "x"}, "flag provided but not defined"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tc.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
	if code, _, errOut := runCLI(t, "", "filter", "-h"); code != 2 || !strings.Contains(errOut, "ACKED") {
		t.Errorf("-h: exit %d, %s", code, errOut)
	}
}

// TestFilterSeveralErrors is the one filter case that is not a script in
// testdata/script: its filter spans two lines, which a script's command
// line cannot hold.
func TestFilterSeveralErrors(t *testing.T) {
	code, out, _ := runCLI(t, "", "filter", "--filter", "attributes.name == 'com' and\n  attributes.iana.org/x = \"\\q\"")
	if code != exitFound {
		t.Errorf("exit %d, want %d", code, exitFound)
	}
	golden.Check(t, "testdata/filter-errors.txt", out)
}
