package filter

import "github.com/subplay/subplay/core/diag"

// Span is the half-open byte range [Start, End) of a node in the filter text.
type Span struct {
	Start, End int
}

// Diag returns the span in the form diagnostics carry.
func (s Span) Diag() diag.Span { return diag.SpanOf(s.Start, s.End) }

// Expr is a node of the filter AST: *Has, *Compare, *Prefix, *Not or
// *Logic. Parentheses leave no node of their own; the grouping they make is
// the shape of the tree.
type Expr interface {
	// Span covers the node in the filter text, including the parentheses
	// written around it when it is an operand.
	Span() Span
	isExpr()
}

// Key is an attribute key as the filter names it, after escapes.
type Key struct {
	Name string
	Loc  Span // the key as written, with its quotes if it was quoted
}

// Literal is a string literal, after escapes.
type Literal struct {
	Value string
	Loc   Span // with its quotes
}

// Has is attributes:KEY, true when the message has the attribute.
type Has struct {
	Key Key
	Loc Span
}

// CompareOp is = or !=.
type CompareOp uint8

const (
	Equal    CompareOp = iota // attributes.KEY = "v": present and equal
	NotEqual                  // attributes.KEY != "v": absent, or present and different
)

func (op CompareOp) String() string {
	if op == NotEqual {
		return "!="
	}
	return "="
}

// Compare is attributes.KEY = "VALUE" or attributes.KEY != "VALUE".
type Compare struct {
	Key   Key
	Op    CompareOp
	Value Literal
	Loc   Span
}

// Prefix is hasPrefix(attributes.KEY, "PREFIX"), true when the attribute is
// present and its value starts with the prefix.
type Prefix struct {
	Key    Key
	Prefix Literal
	Loc    Span
}

// Not is NOT X, also written -X.
type Not struct {
	X   Expr
	Loc Span
}

// LogicOp is AND or OR.
type LogicOp uint8

const (
	And LogicOp = iota
	Or
)

func (op LogicOp) String() string {
	if op == Or {
		return "OR"
	}
	return "AND"
}

// Logic is a chain of two or more operands joined by one operator: the
// language forbids mixing AND and OR without parentheses, so a chain never
// needs precedence.
type Logic struct {
	Op  LogicOp
	X   []Expr
	Loc Span
}

func (e *Has) Span() Span     { return e.Loc }
func (e *Compare) Span() Span { return e.Loc }
func (e *Prefix) Span() Span  { return e.Loc }
func (e *Not) Span() Span     { return e.Loc }
func (e *Logic) Span() Span   { return e.Loc }

func (*Has) isExpr()     {}
func (*Compare) isExpr() {}
func (*Prefix) isExpr()  {}
func (*Not) isExpr()     {}
func (*Logic) isExpr()   {}

// Filter is a parsed filter.
type Filter struct {
	Text string // the filter as given
	Root Expr   // nil for the empty filter, which delivers every message
}

// Empty reports whether the filter has no condition, so every message is
// delivered.
func (f *Filter) Empty() bool { return f == nil || f.Root == nil }

// String returns the canonical form of the filter ("" when it is empty).
func (f *Filter) String() string {
	if f.Empty() {
		return ""
	}
	return Format(f.Root)
}

// Walk calls fn for e and then for every node below it, depth first, in
// source order, stopping early when fn returns false.
func Walk(e Expr, fn func(Expr) bool) bool {
	if e == nil {
		return true
	}
	if !fn(e) {
		return false
	}
	switch e := e.(type) {
	case *Not:
		return Walk(e.X, fn)
	case *Logic:
		for _, x := range e.X {
			if !Walk(x, fn) {
				return false
			}
		}
	}
	return true
}

// KeyOf returns the key a condition tests, and false for *Not and *Logic.
func KeyOf(e Expr) (Key, bool) {
	switch e := e.(type) {
	case *Has:
		return e.Key, true
	case *Compare:
		return e.Key, true
	case *Prefix:
		return e.Key, true
	}
	return Key{}, false
}
