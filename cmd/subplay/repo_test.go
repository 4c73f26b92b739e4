package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

// writeTree writes files (path: content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// inDir runs subplay in dir, as CI runs it from a repository's top.
func inDir(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestSARIF: one run; every rule has help; every result a level and a
// physical location relative to the working directory, at the finding's
// line and column.
func TestSARIF(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"infra/a.tf": `provider "google" {
  project = "shop-prod"
}
resource "google_pubsub_subscription" "a" {
  name                 = "orders"
  topic                = "orders"
  ack_deadline_seconds = 5
  expiration_policy { ttl = "" }
}
resource "google_pubsub_subscription" "b" {
  name  = "audit"
  topic = "orders"
  message_retention_duration = "60s"
  expiration_policy { ttl = "" }
}
`,
	})
	code, out, errs := inDir(t, dir, "validate", "--format", "sarif", "infra")
	if code != exitFound {
		t.Fatalf("exit %d, want %d: %s", code, exitFound, errs)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID   string                `json:"id"`
						Help struct{ Text string } `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					Physical struct {
						Artifact struct{ URI string }                 `json:"artifactLocation"`
						Region   struct{ StartLine, StartColumn int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "subplay" {
		t.Fatalf("not one SARIF 2.1.0 run of subplay:\n%s", out)
	}
	run := log.Runs[0]
	for _, r := range run.Tool.Driver.Rules {
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	var got []string
	for _, r := range run.Results {
		if r.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s: ruleIndex %d names another rule", r.RuleID, r.RuleIndex)
		}
		if len(r.Locations) != 1 {
			t.Fatalf("result %s has %d locations", r.RuleID, len(r.Locations))
		}
		l := r.Locations[0].Physical
		got = append(got, fmt.Sprintf("%s %s:%d:%d %s", r.Level, l.Artifact.URI, l.Region.StartLine, l.Region.StartColumn, r.RuleID))
	}
	want := []string{"error infra/a.tf:7:26 value-too-small", "error infra/a.tf:13:32 value-too-small"}
	for _, w := range want {
		if !strings.Contains(strings.Join(got, "\n"), w) {
			t.Errorf("no result %q in:\n%s", w, strings.Join(got, "\n"))
		}
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ID == "value-too-small" && (!strings.Contains(r.Help.Text, "ackDeadlineSeconds") || !strings.Contains(r.Help.Text, "messageRetentionDuration")) {
			t.Errorf("the help of value-too-small is not the rule table's for both fields: %q", r.Help.Text)
		}
	}
}

// TestBadInput: what a repository may hold that is not a configuration is
// skipped with a note, never a crash or a hang, and the good files are
// still checked.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"ok.json":     `{"name": "projects/shop-prod/subscriptions/orders", "topic": "projects/shop-prod/topics/orders"}`,
		"binary.json": "{\x00\x01\x02}",
		"big.yaml":    "topic: projects/shop-prod/topics/orders\n" + strings.Repeat("# padding\n", limits.DocumentBytes/10+1),
	})
	for _, l := range [][2]string{{"loop-b.tf", "loop-a.tf"}, {"loop-a.tf", "loop-b.tf"}, {"dir-link", "."}} {
		if err := os.Symlink(l[1], filepath.Join(dir, l[0])); err != nil {
			t.Fatal(err)
		}
	}
	unreadable := filepath.Join(dir, "secret.tf")
	if err := os.WriteFile(unreadable, []byte(`variable "x" {}`), 0o000); err != nil {
		t.Fatal(err)
	}
	code, out, errs := inDir(t, dir, "validate", ".")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"skipped binary.json: a binary file", "skipped big.yaml: larger than 1024 KiB", "skipped loop-a.tf:", "skipped loop-b.tf:"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if os.Geteuid() != 0 && !strings.Contains(errs, "skipped secret.tf: permission denied") {
		t.Errorf("the unreadable file is not noted:\n%s", errs)
	}
	if !strings.Contains(out, "ok.json: valid pull subscription") || !strings.Contains(out, "subscription in") {
		t.Errorf("the good file is not checked:\n%s", out)
	}
}

// TestManyFiles: a directory of 100,000 files is walked, and those that
// are not configurations cost a look at their names only.
func TestManyFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("the full tier writes 100,000 files")
	}
	dir := t.TempDir()
	for i := range 100_000 {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i/1000))
		if i%1000 == 0 {
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		name := fmt.Sprintf("f%d.txt", i)
		if i%10_000 == 0 {
			name = fmt.Sprintf("f%d.json", i)
		}
		if err := os.WriteFile(filepath.Join(sub, name), []byte(`{"topic": "projects/shop-prod/topics/orders"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := inDir(t, dir, "validate", "-q", ".")
	if code != exitOK || !strings.Contains(out, "10 subscriptions in 10 files") {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errs)
	}
}
