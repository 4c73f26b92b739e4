package gcloudcmd

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/subplay/subplay/core/subscription"
)

// TestReadAll: every subscription command of a script is read on its own,
// positioned in the whole script; other commands are left alone, and a
// text without one gives nothing.
func TestReadAll(t *testing.T) {
	text, err := os.ReadFile("testdata/all/deploy.sh")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, text string
		want       []string   // each command read: "line:col verb name"
		findings   [][]string // each one's findings, "line:col severity code"
	}{
		{"script", string(text),
			[]string{"7:1 create projects/shop-prod/subscriptions/orders-worker", "10:1 create projects/shop-prod/subscriptions/orders-audit", "14:1 update projects/shop-prod/subscriptions/orders-worker"},
			[][]string{nil, {"11:53 error value-too-small"}, nil}},
		{"no subscription command", "gcloud pubsub topics create t\necho hi\n", nil, nil},
		{"empty", "", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs := ReadAll(Request{Name: "deploy.sh", Text: c.text})
			if len(rs) != len(c.want) {
				t.Fatalf("%d commands read, want %d", len(rs), len(c.want))
			}
			for i, r := range rs {
				line, col := r.Doc.Source.LineCol(r.At.Start.Offset())
				name := ""
				if n := r.Doc.Root.Get("name"); n != nil {
					name = n.Value
				}
				if got := fmt.Sprintf("%d:%d %s %s", line, col, r.Verb, name); got != c.want[i] {
					t.Errorf("command %d: %s, want %s", i, got, c.want[i])
				}
				cfg := subscription.FromDoc(r.Doc, subscription.Reading{Diagnostics: r.Diagnostics, Judged: r.Judges, Changes: r.Verb == Update, UpdateMask: r.UpdateMask})
				var got []string
				for _, d := range cfg.Validate() {
					if d.Severity != "info" {
						got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Code))
					}
				}
				if !slices.Equal(got, c.findings[i]) {
					t.Errorf("command %d: findings %q, want %q", i, got, c.findings[i])
				}
			}
		})
	}
}
