package gcloudcmd

import (
	"slices"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"plain", "gcloud pubsub subscriptions create s --topic=t", true},
		{"prompt", "$ gcloud pubsub subscriptions create s --topic=t", true},
		{"powershell prompt", "PS> gcloud pubsub subscriptions create s `\n  --topic=t", true},
		{"script", "#!/bin/bash\n# make the subscription\n\n  gcloud pubsub subscriptions create s --topic=t\n", true},
		{"by path", "/usr/bin/gcloud pubsub subscriptions create s --topic=t", true},
		{"windows", "gcloud.cmd pubsub subscriptions create s --topic=t", true},
		{"alone", "gcloud", true},
		{"json", `{"name": "projects/p/subscriptions/s"}`, false},
		{"yaml", "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\n", false},
		{"yaml naming gcloud", "# gcloud pubsub subscriptions describe s\nname: gcloud\n", false},
		{"export first", "export TOPIC=t\ngcloud pubsub subscriptions create s --topic=$TOPIC", true},
		{"script preamble", "#!/usr/bin/env bash\nset -euo pipefail\nPROJECT=my-proj\nreadonly TOPIC=\"t\"\n\n$ gcloud pubsub subscriptions create s --topic=$TOPIC", true},
		{"powershell variables", "$env:PROJECT = \"p\"\n$TOPIC = 't'\ngcloud pubsub subscriptions create s --topic=$TOPIC", true},
		{"other command first", "echo making it\ngcloud pubsub subscriptions create s --topic=t", false},
		{"yaml with an equals sign", "filter: attributes.a = \"b\"\ntopic: projects/p/topics/t\n", false},
		{"settings only", "export A=1\nB=2\n", false},
		{"digit name", "1X=2\ngcloud pubsub subscriptions create s --topic=t", false},
		{"longer word", "gcloudy pubsub", false},
		{"empty", "", false},
		{"comments only", "# gcloud\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Detect(tc.text); got != tc.want {
				t.Errorf("Detect(%q) = %v, want %v", tc.text, got, tc.want)
			}
		})
	}
}

func TestJudges(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		judged     []string
		notJudged  []string
	}{
		{"create", "gcloud pubsub subscriptions create s --topic=t --project=p --ack-deadline=5",
			[]string{"", "/name", "/topic", "/ackDeadlineSeconds", "/pushConfig/pushEndpoint"}, nil},
		{"create with a variable", "gcloud pubsub subscriptions create s --topic=$TOPIC --project=p",
			[]string{"", "/name", "/ackDeadlineSeconds"}, []string{"/topic"}},
		{"update", "gcloud pubsub subscriptions update s --project=p --ack-deadline=700 --push-endpoint=https://example.com/push",
			[]string{"/name", "/ackDeadlineSeconds", "/pushConfig/pushEndpoint"}, []string{"", "/topic", "/filter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Read(Request{Text: tc.text})
			for _, p := range tc.judged {
				if !r.Judges(p) {
					t.Errorf("Judges(%q) = false, want true (mask %v, unknown %v)", p, r.UpdateMask, r.Unknown)
				}
			}
			for _, p := range tc.notJudged {
				if r.Judges(p) {
					t.Errorf("Judges(%q) = true, want false (mask %v, unknown %v)", p, r.UpdateMask, r.Unknown)
				}
			}
		})
	}
}

// TestCommandChoice: in a text of several commands, the reader reads the
// first gcloud pubsub subscriptions create or update and names every
// other gcloud command in a note.
func TestCommandChoice(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		read       string   // the subscription read
		notes      []string // the text each gcloud-more-commands note covers
	}{
		{"topic first", "gcloud pubsub topics create t --project=p\ngcloud pubsub subscriptions create s1 --topic=t --project=p",
			"projects/p/subscriptions/s1", []string{"gcloud pubsub topics create"}},
		{"config first", "gcloud config set project p\n$ gcloud pubsub subscriptions create s1 --topic=t --project=p && gcloud pubsub subscriptions describe s1",
			"projects/p/subscriptions/s1", []string{"gcloud config set project", "gcloud pubsub subscriptions describe"}},
		{"two subscriptions", "gcloud pubsub subscriptions create s1 --topic=t --project=p\ngcloud beta pubsub subscriptions update s2 --ack-deadline=30 --project=p",
			"projects/p/subscriptions/s1", []string{"gcloud beta pubsub subscriptions update"}},
		{"global flags", "export X=1; gcloud --quiet --project=p pubsub subscriptions create s1 --topic=t",
			"projects/p/subscriptions/s1", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Read(Request{Text: tc.text})
			if diag.HasErrors(res.Diagnostics) || res.Doc.Root == nil {
				t.Fatalf("errors:%s", diagText(res))
			}
			if n := res.Doc.Root.Get("name"); n == nil || n.Value != tc.read {
				t.Fatalf("read %v, want %s", n, tc.read)
			}
			var notes []string
			for _, d := range res.Diagnostics {
				if d.Code == "gcloud-more-commands" {
					if d.Severity != diag.Info {
						t.Errorf("%s is a %s, want info", d.Code, d.Severity)
					}
					notes = append(notes, textOf(tc.text, d.Span))
				}
			}
			if !slices.Equal(notes, tc.notes) {
				t.Errorf("notes cover %q, want %q%s", notes, tc.notes, diagText(res))
			}
		})
	}
}

// TestUnknownProject: a --project whose value the text does not give
// makes the names built from it unknown and says so; the configured
// project is not used and nothing claims the command names no project.
func TestUnknownProject(t *testing.T) {
	for _, tc := range []struct{ name, text, value string }{
		{"quoted variable", `gcloud pubsub subscriptions create sub --topic=top --project="$PROJECT"`, `"$PROJECT"`},
		{"braced variable", `gcloud pubsub subscriptions create sub --topic=top --project "${PROJECT}"`, `"${PROJECT}"`},
		{"placeholder", `gcloud pubsub subscriptions create sub --topic=top --project=PROJECT_ID`, `"PROJECT_ID"`},
		{"global flag first", `gcloud --project=$P pubsub subscriptions create sub --topic=top`, `"$P"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Read(Request{Text: tc.text, Project: "configured"})
			if diag.HasErrors(res.Diagnostics) {
				t.Fatalf("errors:%s", diagText(res))
			}
			for _, path := range []string{"/name", "/topic"} {
				if res.Known(path) {
					t.Errorf("%s is known: %v", path, res.Unknown)
				}
			}
			if strings.Contains(res.Doc.Root.JSON(), "configured") {
				t.Errorf("the configured project was used: %s", res.Doc.Root.JSON())
			}
			said := map[string]bool{}
			for _, d := range res.Diagnostics {
				if d.Code == "gcloud-default-project" {
					t.Errorf("false note: %s", d.Message)
				}
				if d.Code == "gcloud-unknown-value" && strings.Contains(d.Message, "--project gives as "+tc.value) {
					said[textOf(tc.text, d.Span)] = true
				}
			}
			if !said["sub"] || !said["top"] {
				t.Errorf("the name and the topic are not said to be in the unknown project:%s", diagText(res))
			}
		})
	}
}

// TestSettingsNotRun: a variable the text sets stays unknown (subplay
// reads the text, it does not run the shell), and the note says where it
// is set.
func TestSettingsNotRun(t *testing.T) {
	const text = "# setup\nexport TOPIC=orders PROJECT=p\nACK=20\ngcloud pubsub subscriptions create s --topic=\"$TOPIC\" --project=p --ack-deadline=${ACK} --labels=a=$UNSET"
	res := Read(Request{Text: text})
	for path, line := range map[string]string{"/topic": "line 2", "/ackDeadlineSeconds": "line 3", "/labels": ""} {
		if res.Known(path) {
			t.Errorf("%s is known: %v", path, res.Unknown)
		}
		var hint string
		for _, d := range res.Diagnostics {
			if d.Code == "gcloud-unknown-value" && d.Path == path {
				hint = d.Hint
			}
		}
		if line != "" && !strings.Contains(hint, "sets it on "+line) || line == "" && strings.Contains(hint, "sets it") {
			t.Errorf("%s: hint %q, want it to name %q", path, hint, line)
		}
	}
}
