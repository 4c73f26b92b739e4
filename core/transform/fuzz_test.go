//go:build !noudf && !js

package transform

import (
	"testing"
	"time"

	"github.com/subplay/subplay/core/message"
)

// FuzzQuickJSUDF: whatever the code, compiling it and running it on a
// message never panics, every step has an outcome, and every finding's
// place is inside the code.
func FuzzQuickJSUDF(f *testing.F) {
	for _, code := range []string{
		"function f(m) { return m }",
		"function f(m) { return null }",
		"function f(m) { m.attributes.k = 'v'; return m }",
		"function f(m) { while (true) {} }",
		"function f(m) { return {data: JSON.stringify(JSON.parse(m.data))} }",
		"function f(m) { throw new Error('x') }",
		"let f = (m) => ({data: m.data.replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',')})",
		"function f(m) { console.log(m); return f(m) }",
		"function f(m) { return {data: 1} }",
		"function f(m) { const a = []; for (;;) a.push('x'.repeat(1e4)) }",
		"function f(",
	} {
		f.Add(code, "1234567")
	}
	f.Fuzz(func(t *testing.T, code, data string) {
		p, err := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{Now: time.Unix(0, 0)})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		check := func(where string, start, end int) {
			if start < 0 || end > len(code) || start > end {
				t.Fatalf("%s: a finding at %d-%d, outside %d bytes of code", where, start, end, len(code))
			}
		}
		for _, d := range p.Diagnostics[0] {
			if d.Span.IsValid() {
				check("compile", d.Span.Start.Offset(), d.Span.End.Offset())
			}
		}
		steps := p.Run(message.Message{Data: []byte(data)})
		if len(steps) != 1 || steps[0].Outcome == "" {
			t.Fatalf("steps: %+v", steps)
		}
		for _, d := range steps[0].Diagnostics {
			if d.Span.IsValid() {
				check("run", d.Span.Start.Offset(), d.Span.End.Offset())
			}
		}
	})
}

// TestProtoAttribute: an attribute named __proto__ reaches the UDF as a
// key of message.attributes, as JSON.parse makes it, and comes back.
func TestProtoAttribute(t *testing.T) {
	p, err := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { return {data: Object.keys(m.attributes).join(','), attributes: m.attributes} }"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	st := p.Run(message.Message{Data: []byte("x"), Attributes: map[string]string{"__proto__": "p", "a": "b"}})[0]
	if st.Outcome != Changed || string(st.Message.Data) != "__proto__,a" || st.Message.Attributes["__proto__"] != "p" {
		t.Fatalf("%+v", st)
	}
}
