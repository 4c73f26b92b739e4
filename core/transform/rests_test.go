package transform

import (
	"testing"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// TestBindsArguments: a generator whose parameters bind the name
// arguments (sloppy code may) keeps its rests uncharged at the call:
// keysName 4 reads the function's arguments, which that name would hide.
func TestBindsArguments(t *testing.T) {
	for code, want := range map[string]bool{
		"function* g(arguments, {...r}, ...a) {}":   true,
		"function* g({arguments}, {...r}, ...a) {}": true,
		"function* g({x: arguments}, ...a) {}":      true,
		"function* g([arguments = 1], ...a) {}":     true,
		"function* g({...r}, ...arguments) {}":      true,
		"function* g({...r}, ...a) {}":              false,
	} {
		prog, err := parser.ParseFile(nil, "", code, 0)
		if err != nil {
			t.Fatal(err)
		}
		fn := prog.Body[0].(*ast.FunctionDeclaration).Function
		if got := bindsArguments(fn.ParameterList); got != want {
			t.Errorf("%s: %v", code, got)
		}
	}
}
