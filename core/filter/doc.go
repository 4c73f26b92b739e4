// Package filter reads the Pub/Sub subscription filter language: the
// expressions over message attributes that decide which messages a
// subscription delivers (the rest are acknowledged by the service and never
// seen).
//
// Parse turns a filter into a small AST whose nodes remember their byte
// offsets, reporting every problem as a diag.Diagnostic with a span in bytes
// of the filter text; the caller carries spans into the user's text (a
// filter inside a configuration file goes through doc.SourceSpan). Format
// prints any node back in one canonical spelling.
//
// The package imports only the standard library and core/diag, because the
// subscription validator and the lean WebAssembly build (the one without
// cel-go) link it. Evaluation lives in core/filter/celfilter.
//
// Semantics follow reference/filter.md and rules.md: a key is present or
// not, whatever its value; = and hasPrefix need the key to be present; !=
// is the negation of =, so it is true when the key is absent (decision D10).
package filter
