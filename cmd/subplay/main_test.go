package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command line with buffers, as main does with the
// process's streams.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string // substring of stdout+stderr
	}{
		{nil, exitUsage, "Commands:"},
		{[]string{"help"}, exitOK, "validate"},
		{[]string{"version"}, exitOK, "subplay"},
		{[]string{"frob"}, exitUsage, `unknown command "frob"`},
		{[]string{"validate"}, exitUsage, "Usage: subplay validate"},
		{[]string{"validate", "--format", "xml", "x.json"}, exitUsage, "--format must be one of text, json"},
		{[]string{"validate", "--nope"}, exitUsage, "flag provided but not defined"},
		{[]string{"validate", "testdata/does-not-exist.json"}, exitUsage, "reading testdata/does-not-exist.json"},
		{[]string{"effective"}, exitUsage, "Usage: subplay effective"},
		{[]string{"effective", "--format", "text", "x"}, exitUsage, "--format must be one of yaml, json"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, errs)
			}
			if !strings.Contains(out+errs, tc.out) {
				t.Errorf("output lacks %q:\n%s%s", tc.out, out, errs)
			}
		})
	}
}

func TestValidateExamplesExitZero(t *testing.T) {
	files, _ := filepath.Glob("../../core/subscription/testdata/examples/*")
	args := append([]string{"validate", "-q"}, files...)
	code, out, errs := runCLI(t, "", args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if n := strings.Count(out, ": valid "); n != len(files) {
		t.Errorf("%d of %d files reported valid:\n%s", n, len(files), out)
	}
	if strings.Contains(out, "info:") {
		t.Errorf("-q printed info notes:\n%s", out)
	}
}

func TestValidateJSONAndStdin(t *testing.T) {
	in := `{"topic": "projects/my-project/topics/t-1", "ackDeadlineSeconds": 5}`
	code, out, _ := runCLI(t, in, "validate", "--format", "json", "-")
	if code != exitFound {
		t.Errorf("exit %d, want 1", code)
	}
	var resp struct {
		Valid       bool
		Diagnostics []struct {
			Code         string
			Line, Column int
		}
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if resp.Valid || len(resp.Diagnostics) == 0 {
		t.Fatalf("got %s", out)
	}
	found := false
	for _, d := range resp.Diagnostics {
		if d.Code == "value-too-small" && d.Line == 1 && d.Column == 67 {
			found = true
		}
	}
	if !found {
		t.Errorf("no positioned value-too-small diagnostic: %s", out)
	}
}

func TestValidateOld(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte(`{"topic": "projects/my-project/topics/t-1", "filter": "attributes:a"}`), 0o644)
	code, out, _ := runCLI(t, `{"topic": "projects/my-project/topics/t-1", "filter": "attributes:b"}`, "validate", "--old", old, "-")
	if code != exitFound || !strings.Contains(out, "immutable-field") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestEffective(t *testing.T) {
	code, out, _ := runCLI(t, "", "effective", "--format", "json", "../../core/subscription/testdata/examples/pull.yaml")
	var m struct {
		Effective   map[string]any
		Origins     map[string]string
		Diagnostics []any
	}
	if code != exitOK || json.Unmarshal([]byte(out), &m) != nil || m.Effective["ackDeadlineSeconds"] != 30.0 ||
		m.Effective["retainAckedMessages"] != false || m.Origins["/retainAckedMessages"] != "default" || m.Diagnostics == nil {
		t.Errorf("exit %d:\n%s", code, out)
	}

	code, _, errs := runCLI(t, `{"topic": 5}`, "effective", "-")
	if code != exitFound || !strings.Contains(errs, "wrong-type") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

func TestOversizedInput(t *testing.T) {
	big := `{"topic": "` + strings.Repeat("x", 2<<20) + `"}`
	code, out, _ := runCLI(t, big, "validate", "-")
	if code != exitFound || !strings.Contains(out, "input-too-large") {
		t.Errorf("exit %d:\n%.300s", code, out)
	}
}
