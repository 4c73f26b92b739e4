package gcloudcmd

import (
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/limits"
)

// FuzzRead: no panic, every position inside the input, every node's span
// inside the input, and output that stays proportional to the input.
func FuzzRead(f *testing.F) {
	for _, c := range loadCorpus(f) {
		f.Add(c.cmd)
	}
	for _, s := range []string{
		"", "gcloud", "$ gcloud pubsub subscriptions create s --topic=$T", "gcloud pubsub subscriptions update s --clear-labels",
		"gcloud pubsub subscriptions create s --topic=t --labels=a=b,,c=d", "gcloud pubsub subscriptions create \"s\\\n --topic='t",
		"gcloud pubsub subscriptions create s `\r\n --topic=t 2>&1 >", "gcloud pubsub subscriptions create s --topic=${X:-$(echo ${Y})}",
		"PS C:\\> gcloud pubsub subscriptions create s --topic=<t> --expiration-period=P1Y2M3DT4H5M6.5S",
		"gcloud pubsub subscriptions create s --topic=t --cloud-storage-bucket=b --cloud-storage-max-bytes=99999999999999999999999999PB",
		"export P=x\n$ gcloud --project=\"$P\" pubsub subscriptions create s --topic=t; gcloud beta pubsub topics create t --x\ngcloud pubsub subscriptions update",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res := Read(Request{Text: text, Files: map[string]string{"mt.json": `[{"javascriptUdf":{"functionName":"f","code":"x"}}]`}})
		diagtest.Check(t, text, res.Diagnostics)
		if len(res.Diagnostics) > diag.MaxDiagnostics+1 {
			t.Fatalf("%d findings", len(res.Diagnostics))
		}
		if res.Doc.Root != nil {
			checkSpans(t, res, len(text))
			if out := len(res.Doc.Root.JSON()); len(text) <= limits.GcloudMaxBytes && out > 4*len(text)+4096 {
				t.Fatalf("output %d bytes for %d bytes of input", out, len(text))
			}
		}
	})
}

func checkSpans(t *testing.T, res *Result, n int) {
	t.Helper()
	stack := []*nodeRef{{res.Doc.Root, 0}}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		sp := r.n.Span
		if sp.IsValid() && (sp.Start.Offset() > n || sp.End.Offset() > n) {
			t.Fatalf("node span %v outside the input of %d bytes", sp, n)
		}
		for _, it := range r.n.Items {
			stack = append(stack, &nodeRef{it, r.depth + 1})
		}
		for _, m := range r.n.Members {
			if m.KeySpan.IsValid() && m.KeySpan.End.Offset() > n {
				t.Fatalf("key %q span outside the input", m.Key)
			}
			stack = append(stack, &nodeRef{m.Value, r.depth + 1})
		}
	}
}

// TestReadCostLinear: hostile inputs at the size limit stay cheap; the
// benchmark BenchmarkReadHostile measures them.
func TestReadHostileBounded(t *testing.T) {
	for name, text := range hostileInputs() {
		t.Run(name, func(t *testing.T) {
			res := Read(Request{Text: text})
			if len(res.Diagnostics) > diag.MaxDiagnostics+1 {
				t.Fatalf("%d findings", len(res.Diagnostics))
			}
		})
	}
}

func hostileInputs() map[string]string {
	big := limits.GcloudMaxBytes - 100
	pre := "gcloud pubsub subscriptions create s --topic=t "
	return map[string]string{
		"many flags":      pre + strings.Repeat("--ack-deadline=1 ", big/17),
		"long word":       pre + "--message-filter=" + strings.Repeat("a", big),
		"many labels":     pre + "--labels=" + strings.Repeat("a=b,", big/4),
		"long duration":   pre + "--expiration-period=" + strings.Repeat("1d", big/2),
		"nested $(":       pre + "--topic=" + strings.Repeat("$(", big/2),
		"many quotes":     pre + strings.Repeat(`"" `, big/3),
		"continuations":   pre + strings.Repeat("\\\n", big/2),
		"unknown flags":   pre + strings.Repeat("--ack-deadlinez=1 ", big/18),
		"too large":       strings.Repeat("x", limits.GcloudMaxBytes+1),
		"many commands":   strings.Repeat(pre+";", big/len(pre)),
		"redirects":       pre + strings.Repeat("2>x ", big/4),
		"long size":       pre + "--cloud-storage-bucket=b --cloud-storage-max-bytes=" + strings.Repeat("9", big) + "." + "5KB",
		"angle brackets":  pre + strings.Repeat("<a> ", big/4),
		"long unknown --": pre + "--" + strings.Repeat("x", big),
	}
}

func BenchmarkReadHostile(b *testing.B) {
	for name, text := range hostileInputs() {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Read(Request{Text: text})
			}
		})
	}
}

type nodeRef struct {
	n     *doc.Node
	depth int
}
