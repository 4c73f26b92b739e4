// Package celfilter evaluates Pub/Sub filters with cel-go.
//
// Compile walks a filter's AST and builds the equivalent CEL expression
// node by node with cel-go's expression factory, type-checks it against
// attributes: map(string, string) and plans a program. No filter text is
// ever handed to the CEL parser: the two languages differ (keys with
// hyphens, !=, NOT, quoting), and building the tree directly means the CEL
// program is exactly the AST we parsed.
//
// Each condition becomes a guarded CEL expression, so no evaluation can
// fail on a missing key:
//
//	attributes:k                 has(attributes.k)
//	attributes.k = "v"           has(attributes.k) && attributes.k == "v"
//	attributes.k != "v"          !has(attributes.k) || attributes.k != "v"
//	hasPrefix(attributes.k, "p") has(attributes.k) && attributes.k.startsWith("p")
//
// A key CEL cannot write as a field (attributes.`is-even` can be; "みんな"
// or a reserved word like null cannot) is tested with "k" in attributes
// and read with attributes["k"] instead.
//
// (!= is true when the key is absent: decision D10, docs/decisions.md.)
//
// Explain evaluates with cel-go's state tracking and maps the value of
// every CEL node back to the filter node it came from, to say which
// conditions decided a message's fate.
//
// The package works with cel-go's checker and interpreter directly and
// declares the few standard functions a filter needs itself (functions in
// celfilter.go), rather than going through the cel package: that package
// and the standard library behind it bring protobuf's descriptor tooling,
// the text/template package and their package initialisation: about 2 MB
// of the playground's WebAssembly module, and two thirds of the time its
// packages take to initialise. The tests still compile the CEL text shown
// to users with a standard cel environment, to check it means what the
// program does.
//
// The CEL environment is built on first use, not at package init, so a
// binary that links this package pays for cel-go's setup only when it
// evaluates a filter.
package celfilter
