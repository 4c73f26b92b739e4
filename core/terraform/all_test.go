//go:build !nohcl

package terraform

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/subscription"
	"github.com/subplay/subplay/internal/golden"
)

// readAllReport is what ReadAll makes of a file, as text: each
// subscription's address and position, the REST JSON it means, and every
// finding as "line:col severity code".
func readAllReport(t *testing.T, name, text string) (string, map[string][]string) {
	t.Helper()
	all := ReadAll(Request{Name: name, Text: text})
	var b strings.Builder
	found := map[string][]string{}
	for _, d := range all.Diagnostics {
		f := fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Code)
		found["file"] = append(found["file"], f)
		fmt.Fprintf(&b, "file: %s\n", f)
	}
	for _, res := range all.Subscriptions {
		line, col := res.Doc.Source.LineCol(res.At.Start.Offset())
		fmt.Fprintf(&b, "%s at %d:%d\n", res.Address, line, col)
		cfg := subscription.FromDoc(res.Doc, subscription.Reading{Diagnostics: res.Diagnostics, Judged: res.Known})
		j, _ := json.Marshal(cfg.Sub)
		fmt.Fprintf(&b, "  %s\n", j)
		for _, d := range cfg.Validate() {
			f := fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Code)
			found[res.Address] = append(found[res.Address], f)
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	return b.String(), found
}

// TestReadAll reads every file of testdata/all and compares the report
// with its golden file; the table below holds the behaviours each file is
// there for, so that an -update cannot quietly lose one.
func TestReadAll(t *testing.T) {
	must := map[string]map[string][]string{
		"resources.tf": {
			"google_pubsub_subscription.orders":     nil,
			"google_pubsub_subscription.audit":      {"14:26 error value-too-small"},
			"google_pubsub_subscription.per_region": {"19:3 info terraform-repeated", "22:32 error value-too-large"},
		},
		"module_v8.tf": {
			// A lone minimum_backoff is dropped: no retry policy.
			`module.pubsub.google_pubsub_subscription.pull_subscriptions["worker"]`: {"10:7 warning terraform-module-dropped"},
			// maximum_backoff alone: the module's minimum_backoff "5" is no duration.
			`module.pubsub.google_pubsub_subscription.pull_subscriptions["reports"]`: {"14:7 info terraform-module-default", "14:7 error duration-format"},
			`module.pubsub.google_pubsub_subscription.push_subscriptions["webhook"]`: {
				"21:7 error terraform-module-default", "22:7 warning terraform-module-quirk", "24:7 warning terraform-module-ignored"},
			`module.pubsub.google_pubsub_subscription.bigquery_subscriptions["to-bq"]`: {"31:30 error value-too-large"},
		},
		"module_git_v5.tf": {
			// 4.0.1 to 6.0.0: push entries lose enable_message_ordering.
			`module.events.google_pubsub_subscription.push_subscriptions["events"]`: {"6:7 warning terraform-module-ignored"},
			// 5.0.0 has no cloud_storage_subscriptions: a finding about the file.
			"file": {"17:3 warning terraform-module-ignored"},
		},
		"terragrunt.hcl": {
			"inputs.cloud_storage_subscriptions[0]": nil,
		},
		"none.tf": {},
	}
	files, _ := filepath.Glob("testdata/all/*")
	seen := 0
	for _, path := range files {
		if strings.HasSuffix(path, ".golden") {
			continue
		}
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			report, found := readAllReport(t, name, string(text))
			golden.Check(t, path+".golden", report)
			want, ok := must[name]
			if !ok {
				t.Fatalf("no expectations for %s", name)
			}
			seen++
			var addrs []string
			for a := range found {
				addrs = append(addrs, a)
			}
			subs := 0
			for addr, ds := range want {
				if addr != "file" {
					subs++
				}
				if addr != "file" && !strings.Contains(report, addr+" at ") {
					t.Errorf("%s: no subscription %s in:\n%s", name, addr, report)
				}
				for _, d := range ds {
					if !slices.Contains(found[addr], d) {
						t.Errorf("%s: %s: no finding %q; found %q", name, addr, d, found[addr])
					}
				}
			}
			if n := strings.Count(report, " at "); n != subs {
				t.Errorf("%s: %d subscriptions read, want %d:\n%s", name, n, subs, report)
			}
		})
	}
	if seen != len(must) {
		t.Errorf("%d files read, %d expected", seen, len(must))
	}
}

// TestPickVersion holds the choice terraform init makes among the
// module's releases.
func TestPickVersion(t *testing.T) {
	for _, c := range []struct{ constraint, want string }{
		{"", "v8.6.0"},
		{"~> 8.1", "v8.6.0"},
		{"~> 8.1.0", "v8.1.2"},
		{"~> 5.0", "v5.0.0"},
		{">= 4.0, < 5", "v4.0.1"},
		{"4.0.0", "v4.0.0"},
		{"v1.9.0", "v1.9.0"},
		{"= 7.0.0", "v7.0.0"},
		{"< 1.0", "v0.2.0"},
		{"!= 8.6.0, ~> 8.5", "v8.5.0"},
		{"99.0.0", "v8.6.0"},
		{"main", "v8.6.0"},
	} {
		if got, _ := pickVersion(c.constraint); got.String() != c.want {
			t.Errorf("pickVersion(%q) = %s, want %s", c.constraint, got, c.want)
		}
	}
}

// TestModuleSource holds the forms a source naming Google's pubsub module
// takes, and one that does not.
func TestModuleSource(t *testing.T) {
	for _, c := range []struct {
		source, constraint string
		ok                 bool
	}{
		{"terraform-google-modules/pubsub/google", "", true},
		{"registry.terraform.io/terraform-google-modules/pubsub/google", "", true},
		{"tfr:///terraform-google-modules/pubsub/google?version=8.1.0", "8.1.0", true},
		{"git::https://github.com/terraform-google-modules/terraform-google-pubsub.git?ref=v6.0.0", "v6.0.0", true},
		{"github.com/terraform-google-modules/terraform-google-pubsub?ref=v7.0.0", "v7.0.0", true},
		{"git@github.com:terraform-google-modules/terraform-google-pubsub.git?ref=v3.0.0", "v3.0.0", true},
		{"terraform-google-modules/pubsub/aws", "", false},
		{"./modules/pubsub", "", false},
	} {
		got, _, ok := pubsubModule(c.source)
		if ok != c.ok || got != c.constraint {
			t.Errorf("pubsubModule(%q) = %q, %v; want %q, %v", c.source, got, ok, c.constraint, c.ok)
		}
	}
}
