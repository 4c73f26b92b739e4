//go:build !noudf

package transform

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
)

var sample = message.Message{
	Data:        []byte(`{"name":"Ada","ssn":"123-45-6789","country":"DE","amount":12.5}`),
	Attributes:  map[string]string{"source": "web"},
	MessageID:   "42",
	PublishTime: "2026-03-04T05:06:07.891Z",
	OrderingKey: "customer-7",
}

type want struct {
	outcome Outcome
	data    string            // when the message comes through
	attrs   map[string]string // when the message comes through (nil: none)
	code    string            // the finding's code, compile or run
	msg     string            // a part of the finding's message
	at      string            // the code text the finding points at (its start)
}

// The UDF patterns of the documentation (convert a format, redact a field,
// drop by content, add an attribute) and the contract's corners.
func TestPatterns(t *testing.T) {
	cases := []struct {
		name string
		code string
		want want
	}{
		{"redact a field", `function f(message, metadata) {
  const data = JSON.parse(message.data);
  delete data['ssn'];
  message.data = JSON.stringify(data);
  return message;
}`, want{outcome: Changed, data: `{"name":"Ada","country":"DE","amount":12.5}`, attrs: map[string]string{"source": "web"}}},
		{"convert JSON to CSV", `function f(message, metadata) {
  const d = JSON.parse(message.data);
  return {data: [d.name, d.country, d.amount].join(','), attributes: message.attributes};
}`, want{outcome: Changed, data: "Ada,DE,12.5", attrs: map[string]string{"source": "web"}}},
		{"drop by content", `function f(message, metadata) {
  if (JSON.parse(message.data).country === 'DE') return null;
  return message;
}`, want{outcome: Dropped}},
		{"add an attribute", `function f(message, metadata) {
  message.attributes['country'] = JSON.parse(message.data).country;
  return message;
}`, want{outcome: Changed, data: string(sample.Data), attrs: map[string]string{"source": "web", "country": "DE"}}},
		{"metadata", `function f(message, metadata) {
  return {data: [metadata.message_id, metadata.publish_time, metadata.ordering_key].join('|')};
}`, want{outcome: Changed, data: "42|2026-03-04T05:06:07.891Z|customer-7", attrs: map[string]string{"source": "web"}}},
		{"metadata is immutable", `function f(message, metadata) {
  metadata.message_id = 'x';
  return {data: metadata.message_id};
}`, want{outcome: Changed, data: "42", attrs: map[string]string{"source": "web"}}},
		{"empty attributes remove them all", `function f(message) { return {data: message.data, attributes: {}}; }`,
			want{outcome: Changed, data: string(sample.Data)}},
		{"absent attributes keep them", `function f(message) { return {data: 'x'}; }`,
			want{outcome: Changed, data: "x", attrs: map[string]string{"source": "web"}}},
		{"unchanged", `function f(message) { return message; }`,
			want{outcome: Unchanged, data: string(sample.Data), attrs: map[string]string{"source": "web"}}},
		{"a const arrow function", `const f = (m) => m;`,
			want{outcome: Unchanged, data: string(sample.Data), attrs: map[string]string{"source": "web"}}},
		{"the clock is the publish time, in UTC", `function f(m) { return {data: new Date().toISOString() + ' ' + new Date().getHours()}; }`,
			want{outcome: Changed, data: "2026-03-04T05:06:07.891Z 5", attrs: map[string]string{"source": "web"}}},

		{"returns undefined", `function f(m) { m.data = 'x'; }`, want{outcome: Failed, code: "udf-result-shape", msg: "returned undefined"}},
		{"returns a string", `function f(m) { return 'x'; }`, want{outcome: Failed, code: "udf-result-shape", msg: "a string, not an object"}},
		{"returns an array", `function f(m) { return [m]; }`, want{outcome: Failed, code: "udf-result-shape", msg: "an array, not an object"}},
		{"data not a string", `function f(m) { return {data: JSON.parse(m.data)}; }`, want{outcome: Failed, code: "udf-result-shape", msg: "data is an object"}},
		{"data missing", `function f(m) { return {attributes: {}}; }`, want{outcome: Failed, code: "udf-result-shape", msg: "no data"}},
		{"String object data", `function f(m) { return {data: new String('x')}; }`, want{outcome: Failed, code: "udf-result-shape", msg: "a String object"}},
		{"attribute not a string", `function f(m) { m.attributes.n = 3; return m; }`, want{outcome: Failed, code: "udf-result-shape", msg: `attribute "n" is a number (3)`}},
		{"attributes not an object", `function f(m) { return {data: m.data, attributes: 'a=b'}; }`, want{outcome: Failed, code: "udf-result-shape", msg: "attributes is a string"}},
		{"extra key", `function f(m) { return {data: m.data, attributes: {}, orderingKey: 'k'}; }`, want{outcome: Failed, code: "udf-result-shape", msg: `key "orderingKey"`}},
		{"too many attributes after", `function f(m) { for (var i = 0; i < 101; i++) m.attributes['k' + i] = 'v'; return m; }`,
			want{outcome: Failed, code: "udf-result-limit", msg: "breaks a limit"}},

		{"throw", "function f(m) {\n  throw new Error('bad');\n}", want{outcome: Failed, code: "udf-exception", msg: `threw "Error: bad"`, at: "new Error"}},
		{"type error", "function f(m) {\n  return m.nothing.x;\n}", want{outcome: Failed, code: "udf-exception", msg: "TypeError", at: "x;"}},
		{"a built-in throws", "function f(m) {\n  return {data: JSON.parse('not')};\n}", want{outcome: Failed, code: "udf-exception", msg: "SyntaxError", at: "parse("}},
		{"a condition's built-in throws", "function f(m) {\n  if (JSON.parse('not')) return m;\n}", want{outcome: Failed, code: "udf-exception", msg: "SyntaxError", at: "parse("}},
		{"syntax error", "function f(m) {\n  return {data: m.data +};\n}", want{outcome: NotRun, code: "udf-syntax", at: "};"}},
		{"missing function", `function g(m) { return m; }`, want{outcome: NotRun, code: "udf-function-missing", msg: `no function "f"`}},
		{"not a function", `var f = 3;`, want{outcome: NotRun, code: "udf-function-missing", msg: "is a number, not a function"}},
		{"top-level throw", "var x = 1;\nthrow 'early';\nfunction f(m) { return m; }", want{outcome: NotRun, code: "udf-exception", msg: "its top-level code threw"}},
		{"top-level loop", "while (true) {}\nfunction f(m) { return m; }", want{outcome: NotRun, code: "udf-budget", msg: "top-level code was stopped"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkRun(t, tc.code, sample, tc.want) })
	}
}

func checkRun(t *testing.T, code string, m message.Message, w want) {
	t.Helper()
	p, err := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	steps := p.Run(m)
	if len(steps) != 1 {
		t.Fatalf("%d steps, want 1", len(steps))
	}
	st := steps[0]
	ds := append(append([]diag.Diagnostic{}, p.Diagnostics[0]...), st.Diagnostics...)
	if st.Outcome != w.outcome {
		t.Fatalf("outcome %s, want %s; findings %v", st.Outcome, w.outcome, ds)
	}
	if w.outcome == Changed || w.outcome == Unchanged {
		if got := string(st.Message.Data); got != w.data {
			t.Errorf("data %q, want %q", got, w.data)
		}
		if !maps.Equal(st.Message.Attributes, w.attrs) {
			t.Errorf("attributes %v, want %v", st.Message.Attributes, w.attrs)
		}
	}
	if w.code == "" {
		// A loaded machine may take long enough for the time warning.
		ds = slices.DeleteFunc(ds, func(d diag.Diagnostic) bool { return d.Code == "udf-slow" })
		if len(ds) > 0 {
			t.Errorf("unexpected findings %v", ds)
		}
		return
	}
	for _, d := range ds {
		if d.Code != w.code {
			continue
		}
		if !strings.Contains(d.Message, w.msg) {
			t.Errorf("message %q does not say %q", d.Message, w.msg)
		}
		if w.at != "" {
			if !d.Span.IsValid() || !strings.HasPrefix(code[d.Span.Start.Offset():], w.at) {
				t.Errorf("finding at %v (%q), want at %q", d.Span, code[min(d.Span.Start.Offset(), len(code)):], w.at)
			}
		}
		return
	}
	t.Errorf("no finding %s in %v", w.code, ds)
}

// Transforms run in order; a drop stops the rest.
func TestChain(t *testing.T) {
	p, _ := Compile([]UDF{
		{FunctionName: "a", Code: "function a(m) { m.attributes.a = '1'; return m; }"},
		{FunctionName: "b", Code: "function b(m) { return m.attributes.a === '1' ? null : m; }"},
		{FunctionName: "c", Code: "function c(m) { throw 'never'; }"},
	}, Options{})
	st := p.Run(message.Message{Data: []byte("x")})
	got := []Outcome{st[0].Outcome, st[1].Outcome, st[2].Outcome}
	if got[0] != Changed || got[1] != Dropped || got[2] != NotRun {
		t.Fatalf("outcomes %v", got)
	}
}

// Hostile UDFs end with a finding, never a hang or a crash.

// A call whose caller has gone stops at the engine's next poll, and the
// request's later messages are not run (Options.Ctx).
func TestCancelledCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p, err := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { while (true) {} }"}}, Options{Ctx: ctx})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cancel()
	start := time.Now()
	st := p.Run(message.Message{Data: []byte("x")})
	if st[0].Outcome != Failed || len(st[0].Diagnostics) == 0 || st[0].Diagnostics[0].Code != "udf-cancelled" {
		t.Fatalf("got %v %v, want failed with udf-cancelled", st[0].Outcome, st[0].Diagnostics)
	}
	if p.Interrupts() > 1 {
		t.Errorf("the call ran %d polls after its caller had gone", p.Interrupts())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if st := p.Run(message.Message{Data: []byte("y")}); st[0].Outcome != NotRun {
		t.Errorf("the next message: %v, want not run", st[0].Outcome)
	}
}

func TestFindingSpansWholeCharacters(t *testing.T) {
	for _, code := range []string{"function f(A){ս}", "function f(m) { return ս }", "function f(m) { 1ս }", "function f(m) { x = 'é' ս }"} {
		p, err := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ds := append([]diag.Diagnostic{}, p.Diagnostics[0]...)
		for _, st := range p.Run(message.Message{Data: []byte("x")}) {
			ds = append(ds, st.Diagnostics...)
		}
		found := false
		for _, d := range ds {
			if !d.Span.IsValid() {
				continue
			}
			found = true
			a, b := d.Span.Start.Offset(), d.Span.End.Offset()
			if a < 0 || b > len(code) || a > b || !utf8.ValidString(code[a:b]) || a < len(code) && !utf8.RuneStart(code[a]) || b < len(code) && !utf8.RuneStart(code[b]) {
				t.Errorf("%q: %s spans %d-%d, cutting a character", code, d.Code, a, b)
			}
		}
		if !found {
			t.Errorf("%q: no positioned finding in %v", code, ds)
		}
	}
}

// Math.random is a fixed sequence: the same request gives the same
// preview every time it is sent (docs/transforms.md).
func TestRandomIsFixed(t *testing.T) {
	run := func() string {
		p, err := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { return {data: String(Math.random()) + ' ' + Math.random()} }"}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		st := p.Run(sample)
		if st[0].Outcome != Changed {
			t.Fatalf("%v %v", st[0].Outcome, st[0].Diagnostics)
		}
		return string(st[0].Message.Data)
	}
	a, b := run(), run()
	if a != b {
		t.Errorf("two runs gave %q and %q", a, b)
	}
	if x := strings.Fields(a); len(x) != 2 || x[0] == x[1] {
		t.Errorf("not a sequence: %q", a)
	}
}
