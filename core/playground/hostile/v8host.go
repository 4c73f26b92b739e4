package hostile

import (
	_ "embed"
	"strings"
)

// v8Unbounded lists the cases a V8 host cannot stop in time (the file
// says why and how the list was measured).
//
//go:embed testdata/v8-unbounded.txt
var v8Unbounded string

// V8Unbounded returns the names of the cases a V8 host cannot stop in
// time: the engine does their work without polling, and the host cannot
// end a WebAssembly call from outside.
func V8Unbounded() map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(v8Unbounded, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out
}

// V8Host returns the cases the V8-host suites run (the page's worker,
// workerd, js/wasm in Node): every case but the V8Unbounded ones.
func V8Host() []Case {
	skip := V8Unbounded()
	var out []Case
	for _, c := range cases {
		if !skip[c.Name] {
			out = append(out, c)
		}
	}
	return out
}
