package transform

import (
	"fmt"
	"testing"

	"github.com/dop251/goja/parser"
)

func TestZZShow(t *testing.T) {
	code := "function f(m) { for (;;) var {a: {...r}} = {a: {d: 1}}, stop = (function () { throw 1 }); return m }"
	prog, err := parser.ParseFile(nil, "udf", code, 0)
	if err != nil {
		t.Fatal(err)
	}
	in, ok := instrument(code, prog)
	fmt.Println(ok, in.text)
}
