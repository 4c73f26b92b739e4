package subscription

import (
	"reflect"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/doc"
)

// TestFromDoc: a document another reader parsed is checked as Decode
// checks text, with that reader's findings beside the rules' and rule
// findings at paths it does not judge left out.
func TestFromDoc(t *testing.T) {
	const text = `{"name": "projects/p/subscriptions/sub-1", "topic": "bad topic", "ackDeadlineSeconds": 5}`
	note := diag.Diagnostic{Severity: diag.Info, Code: "reader-note", Message: "a note from the reader", Span: diag.SpanOf(0, 1)}
	codes := func(ds []diag.Diagnostic) map[string]string {
		m := map[string]string{}
		for _, d := range ds {
			m[d.Code+" at "+d.Path] = d.Path
			if d.Input != diag.InputConfig {
				t.Errorf("%s: input %q, want %q", d.Code, d.Input, diag.InputConfig)
			}
		}
		return m
	}
	want := codes(Decode("c.json", text, doc.JSON).Validate())
	if len(want) < 2 || want["resource-name at /topic"] == "" {
		t.Fatalf("the case needs findings at /topic and elsewhere, Decode gives %v", want)
	}
	for _, tc := range []struct {
		name   string
		read   []diag.Diagnostic
		judged func(string) bool
		drop   string // the path whose findings go
	}{
		{"as Decode", nil, nil, ""},
		{"with the reader's note", []diag.Diagnostic{note}, nil, ""},
		{"topic unknown", nil, func(p string) bool { return p != "/topic" }, "/topic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, ds := doc.Parse("c.json", text, doc.JSON)
			if len(ds) > 0 {
				t.Fatal(ds)
			}
			c := FromDoc(d, Reading{Diagnostics: tc.read, Judged: tc.judged})
			exp := map[string]string{}
			for code, p := range want {
				if tc.drop == "" || p != tc.drop {
					exp[code] = p
				}
			}
			for _, r := range tc.read {
				exp[r.Code+" at "+r.Path] = r.Path
			}
			got := c.Validate()
			if g := codes(got); !reflect.DeepEqual(g, exp) {
				t.Errorf("findings %v, want %v", g, exp)
			}
			for _, d := range got {
				if d.Line == 0 {
					t.Errorf("%s has no line", d.Code)
				}
			}
			if c.Effective() == nil {
				t.Error("a whole subscription has effective settings")
			}
			d, _ = doc.Parse("c.json", text, doc.JSON)
			if FromDoc(d, Reading{Changes: true}).Effective() != nil {
				t.Error("the changes of an update have effective settings")
			}
		})
	}
}
