package gcloudcmd

import "testing"

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
		{"other command first", "export TOPIC=t\ngcloud pubsub subscriptions create s --topic=$TOPIC", false},
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
