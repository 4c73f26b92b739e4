//go:build js

package quickjs

import (
	"testing"

	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/transform"
)

// TestTransform runs a UDF through core/transform on this host, with an
// attribute named __proto__, which must reach the UDF and come back.
func TestTransform(t *testing.T) {
	p, err := transform.Compile([]transform.UDF{{FunctionName: "f", Code: "function f(m) { return {data: Object.keys(m.attributes).join(','), attributes: m.attributes} }"}}, transform.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if len(p.Diagnostics[0]) > 0 {
		t.Fatalf("compile: %v", p.Diagnostics[0])
	}
	st := p.Run(message.Message{Data: []byte("x"), Attributes: map[string]string{"__proto__": "p", "a": "b"}})[0]
	if st.Outcome != transform.Changed || string(st.Message.Data) != "__proto__,a" || st.Message.Attributes["__proto__"] != "p" {
		t.Fatalf("%+v", st)
	}
}
