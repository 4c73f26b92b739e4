package gcloudcmd

import (
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/subscription"
)

// nodeAt returns the node at a JSON pointer of a tree, or nil.
func nodeAt(root *doc.Node, path string) *doc.Node {
	n := root
	if path == "" {
		return n
	}
	for _, seg := range strings.Split(path[1:], "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		n = n.Get(seg)
	}
	return n
}

func textOf(src string, sp diag.Span) string {
	a, b := sp.Start.Offset(), sp.End.Offset()
	if a < 0 || b > len(src) || a > b {
		return "<no span>"
	}
	return src[a:b]
}

// TestShellForms: what people paste reads as the same subscription.
func TestShellForms(t *testing.T) {
	const want = `{"ackDeadlineSeconds":60,"labels":{"env":"prod"},"name":"projects/p/subscriptions/s1","topic":"projects/p/topics/t"}`
	for _, tc := range []struct{ name, text string }{
		{"plain", `gcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod`},
		{"spaces", `gcloud pubsub subscriptions create s1 --topic t --ack-deadline 60 --labels env=prod`},
		{"bash continuation", "gcloud pubsub subscriptions create s1 \\\n  --topic=t \\\n  --ack-deadline=60 \\\n  --labels=env=prod\n"},
		{"crlf continuation", "gcloud pubsub subscriptions create s1 \\\r\n  --topic=t \\\r\n  --ack-deadline=60 --labels=env=prod\r\n"},
		{"powershell continuation", "gcloud pubsub subscriptions create s1 `\n  --topic=t `\n  --ack-deadline=60 `\n  --labels=env=prod"},
		{"cmd continuation", "gcloud pubsub subscriptions create s1 ^\n  --topic=t ^\n  --ack-deadline=60 --labels=env=prod"},
		{"prompt", `$ gcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod`},
		{"powershell prompt", `PS> gcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod`},
		{"quotes", `gcloud pubsub subscriptions create "s1" --topic='t' --ack-deadline="60" --labels='env=prod'`},
		{"redirect", `gcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod 2>/dev/null`},
		{"redirect spaced", `gcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod > out.txt 2>&1`},
		{"comment", "# make the subscription\ngcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod # done"},
		{"project flag", `gcloud pubsub subscriptions create s1 --project=p --topic=t --ack-deadline=60 --labels=env=prod`},
		{"global flags first", `gcloud --quiet --project p pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod`},
		{"beta", `gcloud beta pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod`},
		{"full names", `gcloud pubsub subscriptions create projects/p/subscriptions/s1 --topic=projects/p/topics/t --ack-deadline=60 --labels=env=prod`},
		{"topic project", `gcloud pubsub subscriptions create s1 --topic=t --topic-project=p --ack-deadline=60 --labels=env=prod`},
		{"after other commands", "export X=1\ngcloud pubsub subscriptions create s1 --topic=t --ack-deadline=60 --labels=env=prod && echo ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Read(Request{Text: tc.text, Project: "p"})
			if diag.HasErrors(res.Diagnostics) || res.Doc.Root == nil {
				t.Fatalf("errors:%s", diagText(res))
			}
			got, _ := canonicalJSON(res.Doc.Root.JSON())
			w, _ := canonicalJSON(want)
			if got != w {
				t.Errorf("got %s\nwant %s", got, w)
			}
			// Every value span points at the value as written.
			if n := res.Doc.Root.Get("ackDeadlineSeconds"); textOf(tc.text, n.Span) != "60" {
				t.Errorf("ack deadline span covers %q", textOf(tc.text, n.Span))
			}
		})
	}
}

// TestFindings: gcloud's own checks and what the text does not say, each
// with its code and the text it points at.
func TestFindings(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		sev        diag.Severity
		code, at   string // at: the text the finding's span covers
		unknown    string // a path that must be unknown
	}{
		{"shell variable", `gcloud pubsub subscriptions create sub1 --topic=$TOPIC`, diag.Info, "gcloud-unknown-value", "$TOPIC", "/topic"},
		{"braced variable", `gcloud pubsub subscriptions create sub1 --topic top --project="${PROJECT}"`, diag.Info, "gcloud-unknown-value", "${PROJECT}", "/topic"},
		{"powershell variable", `gcloud pubsub subscriptions create sub1 --topic top --ack-deadline=$env:ACK`, diag.Info, "gcloud-unknown-value", "$env:ACK", "/ackDeadlineSeconds"},
		{"command substitution", `gcloud pubsub subscriptions create sub1 --topic top --labels=at=$(date +%s)`, diag.Info, "gcloud-unknown-value", "at=$(date +%s)", "/labels"},
		{"placeholder", `gcloud pubsub subscriptions create SUBSCRIPTION_ID --topic=TOPIC_ID --project=my-proj`, diag.Info, "gcloud-placeholder", "TOPIC_ID", "/topic"},
		{"placeholder in email", `gcloud pubsub subscriptions create sub --topic=top --push-endpoint=https://x.example/p --push-auth-service-account=SA_NAME@PROJECT_ID.iam.gserviceaccount.com`, diag.Info, "gcloud-placeholder", "SA_NAME@PROJECT_ID.iam.gserviceaccount.com", "/pushConfig/oidcToken/serviceAccountEmail"},
		{"angle placeholder", `gcloud pubsub subscriptions create sub --topic=<topic>`, diag.Info, "gcloud-placeholder", "<topic>", "/topic"},
		{"short ID without a project", `gcloud pubsub subscriptions create s --topic=top`, diag.Error, "resource-name", "s", "/name"},
		{"reserved ID without a project", `gcloud pubsub subscriptions create sub --topic="goog-t"`, diag.Error, "resource-name", "goog", "/topic"},
		{"bad character without a project", `gcloud pubsub subscriptions create 'my sub' --topic=top --project="$P"`, diag.Error, "resource-name", " ", "/name"},
		{"topic ID, project unknown", `gcloud pubsub subscriptions create sub --topic=t1 --topic-project="$P"`, diag.Error, "resource-name", "t1", "/topic"},
		{"dead-letter ID, project unknown", `gcloud pubsub subscriptions create sub --topic=top --dead-letter-topic=goog-dl --dead-letter-topic-project=$P`, diag.Error, "resource-name", "goog", "/deadLetterPolicy/deadLetterTopic"},
		{"no project", `gcloud pubsub subscriptions create sub --topic=top`, diag.Info, "gcloud-default-project", "sub", "/name"},
		{"file not given", `gcloud pubsub subscriptions create sub --topic=top --project=p --message-transforms-file=mt.yaml`, diag.Info, "gcloud-file-not-given", "mt.yaml", "/messageTransforms"},
		{"unknown flag", `gcloud pubsub subscriptions create sub --topic=top --ack-dedline=10`, diag.Error, "gcloud-unknown-flag", "--ack-dedline", ""},
		{"camel flag", `gcloud pubsub subscriptions create sub --topic=top --ackDeadline=10`, diag.Error, "gcloud-unknown-flag", "--ackDeadline", ""},
		{"empty filter", `gcloud pubsub subscriptions create sub --topic=top --message-filter=""`, diag.Error, "gcloud-empty-filter", "--message-filter=\"\"", ""},
		{"attempts without topic", `gcloud pubsub subscriptions create sub --topic=top --max-delivery-attempts=9`, diag.Error, "gcloud-flag-needs-flag", "--max-delivery-attempts", ""},
		{"no wrapper without endpoint", `gcloud pubsub subscriptions create sub --topic=top --push-no-wrapper`, diag.Error, "gcloud-flag-needs-flag", "--push-no-wrapper", ""},
		{"retention bound", `gcloud pubsub subscriptions create sub --topic=top --message-retention-duration=32d`, diag.Error, "gcloud-value-out-of-range", "32d", ""},
		{"bad duration", `gcloud pubsub subscriptions create sub --topic=top --min-retry-delay=soon`, diag.Error, "gcloud-bad-value", "soon", ""},
		{"invalid byte in a duration", "gcloud pubsub subscriptions create sub --topic=top --expiration-period=1d\x80", diag.Error, "gcloud-bad-value", "1d\x80", ""},
		{"bad size", `gcloud pubsub subscriptions create sub --topic=top --cloud-storage-bucket=b --cloud-storage-max-bytes=5XB`, diag.Error, "gcloud-bad-value", "5XB", ""},
		{"switch with value", `gcloud pubsub subscriptions create sub --topic=top --retain-acked-messages=true`, diag.Error, "gcloud-flag-takes-no-value", "--retain-acked-messages", ""},
		{"filter on update", `gcloud pubsub subscriptions update sub --message-filter=x`, diag.Error, "gcloud-unknown-flag", "--message-filter", ""},
		{"nothing to update", `gcloud pubsub subscriptions update sub`, diag.Error, "gcloud-nothing-to-update", "update", ""},
		{"missing topic", `gcloud pubsub subscriptions create s`, diag.Error, "gcloud-missing-topic", "create", ""},
		{"unclosed quote", `gcloud pubsub subscriptions create s --topic='t`, diag.Error, "gcloud-unclosed-quote", "'", ""},
		{"not gcloud", `kubectl apply -f x.yaml`, diag.Error, "gcloud-no-command", "", ""},
		{"other command", `gcloud pubsub topics create t`, diag.Error, "gcloud-not-subscription-command", "topics", ""},
		{"repeated flag", `gcloud pubsub subscriptions create sub --topic=top --ack-deadline=20 --ack-deadline=30`, diag.Warning, "gcloud-repeated-flag", "--ack-deadline", ""},
		{"audience alone", `gcloud pubsub subscriptions create sub --topic=top --push-endpoint=https://x.example --push-auth-token-audience=a`, diag.Warning, "gcloud-ignored-flag", "--push-auth-token-audience", ""},
		{"redirect", `gcloud pubsub subscriptions create sub --topic=top 2>/dev/null`, diag.Info, "gcloud-shell-redirect", "2>/dev/null", ""},
		{"update labels", `gcloud pubsub subscriptions update sub --update-labels=a=b`, diag.Info, "gcloud-labels-from-server", "--update-labels", "/labels"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Read(Request{Text: tc.text})
			var found *diag.Diagnostic
			for i, d := range res.Diagnostics {
				if d.Code == tc.code && (tc.at == "" || textOf(tc.text, d.Span) == tc.at) {
					found = &res.Diagnostics[i]
					break
				}
			}
			if found == nil {
				t.Fatalf("no %s finding:%s", tc.code, diagText(res))
			}
			if found.Severity != tc.sev {
				t.Errorf("severity %s, want %s", found.Severity, tc.sev)
			}
			if got := textOf(tc.text, found.Span); tc.at != "" && got != tc.at {
				t.Errorf("finding covers %q, want %q", got, tc.at)
			}
			if tc.sev != diag.Error && diag.HasErrors(res.Diagnostics) {
				t.Errorf("unexpected errors:%s", diagText(res))
			}
			if tc.unknown != "" && res.Known(tc.unknown) {
				t.Errorf("%s is not unknown: %v", tc.unknown, res.Unknown)
			}
			if strings.Contains(found.Message, "gcloud.pubsub") || strings.HasSuffix(found.Message, ".") {
				t.Errorf("message not in our words: %q", found.Message)
			}
		})
	}
}

// TestUpdateMask: the mask gcloud would send, in its order.
func TestUpdateMask(t *testing.T) {
	for _, tc := range []struct{ text, mask string }{
		{`gcloud pubsub subscriptions update s --ack-deadline=30 --retain-acked-messages`, "ackDeadlineSeconds,retainAckedMessages"},
		{`gcloud pubsub subscriptions update s --clear-dead-letter-policy --clear-retry-policy`, "deadLetterPolicy,retryPolicy"},
		{`gcloud pubsub subscriptions update s --message-retention-duration=default`, "messageRetentionDuration"},
		{`gcloud pubsub subscriptions update s --clear-push-no-wrapper-config`, "pushConfig.noWrapper"},
		{`gcloud pubsub subscriptions update s --push-endpoint=https://x.example --clear-push-no-wrapper-config`, "pushConfig"},
		{`gcloud pubsub subscriptions update s --clear-labels`, "labels"},
	} {
		res := Read(Request{Text: tc.text, Project: "p"})
		if got := strings.Join(res.UpdateMask, ","); got != tc.mask {
			t.Errorf("%s: mask %q, want %q%s", tc.text, got, tc.mask, diagText(res))
		}
	}
}

// TestSubscriptionFindingsOnFlags: the core's findings about what a
// command means land on the user's own flag. The core has no entry point
// taking a built tree yet, so the tree goes through JSON here and each
// finding is mapped back by its path.
func TestSubscriptionFindingsOnFlags(t *testing.T) {
	for _, tc := range []struct{ text, path, at string }{
		{`gcloud pubsub subscriptions create s --topic=t --ack-deadline=5`, "/ackDeadlineSeconds", "5"},
		{`gcloud pubsub subscriptions create s --topic=t --ack-deadline 700`, "/ackDeadlineSeconds", "700"},
		{`gcloud pubsub subscriptions create s --topic=t --expiration-period=1h`, "/expirationPolicy/ttl", "1h"},
		{`gcloud pubsub subscriptions create s --topic=t --message-filter='attributes.x ='`, "/filter", "attributes.x ="},
		{`gcloud pubsub subscriptions create s --topic=t --push-endpoint=example.com`, "/pushConfig/pushEndpoint", "example.com"},
		{`gcloud pubsub subscriptions create s --topic=t --dead-letter-topic=t`, "/deadLetterPolicy/deadLetterTopic", "t"},
		{`gcloud pubsub subscriptions create s --topic=t --enable-exactly-once-delivery --push-endpoint=https://x.example/p`, "/enableExactlyOnceDelivery", "--enable-exactly-once-delivery"},
		{`gcloud pubsub subscriptions create s --topic=t --min-retry-delay=60s --max-retry-delay=10s`, "/retryPolicy", ""},
	} {
		t.Run(tc.text, func(t *testing.T) {
			res := Read(Request{Text: tc.text, Project: "p"})
			if diag.HasErrors(res.Diagnostics) {
				t.Fatalf("reader errors:%s", diagText(res))
			}
			cfg := subscription.Decode("", res.Doc.Root.JSON(), doc.JSON)
			var hit bool
			for _, d := range cfg.Validate() {
				if !strings.HasPrefix(d.Path, tc.path) {
					continue
				}
				n := nodeAt(res.Doc.Root, d.Path)
				if n == nil {
					t.Fatalf("finding at %s has no node in the tree", d.Path)
				}
				sp := n.Span
				if strings.HasPrefix(d.Path, "/labels/") {
					parent := nodeAt(res.Doc.Root, "/labels")
					for _, m := range parent.Members {
						if "/labels/"+m.Key == d.Path {
							sp = m.KeySpan
						}
					}
				}
				got := textOf(tc.text, sp)
				if tc.at != "" && got != tc.at {
					t.Errorf("%s finding %s points at %q, want %q", d.Path, d.Code, got, tc.at)
				}
				if !sp.IsValid() {
					t.Errorf("%s finding %s has no position", d.Path, d.Code)
				}
				hit = true
			}
			if !hit {
				t.Errorf("the core reported nothing at %s", tc.path)
			}
		})
	}
}

// TestIDWithoutProject: an ID whose project is unknown gets the findings
// the full name's check gives it once the project is known, word for word
// (one rule, subscription.CheckID).
func TestIDWithoutProject(t *testing.T) {
	for _, args := range []string{
		"goog-x --topic=top",
		"s --topic=top",
		"'my sub' --topic=top",
		"sub --topic=t1",
		"sub --topic=top --dead-letter-topic=goog-dl",
		"sub --topic=top --dead-letter-topic=1dl",
	} {
		const cmd = "gcloud pubsub subscriptions create "
		var without, with []string
		for _, d := range Read(Request{Text: cmd + args}).Diagnostics {
			if d.Code == "resource-name" {
				without = append(without, d.Path+": "+d.Message)
			}
		}
		res := Read(Request{Text: cmd + args, Project: "my-project"})
		for _, d := range subscription.Decode("", res.Doc.Root.JSON(), doc.JSON).Validate() {
			if d.Code == "resource-name" {
				with = append(with, d.Path+": "+d.Message)
			}
		}
		if len(without) == 0 || strings.Join(without, "\n") != strings.Join(with, "\n") {
			t.Errorf("%s:\n without a project: %q\n with one: %q", args, without, with)
		}
	}
}
