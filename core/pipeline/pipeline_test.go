//go:build !nocel && !noudf

package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/doc"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/subscription"
)

const head = "name: projects/p/subscriptions/s\ntopic: projects/p/topics/t\n"

func udf(code string) string {
	return "messageTransforms:\n  - javascriptUdf:\n      functionName: f\n      code: '" + code + "'\n"
}

// summary is each result's outcome, the transform that decided it and
// the filter's verdicts (transformed/published), and the counts.
func summary(run *Run) string {
	var b strings.Builder
	for _, r := range run.Results {
		fmt.Fprintf(&b, "%s", r.Outcome)
		if r.By != nil {
			fmt.Fprintf(&b, " by %d", *r.By)
		}
		if r.Match != nil {
			fmt.Fprintf(&b, " %v/%v", *r.Match, *r.MatchOriginal)
		}
		b.WriteString("; ")
	}
	fmt.Fprintf(&b, "d%d x%d f%d a%d i%d", run.Delivered, run.Dropped, run.Failed, run.Acked, run.Invalid)
	return b.String()
}

// TestMessages holds the pipeline's rules: transforms first, in order,
// then the filter on what they produce, with the verdict on the message
// as published beside it; a dropped or failed message goes no further; an
// invalid one never runs; every message counts once.
func TestMessages(t *testing.T) {
	const msgs = `[{"data":"YQ==","attributes":{"k":"1"}},{"data":"Yg==","attributes":{"k":"2"}},{"data":"Yw==","attributes":{"k":"3"}},{"data":"!!"}]`
	tests := []struct {
		name, config string
		want         string
	}{
		{"nothing to run", head, "delivered; delivered; delivered; invalid; d3 x0 f0 a0 i1"},
		{"the filter alone", head + "filter: attributes.k = \"2\"\n", "acked false/false; delivered true/true; acked false/false; invalid; d1 x0 f0 a2 i1"},
		{"the filter sees the transformed message", head + "filter: attributes.k = \"9\"\n" + udf(`function f(m) { if (m.attributes.k === "1") m.attributes.k = "9"; return m; }`),
			"delivered true/false; acked false/false; acked false/false; invalid; d1 x0 f0 a2 i1"},
		{"a drop and a throw", head + udf(`function f(m) { if (m.attributes.k === "1") return null; if (m.attributes.k === "2") throw new Error("no"); return m; }`),
			"dropped by 0; failed by 0; delivered; invalid; d1 x1 f1 a0 i1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := subscription.Decode("config", tc.config, doc.YAML)
			decoded, ds := message.Parse("messages", msgs, doc.JSON)
			run, err := Messages(context.Background(), cfg, Filter(cfg), decoded, ds, time.Unix(0, 0).UTC())
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(run); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestStepsAndFinal: each step holds the message the transform returned
// and what it changed; the final message keeps the original's id, which
// transforms cannot change.
func TestStepsAndFinal(t *testing.T) {
	cfg := subscription.Decode("config", head+udf(`function f(m) { m.data = "B"; delete m.attributes.gone; m.attributes.k = "2"; m.attributes.added = "x"; return m; }`), doc.YAML)
	decoded, ds := message.Parse("messages", `[{"data":"YQ==","messageId":"id-1","attributes":{"k":"1","gone":"g"}}]`, doc.JSON)
	run, err := Messages(context.Background(), cfg, nil, decoded, ds, time.Unix(0, 0).UTC())
	if err != nil {
		t.Fatal(err)
	}
	r := run.Results[0]
	if len(r.Steps) != 1 || r.Steps[0].Outcome != "changed" || string(r.Steps[0].Message.Data) != "B" {
		t.Fatalf("steps %+v", r.Steps)
	}
	var got []string
	for _, c := range r.Steps[0].Changes {
		s := c.Field + " " + c.Kind
		if c.Before != nil {
			s += " from " + *c.Before
		}
		if c.After != nil {
			s += " to " + *c.After
		}
		got = append(got, s)
	}
	want := "data changed|attributes.added added to x|attributes.gone removed from g|attributes.k changed from 1 to 2"
	if strings.Join(got, "|") != want {
		t.Errorf("changes %q\nwant    %q", strings.Join(got, "|"), want)
	}
	if r.Final == nil || r.Final.MessageID != "id-1" || string(r.Final.Data) != "B" {
		t.Errorf("final %+v, want the transformed message with the original's id", r.Final)
	}
}

// TestDownstream: a preview writes only what comes through, as
// transformed, and says which sample message each comes from; with
// nothing to select or change it gets no answer and writes the samples.
func TestDownstream(t *testing.T) {
	const msgs = `[{"data":"YQ==","attributes":{"k":"1"}},{"data":"Yg==","attributes":{"k":"2"}}]`
	decoded, ds := message.Parse("messages", msgs, doc.JSON)
	plain := subscription.Decode("config", head, doc.YAML)
	if w, err := Downstream(context.Background(), plain, decoded, ds, time.Time{}); w != nil || err != nil {
		t.Errorf("nothing to run: %+v, %v; want no answer", w, err)
	}
	cfg := subscription.Decode("config", head+"filter: attributes.k = \"2\"\n"+udf(`function f(m) { m.data = m.data.toUpperCase(); return m; }`), doc.YAML)
	w, err := Downstream(context.Background(), cfg, decoded, ds, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if w.Transforms != 1 || len(w.Origin) != 1 || w.Origin[0] != 1 || string(w.Messages[0].Data) != "B" {
		t.Errorf("transforms %d, origin %v, messages %+v; want one UDF, sample 1 written as B", w.Transforms, w.Origin, w.Messages)
	}
}
