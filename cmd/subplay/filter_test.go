package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFilterCommand(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		golden string // expected stdout, in testdata/
	}{
		{"pstest fixture", []string{"filter", "--filter", `attributes.name = "com" AND -attributes:"lang"`, "--messages", "testdata/filter-messages.json"}, "", 0, "filter-fixture.txt"},
		{"!= on absent keys", []string{"filter", "--filter", `attributes.name != "com"`, "--messages", "testdata/filter-messages.json"}, "", 0, "filter-not-equal.txt"},
		{"invalid filter", []string{"filter", "--filter", `attributes:"iana.org/language_tag" AND attributes.name = "net" OR attributes.name = "org"`}, "", 1, "filter-invalid.txt"},
		{"several errors", []string{"filter", "--filter", "attributes.name == 'com' and\n  attributes.iana.org/x = \"\\q\""}, "", 1, "filter-errors.txt"},
		{"filter from a configuration, with an error", []string{"filter", "--config", "testdata/filter-config.yaml"}, "", 1, "filter-config.txt"},
		{"filter from a configuration", []string{"filter", "--config", "testdata/filter-config-ok.json", "--messages", "-"},
			`[{"attributes": {"iana.org/language_tag": "en"}}, {"attributes": {"iana.org/language_tag": "en", "debug": "1"}}]`, 0, "filter-config-ok.txt"},
		{"messages with errors", []string{"filter", "--filter", "attributes:name", "--messages", "testdata/filter-broken-messages.yaml"}, "", 1, "filter-broken-messages.txt"},
		{"empty filter", []string{"filter", "--filter", "", "--messages", "-"}, `[{"text": "a"}]`, 0, "filter-empty.txt"},
		{"no messages", []string{"filter", "--filter", "hasPrefix(attributes.k,\"x\")"}, "", 0, "filter-no-messages.txt"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if errOut != "" {
				t.Errorf("stderr: %s", errOut)
			}
			golden(t, tc.golden, out)
		})
	}
}

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
