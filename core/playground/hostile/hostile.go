// Package hostile is a corpus of hostile requests to the contract: small
// inputs that once crashed, stalled or exhausted a surface, and every class
// of input shaped to do so. Each entry's tests (core/playground, the CLI,
// the HTTP handler natively and in workerd, the WebAssembly bridge) and the
// load test run the same cases, each within a time and memory budget far
// below what the bugs cost.
//
// Bodies are generated, not stored: a megabyte of nesting is a loop here,
// not a file in the repository.
package hostile

import (
	"strings"
)

// Case is one hostile request.
type Case struct {
	// Name is "class/variant", stable: tests and reports use it.
	Name string
	// Op is the contract operation the request is sent to.
	Op string
	// Body returns the request JSON. It is a function so that a corpus
	// of megabyte bodies costs nothing until a case runs.
	Body func() []byte
}

var cases []Case

// add registers cases; files of this package call it from init.
func add(cs ...Case) { cases = append(cases, cs...) }

// Cases returns every case, in registration order. Callers must not
// modify the result.
func Cases() []Case { return cases }

// textRequest wraps a configuration text in a request for op.
func textRequest(text, format string) []byte {
	var b strings.Builder
	b.Grow(len(text) + 64)
	b.WriteString(`{"text":`)
	writeJSONString(&b, text)
	if format != "" {
		b.WriteString(`,"format":"` + format + `"`)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// writeJSONString writes s as a JSON string, copying bytes of 0x80 and above
// as they are: unlike doc.QuoteJSON and encoding/json, it keeps invalid
// UTF-8 invalid, which some cases need to reach the server raw.
func writeJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

func init() {
	add(
		Case{Name: "yaml-depth/flow-5000", Op: "validate", Body: func() []byte {
			// a: {b: {b: ... }} 5,000 levels deep: overflowed the YAML
			// parser's stack in the browser.
			return textRequest("a: "+strings.Repeat("{b: ", 5000)+"1"+strings.Repeat("}", 5000)+"\n", "yaml")
		}},
		Case{Name: "locate/duplicate-keys-one-line", Op: "validate", Body: func() []byte {
			// One line of JSON with thousands of duplicate keys: locating
			// each finding counted columns from the start of the line.
			var b strings.Builder
			b.WriteString(`{"topic":"projects/p/topics/t"`)
			for b.Len() < 120_000 {
				b.WriteString(`,"labels":{}`)
			}
			b.WriteString("}")
			return textRequest(b.String(), "json")
		}},
	)
}
