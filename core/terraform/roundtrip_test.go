//go:build !nohcl

package terraform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
)

// roundTrip writes s as Terraform, reads it back and fails unless the
// subscription read is s, apart from the fields the writer's notes say it
// cannot carry as they are.
func roundTrip(t *testing.T, name string, s *subscription.Subscription) {
	t.Helper()
	w := Write(s, Options{Import: true})
	res := Read(Request{Name: "rt.tf", Text: w.Text})
	noted := map[string]bool{}
	for _, n := range w.Notes {
		noted[n.Path] = true
	}
	for _, d := range res.Diagnostics {
		if (d.Severity == diag.Error || strings.HasPrefix(d.Code, "terraform-unknown")) && !noted[d.Path] {
			t.Errorf("%s: reading the written resource: %s: %s\n%s", name, d.Code, d.Message, w.Text)
		}
	}
	for _, u := range res.Unknown {
		if !noted[u] {
			t.Errorf("%s: the written resource leaves %s unknown\n%s", name, u, w.Text)
		}
	}
	back := subscription.FromDoc(res.Doc, subscription.Reading{Diagnostics: res.Diagnostics, Judged: res.Known})
	if back.Sub == nil {
		t.Fatalf("%s: nothing read back\n%s", name, w.Text)
	}
	want, got := generic(t, s), generic(t, back.Sub)
	for _, n := range w.Notes {
		drop(want, n.Path)
		drop(got, n.Path)
	}
	if !reflect.DeepEqual(want, got) {
		wj, _ := json.Marshal(want)
		gj, _ := json.Marshal(got)
		t.Errorf("%s: the round trip changes the subscription\nwant %s\ngot  %s\n%s", name, wj, gj, w.Text)
	}
}

func generic(t *testing.T, s *subscription.Subscription) map[string]any {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

// drop removes the value at a JSON pointer.
func drop(m any, path string) {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, s := range segs {
		last := i == len(segs)-1
		switch v := m.(type) {
		case map[string]any:
			if last {
				delete(v, s)
				return
			}
			m = v[s]
		case []any:
			k, err := strconv.Atoi(s)
			if err != nil || k >= len(v) {
				return
			}
			if last {
				v[k] = nil
				return
			}
			m = v[k]
		default:
			return
		}
	}
}

// TestRoundTripExamples: every example configuration of the repository
// reads back from the Terraform written from it.
func TestRoundTripExamples(t *testing.T) {
	paths, _ := filepath.Glob("../subscription/testdata/examples/*")
	if len(paths) == 0 {
		t.Fatal("no examples found")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			c := subscription.Decode(p, string(b), "")
			if c.Sub == nil {
				t.Fatal("the example does not decode")
			}
			roundTrip(t, p, c.Sub)
			if e := c.Effective(); e != nil {
				roundTrip(t, p+" (effective)", e.Subscription)
			}
		})
	}
}

// TestRoundTripGenerated: for every settable field of the rule table, a
// configuration with the field at and around its bounds (and awkward
// strings for string fields) reads back from the Terraform written from
// it. Out-of-bounds values too: the writer must carry what it is given.
func TestRoundTripGenerated(t *testing.T) {
	n := 0
	for _, f := range subscription.Fields() {
		if f.OutputOnly || f.Kind == subscription.KindObject || f.Kind == subscription.KindArray {
			continue
		}
		for i, v := range valuesAround(f) {
			obj := base(f.Path)
			set(obj, strings.ReplaceAll(f.Path, "*", "0"), v)
			raw, _ := json.Marshal(obj)
			c := subscription.DecodeObject(raw)
			if c.Sub == nil {
				t.Fatalf("%s: %s does not decode", f.Path, raw)
			}
			roundTrip(t, f.Path+"#"+strconv.Itoa(i)+" "+string(raw), c.Sub)
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d generated configurations; the table should give more", n)
	}
}

// base is a minimal configuration with what the field's enclosing block
// needs to be written at all (the provider's required attributes).
func base(path string) map[string]any {
	m := map[string]any{"name": "projects/shop-prod/subscriptions/orders", "topic": "projects/shop-prod/topics/orders"}
	switch {
	case strings.HasPrefix(path, "/pushConfig/"):
		set(m, "/pushConfig/pushEndpoint", "https://example.com/push")
		if strings.HasPrefix(path, "/pushConfig/oidcToken/") {
			set(m, "/pushConfig/oidcToken/serviceAccountEmail", "pusher@shop-prod.iam.gserviceaccount.com")
		}
	case strings.HasPrefix(path, "/bigqueryConfig/"):
		set(m, "/bigqueryConfig/table", "shop-prod.sales.orders")
	case strings.HasPrefix(path, "/cloudStorageConfig/"):
		set(m, "/cloudStorageConfig/bucket", "orders-archive")
	case strings.HasPrefix(path, "/deadLetterPolicy/"):
		set(m, "/deadLetterPolicy/deadLetterTopic", "projects/shop-prod/topics/dead")
	case strings.HasPrefix(path, "/messageTransforms/*/javascriptUdf/"):
		set(m, "/messageTransforms/0/javascriptUdf/functionName", "f")
		set(m, "/messageTransforms/0/javascriptUdf/code", "function f(m) { return m; }")
	}
	return m
}

func set(m map[string]any, path string, v any) {
	segs := strings.Split(path[1:], "/")
	var cur any = m
	for i, s := range segs {
		last := i == len(segs)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[s] = v
				return
			}
			next, ok := c[s]
			if !ok {
				if segs[i+1] == "0" {
					next = []any{map[string]any{}}
				} else {
					next = map[string]any{}
				}
				c[s] = next
			}
			cur = next
		case []any:
			cur = c[0]
		}
	}
}

// awkward are strings that test the HCL writer's escaping.
var awkward = []string{"", "x", `say "hi"`, `back\slash`, "${var.x}", "%{ if true }", "$${", "$$${x}", "%%{", "line\nbreak", "tab\there",
	"multi\nline\ncode\n", "ünïcödé ✓", "\x01ctl", "EOT\nEOT\n", "ends with $", "ends with %", "${", "a${b}c%{d}e", "e\u0301 not NFC"}

// valuesAround returns the values to try for a field: its bounds and one
// step beyond each, or awkward strings.
func valuesAround(f *subscription.Field) []any {
	var out []any
	switch f.Kind {
	case subscription.KindBool:
		return []any{true, false}
	case subscription.KindInt32, subscription.KindInt64:
		out = append(out, 0, -1)
		for _, b := range []string{f.Min, f.Max} {
			if n, err := strconv.ParseInt(b, 10, 64); err == nil {
				out = append(out, n-1, n, n+1)
			}
		}
		if f.Kind == subscription.KindInt64 {
			out = append(out, strconv.FormatInt(1<<62, 10))
		}
	case subscription.KindDuration:
		out = append(out, "0s", "3.5s", "0.000000001s")
		for _, b := range []string{f.Min, f.Max} {
			if d, err := subscription.ParseDuration(b); err == nil {
				for _, delta := range []int64{-1, 0, 1} {
					out = append(out, subscription.Duration{Seconds: d.Seconds + delta}.String())
				}
			}
		}
	case subscription.KindString, subscription.KindBytes:
		for _, s := range awkward {
			out = append(out, s)
		}
		if n, err := strconv.Atoi(f.Max); err == nil && f.Unit == "bytes" {
			out = append(out, strings.Repeat("a", n), strings.Repeat("a", n+1))
		}
		for _, e := range f.Enum {
			out = append(out, e)
		}
	case subscription.KindMap:
		out = append(out, map[string]any{}, map[string]any{"env": "prod", "team": "a${b}"}, map[string]any{"for": "x", "null": "y", "a.b": "z", "x-goog-version": "v1"})
	}
	return out
}
