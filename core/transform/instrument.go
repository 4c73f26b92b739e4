//go:build !noudf

package transform

import (
	"reflect"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
)

// tickName is the global the instrumented code calls on every loop
// iteration and function entry. Code that mentions it is refused, so a UDF
// can neither shadow it nor call it; it is read-only on the global object.
const tickName = "__subplay_step"

const tickCall = tickName + "();"

// memName and textName are the engine's checks around string building (they
// share tickName's prefix, so the reservation covers them): memName wraps
// the right operand of every + and +=, textName every placeholder of a
// template literal. One + or template can build a string as long as its
// operands together, and a chain of them in one expression runs with no
// loop or call in between: the checks bound what is built before the next
// operation runs (see Program.mem and Program.text).
const (
	memName  = tickName + "_m"
	textName = tickName + "_t"
)

// insertion is text added to the code before the byte at offset at (in the
// user's code). A closing insertion ends text an earlier one opened.
type insertion struct {
	at    int
	text  string
	close bool
	seq   int
}

// instrumented is the user's code with step calls added, and how to carry
// an offset in it back to the user's code.
type instrumented struct {
	text string
	ins  []insertion // sorted by at
	// regexps are the regular expression literals of the code.
	regexps []*ast.RegExpLiteral
}

// instrument adds a step call at the start of every loop body and every
// function body (and around every arrow function's expression body), so
// that the engine can count work and stop a UDF deterministically. goja
// can be interrupted only from another goroutine, and js/wasm never
// preempts a running goroutine, so a timer alone could not stop an endless
// loop in the browser or the worker. The insertions add no line breaks.
func instrument(code string, prog *ast.Program) (*instrumented, bool) {
	off := func(i file.Idx) int { return int(i) - 1 }
	var ins []insertion
	var regexps []*ast.RegExpLiteral
	add := func(at int, text string) {
		if at >= 0 && at <= len(code) {
			ins = append(ins, insertion{at: at, text: text, seq: len(ins)})
		}
	}
	closeAt := func(at int, text string) {
		if at >= 0 && at <= len(code) {
			ins = append(ins, insertion{at: at, text: text, close: true, seq: len(ins)})
		}
	}
	// around wraps an expression in a call of name; the doubled parentheses
	// keep a comma expression one argument.
	around := func(e ast.Expression, name string) {
		if e == nil {
			return
		}
		add(off(exprStart(e)), name+"((")
		closeAt(off(e.Idx1()), "))")
	}
	bad := false
	wrapBody := func(body ast.Statement) {
		if body == nil {
			return
		}
		if b, ok := body.(*ast.BlockStatement); ok {
			add(off(b.LeftBrace)+1, tickCall)
			return
		}
		end := off(body.Idx1())
		// A statement's end leaves out its semicolon: close the block after
		// it, or "if (a) while (b) x++; else ..." would lose its else.
		if j := skipSpace(code, end); j < len(code) && code[j] == ';' {
			end = j + 1
		}
		start := stmtStart(code, body)
		if start < 1 {
			bad = true // a loop without its step would be unbounded
			return
		}
		add(off(start), "{"+tickCall)
		closeAt(end, "}")
	}
	funcBody := func(b *ast.BlockStatement) {
		if b == nil {
			return
		}
		// After the directive prologue, so "use strict" stays a directive.
		at := off(b.RightBrace)
		for _, s := range b.List {
			if es, ok := s.(*ast.ExpressionStatement); ok {
				if _, ok := es.Expression.(*ast.StringLiteral); ok {
					continue
				}
			}
			at = off(s.Idx0())
			break
		}
		add(at, tickCall)
	}
	ok := walk(reflect.ValueOf(prog), 0, map[uintptr]bool{}, func(n any) {
		switch n := n.(type) {
		case *ast.ForStatement:
			wrapBody(n.Body)
		case *ast.ForInStatement:
			wrapBody(n.Body)
		case *ast.ForOfStatement:
			wrapBody(n.Body)
		case *ast.WhileStatement:
			wrapBody(n.Body)
		case *ast.DoWhileStatement:
			wrapBody(n.Body)
		case *ast.FunctionLiteral:
			funcBody(n.Body)
		case *ast.ArrowFunctionLiteral:
			switch b := n.Body.(type) {
			case *ast.BlockStatement:
				funcBody(b)
			case *ast.ExpressionBody:
				add(off(exprStart(b.Expression)), "("+tickName+"(),")
				closeAt(off(b.Expression.Idx1()), ")")
			}
		case *ast.BinaryExpression:
			if n.Operator == token.PLUS {
				around(n.Right, memName)
			}
		case *ast.AssignExpression:
			if n.Operator == token.PLUS {
				around(n.Right, memName)
			}
		case *ast.TemplateLiteral:
			if n.Tag == nil {
				for _, e := range n.Expressions {
					around(e, textName)
				}
			}
		case *ast.RegExpLiteral:
			regexps = append(regexps, n)
		}
	})
	if !ok || bad {
		return nil, false
	}
	// At one offset, what closes comes before what opens (a node that ends
	// there precedes one that starts there); openings keep the order they
	// were made in (the walk meets an outer node before an inner one) and
	// closings the reverse, so that inner text closes first.
	sort.Slice(ins, func(i, j int) bool {
		a, b := ins[i], ins[j]
		switch {
		case a.at != b.at:
			return a.at < b.at
		case a.close != b.close:
			return a.close
		case a.close:
			return a.seq > b.seq
		}
		return a.seq < b.seq
	})
	var b strings.Builder
	prev := 0
	for _, x := range ins {
		b.WriteString(code[prev:x.at])
		b.WriteString(x.text)
		prev = x.at
	}
	b.WriteString(code[prev:])
	return &instrumented{text: b.String(), ins: ins, regexps: regexps}, true
}

// exprStart is where an expression begins in the code. goja's Idx0 of a
// tagged template is its backtick, not its tag, and of an expression that
// starts with one (a call, a member, an operator) the same.
func exprStart(e ast.Expression) file.Idx {
	for {
		switch n := e.(type) {
		case *ast.TemplateLiteral:
			if n.Tag == nil {
				return n.Idx0()
			}
			e = n.Tag
		case *ast.BinaryExpression:
			e = n.Left
		case *ast.AssignExpression:
			e = n.Left
		case *ast.CallExpression:
			e = n.Callee
		case *ast.DotExpression:
			e = n.Left
		case *ast.PrivateDotExpression:
			e = n.Left
		case *ast.BracketExpression:
			e = n.Left
		case *ast.ConditionalExpression:
			e = n.Test
		case *ast.SequenceExpression:
			if len(n.Sequence) == 0 {
				return n.Idx0()
			}
			e = n.Sequence[0]
		case *ast.OptionalChain:
			e = n.Expression
		case *ast.Optional:
			e = n.Expression
		case *ast.UnaryExpression:
			if !n.Postfix {
				return n.Idx0()
			}
			e = n.Operand
		default:
			return e.Idx0()
		}
	}
}

// stmtStart is where a statement begins in the code: goja's parser leaves
// an if statement's position unset, so it is found before its test, past
// white space and opening parentheses. 0 when it cannot be found.
func stmtStart(code string, s ast.Statement) file.Idx {
	switch n := s.(type) {
	case *ast.IfStatement:
		if n.If > 0 {
			return n.If
		}
		i := int(exprStart(n.Test)) - 2 // the byte before the test
		for i >= 0 && (code[i] == '(' || code[i] == ' ' || code[i] == '\t' || code[i] == '\n' || code[i] == '\r') {
			i--
		}
		if i >= 1 && code[i-1:i+1] == "if" {
			return file.Idx(i)
		}
		return 0
	case *ast.ExpressionStatement:
		return exprStart(n.Expression)
	}
	return s.Idx0()
}

// original carries a byte offset in the instrumented text back to the
// user's code; an offset inside added text maps to where it was added.
func (in *instrumented) original(o int) int {
	shift := 0
	for _, x := range in.ins {
		start := x.at + shift
		if o < start {
			break
		}
		if o < start+len(x.text) {
			return x.at
		}
		shift += len(x.text)
	}
	return o - shift
}

// walkDepth bounds the walk's recursion; the nesting check before parsing
// keeps real programs far below it.
const walkDepth = 10000

var (
	nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()
	astPkg   = reflect.TypeOf(ast.Program{}).PkgPath()
)

// walk calls f once on every AST node under v. The AST reaches some nodes
// twice (a function's declaration list repeats its declarations): seen
// keeps the walk linear. It returns false when the tree is deeper than
// walkDepth (checked before recursing).
func walk(v reflect.Value, depth int, seen map[uintptr]bool, f func(any)) bool {
	if depth > walkDepth {
		return false
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return true
		}
		return walk(v.Elem(), depth+1, seen, f)
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != astPkg || seen[v.Pointer()] {
			return true
		}
		seen[v.Pointer()] = true
		if v.Type().Implements(nodeType) {
			f(v.Interface())
		}
		return walk(v.Elem(), depth+1, seen, f)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if !walk(v.Field(i), depth+1, seen, f) {
				return false
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if !walk(v.Index(i), depth+1, seen, f) {
				return false
			}
		}
	}
	return true
}

// skipSpace returns the offset of the first byte at or after i that is not
// white space or inside a comment.
func skipSpace(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r':
			i++
		case strings.HasPrefix(s[i:], "//"):
			j := strings.IndexByte(s[i:], '\n')
			if j < 0 {
				return len(s)
			}
			i += j
		case strings.HasPrefix(s[i:], "/*"):
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return len(s)
			}
			i += j + 4
		default:
			return i
		}
	}
	return i
}

// nesting returns the offset of the first bracket nested deeper than max,
// or -1. It skips strings, template literals and comments roughly (a
// regular expression with brackets can only make it count deeper, which
// errs on the safe side).
func nesting(code string, max int) int {
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '(', '[', '{':
			if depth++; depth > max {
				return i
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'', '`':
			for i++; i < len(code) && code[i] != c; i++ {
				if code[i] == '\\' {
					i++
				}
			}
		case '/':
			if j := skipSpace(code, i); j > i {
				i = j - 1
			}
		}
	}
	return -1
}
