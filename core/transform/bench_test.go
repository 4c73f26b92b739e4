//go:build !noudf && !quickjs

package transform

import (
	"context"
	"fmt"
	"testing"

	"github.com/subplay/subplay/core/message"
)

const redact = `function f(message, metadata) {
  const data = JSON.parse(message.data);
  delete data['ssn'];
  message.data = JSON.stringify(data);
  return message;
}`

// BenchmarkStart is the engine's start-up: a runtime made, sandboxed, and
// one small UDF compiled and its top-level code run (the cache off).
func BenchmarkStart(b *testing.B) {
	withCache(false, func() {
		for b.Loop() {
			p, _ := Compile([]UDF{{FunctionName: "f", Code: redact}}, Options{})
			if len(p.Diagnostics[0]) > 0 {
				b.Fatal(p.Diagnostics[0])
			}
		}
	})
}

// BenchmarkCall is one call of the documentation's redact pattern.
func BenchmarkCall(b *testing.B) {
	p, _ := Compile([]UDF{{FunctionName: "f", Code: redact}}, Options{})
	for b.Loop() {
		if st := p.Run(sample); st[0].Outcome != Changed {
			b.Fatal(st[0])
		}
	}
}

// BenchmarkSteps is 10,000 steps (loop iterations): the cost of the
// instrumentation's counter, allocation check included; "with a context"
// adds the look at the call's context that lets a server or the worker
// cancel it and pause it (Options.Ctx, stop.Check).
func BenchmarkSteps(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, opts := range []struct {
		name string
		Options
	}{{"without a context", Options{}}, {"with a context", Options{Ctx: ctx}}} {
		b.Run(opts.name, func(b *testing.B) {
			p, _ := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { for (var i = 0; i < 9999; i++) {} return m; }"}}, opts.Options)
			m := message.Message{Data: []byte("x")}
			for b.Loop() {
				p.steps = 0
				if st := p.Run(m); st[0].Outcome != Unchanged {
					b.Fatal(st[0])
				}
			}
		})
	}
}

// BenchmarkValidate is what validate does on each keystroke of a
// configuration with two UDFs whose code did not change: compile them and
// read their findings. "compile" has the cache off (every call compiles),
// "cached" on.
func BenchmarkValidate(b *testing.B) {
	udfs := []UDF{
		{FunctionName: "f", Code: redact},
		{FunctionName: "g", Code: "const seen = {};\nfunction g(message, metadata) {\n  const d = JSON.parse(message.data);\n  if (/^\\d{3}-\\d{2}-\\d{4}$/.test(d.ssn || '')) d.ssn = '***';\n  message.attributes.kind = `${d.country || 'none'}-${Object.keys(d).length}`;\n  return {data: JSON.stringify(d), attributes: message.attributes};\n}"},
	}
	for _, on := range []bool{false, true} {
		name := map[bool]string{false: "compile", true: "cached"}[on]
		b.Run(name, func(b *testing.B) {
			withCache(on, func() {
				b.ReportAllocs()
				for b.Loop() {
					p, _ := Compile(udfs, Options{})
					if len(p.Diagnostics[0])+len(p.Diagnostics[1]) > 0 {
						b.Fatal(p.Diagnostics)
					}
				}
			})
		})
	}
}

// BenchmarkConcat is a call that adds strings 3,000 times (a loop of +=
// and a + of three parts): the cost of the check before each +, which
// notes the operands' lengths and reads the allocation counter.
func BenchmarkConcat(b *testing.B) {
	p, _ := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { var s = ''; for (var i = 0; i < 1000; i++) { s += '<' + i + '>'; } return {data: s}; }"}}, Options{})
	m := message.Message{Data: []byte("x")}
	for b.Loop() {
		p.steps = 0
		if st := p.Run(m); st[0].Outcome != Changed {
			b.Fatal(st[0])
		}
	}
}

// BenchmarkRests is a call that copies 200 records' rests, nested in a
// loop head's pattern ({a, ...rest} of each entry): what capture's first
// key (capture.go) and its charge cost ordinary code.
func BenchmarkRests(b *testing.B) {
	code := `function f(m) {
  const out = [];
  for (const [k, {a, ...rest}] of Object.entries(JSON.parse(m.data))) out.push(rest);
  return {data: String(out.length)};
}`
	data := []byte("{")
	for i := range 200 {
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, fmt.Sprintf(`"k%d":{"a":1,"b":2,"c":3,"d":4}`, i)...)
	}
	data = append(data, '}')
	p, _ := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{})
	m := message.Message{Data: data}
	for b.Loop() {
		p.steps, p.allocated = 0, 0 // each call a request of its own
		if st := p.Run(m); st[0].Outcome != Changed {
			b.Fatal(st[0])
		}
	}
}

// BenchmarkConstruct is a call making 1,000 objects through constructors
// (a function's new, a class and a derived class with fields, one of them
// given a prototype by Object.create): what the checks of prototype chains
// (chains.go) cost ordinary code.
func BenchmarkConstruct(b *testing.B) {
	code := `function f(m) {
  function P(x) { this.x = x }
  P.prototype.sum = function () { return this.x + 1 };
  class A { a = 1; constructor(x) { this.x = x } }
  class B extends A { b = 2; constructor(x) { super(x); this.c = 3 } }
  let s = 0;
  for (let i = 0; i < 250; i++) {
    const p = new P(i), a = new A(i), q = new B(i), o = Object.create(p);
    s += p.sum() + a.x + q.c + o.x;
  }
  return {data: String(s)};
}`
	p, _ := Compile([]UDF{{FunctionName: "f", Code: code}}, Options{})
	m := message.Message{Data: []byte("x")}
	for b.Loop() {
		p.steps, p.allocated = 0, 0 // each call a request of its own
		if st := p.Run(m); st[0].Outcome != Changed {
			b.Fatal(st[0])
		}
	}
}
