//go:build !noudf

package transform

import (
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
// one small UDF compiled and its top-level code run.
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		p, _ := Compile([]UDF{{FunctionName: "f", Code: redact}}, Options{})
		if len(p.Diagnostics[0]) > 0 {
			b.Fatal(p.Diagnostics[0])
		}
	}
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
// instrumentation's counter, allocation check included.
func BenchmarkSteps(b *testing.B) {
	p, _ := Compile([]UDF{{FunctionName: "f", Code: "function f(m) { for (var i = 0; i < 9999; i++) {} return m; }"}}, Options{})
	m := message.Message{Data: []byte("x")}
	for b.Loop() {
		p.steps = 0
		if st := p.Run(m); st[0].Outcome != Unchanged {
			b.Fatal(st[0])
		}
	}
}
