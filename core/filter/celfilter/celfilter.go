package celfilter

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/containers"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
	"github.com/google/cel-go/parser"

	"github.com/subplay/subplay/core/filter"
)

// The one variable a filter sees.
const attributesVar = "attributes"

// env holds what every compilation shares: the checker's declarations and
// the interpreter with the functions' implementations, both built from
// the same declarations (functions), so the two cannot disagree.
var env struct {
	once   sync.Once
	chk    *checker.Env
	interp interpreter.Interpreter
	err    error
}

func setup() (*checker.Env, interpreter.Interpreter, error) {
	env.once.Do(func() {
		fail := func(what string, err error) {
			env.err = fmt.Errorf("celfilter: %s: %w", what, err)
		}
		fns, err := functions()
		if err != nil {
			fail("declaring the CEL functions", err)
			return
		}
		cont, err := containers.NewContainer()
		if err != nil {
			fail("creating the CEL container", err)
			return
		}
		// No message types: a filter sees a map of strings and nothing
		// else, so the registry needs none of protobuf's.
		reg := types.NewEmptyRegistry()
		chk, err := checker.NewEnv(cont, reg)
		if err == nil {
			err = chk.AddIdents(decls.NewVariable(attributesVar, types.NewMapType(types.StringType, types.StringType)))
		}
		if err == nil {
			err = chk.AddFunctions(fns...)
		}
		if err != nil {
			fail("creating the CEL checker", err)
			return
		}
		disp := interpreter.NewDispatcher()
		for _, fn := range fns {
			bindings, err := fn.Bindings()
			if err == nil {
				err = disp.Add(bindings...)
			}
			if err != nil {
				fail("binding "+fn.Name(), err)
				return
			}
		}
		env.chk = chk
		env.interp = interpreter.NewInterpreter(disp, cont, reg, reg, interpreter.NewAttributeFactory(cont, reg, reg))
	})
	return env.chk, env.interp, env.err
}

// functions declares the part of CEL's standard library a filter compiles
// to, as the standard library declares it (cel-go's common/stdlib), with
// the same overload ids. Declaring them here, rather than taking a subset
// of the standard library through the cel package, keeps the cel package,
// the standard library and protobuf's descriptor tooling out of the
// binaries (the WebAssembly module is smaller and starts faster; the CEL
// parser stays, as the checker imports it). The checker tries every
// overload of a function it meets, so the few declared here also make
// checking cheaper.
//
// &&, ||, == and != are evaluated by the interpreter itself; the others
// carry their implementations.
func functions() ([]*decls.FunctionDecl, error) {
	a := types.NewTypeParamType("A")
	b := types.NewTypeParamType("B")
	boolean, str := types.BoolType, types.StringType
	var out []*decls.FunctionDecl
	var errs []error
	add := func(name string, opts ...decls.FunctionOpt) {
		fn, err := decls.NewFunction(name, opts...)
		out, errs = append(out, fn), append(errs, err)
	}
	noOverride := decls.SingletonBinaryBinding(func(ref.Val, ref.Val) ref.Val { return types.NoSuchOverloadErr() })
	add(operators.LogicalAnd,
		decls.Overload(overloads.LogicalAnd, []*types.Type{boolean, boolean}, boolean, decls.OverloadIsNonStrict()), noOverride)
	add(operators.LogicalOr,
		decls.Overload(overloads.LogicalOr, []*types.Type{boolean, boolean}, boolean, decls.OverloadIsNonStrict()), noOverride)
	add(operators.LogicalNot,
		decls.Overload(overloads.LogicalNot, []*types.Type{boolean}, boolean),
		decls.SingletonUnaryBinding(func(v ref.Val) ref.Val {
			x, ok := v.(types.Bool)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return x.Negate()
		}))
	add(operators.Equals, decls.Overload(overloads.Equals, []*types.Type{a, a}, boolean), noOverride)
	add(operators.NotEquals, decls.Overload(overloads.NotEquals, []*types.Type{a, a}, boolean), noOverride)
	add(operators.In, decls.Overload(overloads.InMap, []*types.Type{a, types.NewMapType(a, b)}, boolean),
		decls.SingletonBinaryBinding(func(key, m ref.Val) ref.Val {
			if m.Type().HasTrait(traits.ContainerType) {
				return m.(traits.Container).Contains(key)
			}
			return types.ValOrErr(m, "no such overload")
		}))
	add(operators.Index, decls.Overload(overloads.IndexMap, []*types.Type{types.NewMapType(a, b), a}, b),
		decls.SingletonBinaryBinding(func(m, key ref.Val) ref.Val { return m.(traits.Indexer).Get(key) }, traits.IndexerType))
	add(overloads.StartsWith,
		decls.MemberOverload(overloads.StartsWithString, []*types.Type{str, str}, boolean, decls.BinaryBinding(types.StringStartsWith)),
		decls.DisableTypeGuards(true))
	return out, errors.Join(errs...)
}

// Program is a compiled filter. It is safe for concurrent use.
type Program struct {
	filter *filter.Filter
	ast    *celast.AST // checked
	prog   interpreter.InterpretableV2
	ids    map[filter.Expr]int64 // the CEL node each filter node became
	match  matcher               // the same decision without the interpreter (direct.go)

	trackOnce sync.Once // the program that records every node's value, for Explain
	tracked   *interpreter.ObservableInterpretable
	trackErr  error
	texts     map[filter.Expr]string // canonical form of each node, for reasons

	celOnce sync.Once
	celText string
	celErr  error
}

// Compile builds, checks and plans the CEL program of f. The empty filter
// compiles to true.
func Compile(f *filter.Filter) (*Program, error) {
	if f == nil {
		return nil, errors.New("celfilter: no filter to compile (it did not parse)")
	}
	chk, interp, err := setup()
	if err != nil {
		return nil, err
	}
	b := &builder{fac: celast.NewExprFactory(), ids: map[filter.Expr]int64{}}
	var root celast.Expr
	if f.Empty() {
		root = b.fac.NewLiteral(b.id(), types.True)
	} else {
		root = b.expr(f.Root)
	}
	// The checker checks the tree as it was built, with the declarations
	// of functions().
	parsed := celast.NewAST(root, celast.NewSourceInfo(nil))
	checked, errs := checker.Check(parsed, common.NewTextSource(f.Text), chk)
	if len(errs.GetErrors()) > 0 {
		return nil, fmt.Errorf("celfilter: checking the CEL program of %q: %s", f.Text, errs.ToDisplayString())
	}
	if t := checked.GetType(root.ID()); !t.IsExactType(types.BoolType) {
		return nil, fmt.Errorf("celfilter: the CEL program of %q is of type %s, not bool", f.Text, t)
	}
	prog, err := interp.NewInterpretable(checked)
	if err != nil {
		return nil, fmt.Errorf("celfilter: planning the CEL program of %q: %w", f.Text, err)
	}
	match := always
	if !f.Empty() {
		match = direct(f.Root)
	}
	return &Program{filter: f, ast: checked, prog: prog, ids: b.ids, match: match}, nil
}

// Filter returns the filter p was compiled from.
func (p *Program) Filter() *filter.Filter { return p.filter }

// CEL returns the CEL text of the program, as cel-go's unparser writes it.
func (p *Program) CEL() (string, error) {
	p.celOnce.Do(func() {
		// One line: a filter is at most 256 bytes, and callers wrap text
		// to their own width.
		p.celText, p.celErr = parser.Unparse(p.ast.Expr(), p.ast.SourceInfo(), parser.WrapOnColumn(math.MaxInt32))
		if p.celErr != nil {
			p.celErr = fmt.Errorf("celfilter: unparsing: %w", p.celErr)
		}
	})
	return p.celText, p.celErr
}

// builder turns filter nodes into CEL nodes with fresh ids.
type builder struct {
	fac  celast.ExprFactory
	last int64
	ids  map[filter.Expr]int64
}

func (b *builder) id() int64 {
	b.last++
	return b.last
}

func (b *builder) call(fn string, args ...celast.Expr) celast.Expr {
	return b.fac.NewCall(b.id(), fn, args...)
}

func (b *builder) str(s string) celast.Expr { return b.fac.NewLiteral(b.id(), types.String(s)) }

func (b *builder) attrs() celast.Expr { return b.fac.NewIdent(b.id(), attributesVar) }

// present is has(attributes.k), or "k" in attributes for a key CEL cannot
// write as a field.
func (b *builder) present(k string) celast.Expr {
	if selectable(k) {
		return b.fac.NewPresenceTest(b.id(), b.attrs(), k)
	}
	return b.call(operators.In, b.str(k), b.attrs())
}

// value is attributes.k, or attributes["k"]. It is only ever evaluated
// after present(k) held.
func (b *builder) value(k string) celast.Expr {
	if selectable(k) {
		return b.fac.NewSelect(b.id(), b.attrs(), k)
	}
	return b.call(operators.Index, b.attrs(), b.str(k))
}

// selectable reports whether key can be written as a CEL field selection:
// attributes.name, or attributes.`is-even` with CEL's quoted field names
// (letters, digits and _ . - / space). Reserved words are left out because
// CEL text cannot select them. Field selection is what people write in
// CEL, and it also checks faster than in and [], whose overloads are
// generic.
func selectable(key string) bool {
	if key == "" || celReserved[key] {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.-/ ", c) >= 0) {
			return false
		}
	}
	return true
}

// celReserved are the words CEL does not accept as identifiers.
var celReserved = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "else": true, "false": true, "for": true,
	"function": true, "if": true, "import": true, "in": true, "let": true, "loop": true, "package": true,
	"namespace": true, "null": true, "return": true, "true": true, "var": true, "void": true, "while": true,
}

func (b *builder) expr(e filter.Expr) celast.Expr {
	var out celast.Expr
	switch e := e.(type) {
	case *filter.Has:
		out = b.present(e.Key.Name)
	case *filter.Compare:
		k := e.Key.Name
		if e.Op == filter.NotEqual {
			out = b.call(operators.LogicalOr,
				b.call(operators.LogicalNot, b.present(k)),
				b.call(operators.NotEquals, b.value(k), b.str(e.Value.Value)))
		} else {
			out = b.call(operators.LogicalAnd,
				b.present(k),
				b.call(operators.Equals, b.value(k), b.str(e.Value.Value)))
		}
	case *filter.Prefix:
		k := e.Key.Name
		out = b.call(operators.LogicalAnd,
			b.present(k),
			b.fac.NewMemberCall(b.id(), overloads.StartsWith, b.value(k), b.str(e.Prefix.Value)))
	case *filter.Not:
		out = b.call(operators.LogicalNot, b.expr(e.X))
	case *filter.Logic:
		// Left-deep, so CEL evaluates (and short-circuits) the operands in
		// the order they were written.
		fn := operators.LogicalAnd
		if e.Op == filter.Or {
			fn = operators.LogicalOr
		}
		out = b.expr(e.X[0])
		for _, x := range e.X[1:] {
			out = b.call(fn, out, b.expr(x))
		}
	default:
		panic(fmt.Sprintf("celfilter: unknown filter node %T", e))
	}
	b.ids[e] = out.ID()
	return out
}

// activation hands the attributes to the program. One allocation per
// message: the attributes are wrapped in place, not converted.
type activation struct{ attrs attrMap }

func (a *activation) ResolveName(name string) (any, bool) {
	if name == attributesVar {
		return &a.attrs, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

func newActivation(attrs map[string]string) *activation {
	return &activation{attrs: attrMap{attrs}}
}

// Match reports whether a message with these attributes is delivered. It
// runs the filter's direct matcher (direct.go), which gives the CEL
// program's verdict without the interpreter; the error stays in the
// signature for an evaluator that can fail, and is nil.
func (p *Program) Match(attrs map[string]string) (bool, error) {
	return p.match(attrs), nil
}

// Decision is one condition that decided a message, with its value.
type Decision struct {
	// Expr is a condition (*filter.Has, *filter.Compare, *filter.Prefix),
	// or NOT over one, as it sits in the filter; Text is its canonical form.
	Expr  filter.Expr
	Text  string
	Value bool
	// Why states the attribute the condition looked at, e.g. `"name" is
	// "net"` or `no "name" attribute`.
	Why string
}

// Result is the fate of one message.
type Result struct {
	Match bool
	// Deciding are the conditions that settled the result, in filter
	// order: for an AND that failed, the condition that was false; for an
	// OR that held, the one that was true; when every operand counted
	// (AND held, OR failed), all of them.
	Deciding []Decision
	Reason   string
}

// trackedProgram is the program that records the value of every node it
// evaluates, which Explain reads; planned on first use.
func (p *Program) trackedProgram() (*interpreter.ObservableInterpretable, error) {
	p.trackOnce.Do(func() {
		_, interp, err := setup()
		var prog interpreter.InterpretableV2
		if err == nil {
			prog, err = interp.NewInterpretable(p.ast, interpreter.EvalStateObserver())
		}
		if err == nil {
			var ok bool
			if p.tracked, ok = prog.(*interpreter.ObservableInterpretable); !ok {
				err = fmt.Errorf("the planner returned %T, which records no state", prog)
			}
		}
		p.texts = make(map[filter.Expr]string, len(p.ids))
		for n := range p.ids {
			p.texts[n] = filter.Format(n)
		}
		if err != nil {
			p.trackErr = fmt.Errorf("celfilter: planning the tracking program: %w", err)
		}
	})
	return p.tracked, p.trackErr
}

// eval runs a program on a message's attributes, with what a cel.Program
// adds to the interpreter: a panic inside cel-go or a CEL error value
// becomes an error, and an observing program reports its state.
func eval(prog interpreter.InterpretableV2, attrs map[string]string) (out ref.Val, state interpreter.EvalState, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, state, err = nil, nil, fmt.Errorf("internal error: %v", r)
		}
	}()
	frame, err := interpreter.NewExecutionFrame(newActivation(attrs))
	if err != nil {
		return nil, nil, err
	}
	defer frame.Close()
	if o, ok := prog.(*interpreter.ObservableInterpretable); ok {
		out = o.ObserveExec(frame, func(v any) {
			if s, ok := v.(interpreter.EvalState); ok {
				state = s
			}
		})
	} else {
		out = prog.Exec(frame)
	}
	if e, ok := out.(*types.Err); ok {
		return nil, state, e
	}
	return out, state, nil
}

// Explain evaluates the filter on a message and says why it is delivered
// or not, from the values CEL recorded for each node.
func (p *Program) Explain(attrs map[string]string) (Result, error) {
	if p.filter.Empty() {
		return Result{Match: true, Reason: "there is no filter: every message is delivered"}, nil
	}
	prog, err := p.trackedProgram()
	if err != nil {
		return Result{}, err
	}
	out, state, err := eval(prog, attrs)
	if err != nil {
		return Result{}, fmt.Errorf("celfilter: evaluating: %w", err)
	}
	match, ok := out.(types.Bool)
	if !ok || state == nil {
		return Result{}, fmt.Errorf("celfilter: the tracking program returned %v with no state", out)
	}
	x := &explainer{p: p, state: state, attrs: attrs}
	ds, err := x.decide(p.filter.Root)
	if err != nil {
		return Result{}, err
	}
	return Result{Match: bool(match), Deciding: ds, Reason: reason(ds)}, nil
}

type explainer struct {
	p     *Program
	state interpreter.EvalState
	attrs map[string]string
}

// value returns what CEL computed for filter node e, and false when CEL
// did not evaluate it (a short-circuit skipped it).
func (x *explainer) value(e filter.Expr) (bool, bool) {
	id, ok := x.p.ids[e]
	if !ok {
		return false, false
	}
	v, ok := x.state.Value(id)
	if !ok {
		return false, false
	}
	b, ok := v.(types.Bool)
	return bool(b), ok
}

func (x *explainer) decide(e filter.Expr) ([]Decision, error) {
	v, ok := x.value(e)
	if !ok {
		return nil, fmt.Errorf("celfilter: no value recorded for %s", filter.Format(e))
	}
	switch e := e.(type) {
	case *filter.Not:
		ds, err := x.decide(e.X)
		if err == nil && len(ds) == 1 && ds[0].Expr == e.X {
			ds[0].Expr, ds[0].Text, ds[0].Value = e, x.p.texts[e], v
		}
		return ds, err
	case *filter.Logic:
		// An AND that is false, or an OR that is true, was settled by the
		// first operand with that value: CEL stopped there.
		if settled := (e.Op == filter.And) != v; settled {
			for _, c := range e.X {
				if cv, ok := x.value(c); ok && cv == v {
					return x.decide(c)
				}
			}
			return nil, fmt.Errorf("celfilter: no operand of %s explains its value", filter.Format(e))
		}
		var out []Decision
		for _, c := range e.X {
			ds, err := x.decide(c)
			if err != nil {
				return nil, err
			}
			out = append(out, ds...)
		}
		return out, nil
	}
	k, _ := filter.KeyOf(e)
	return []Decision{{Expr: e, Text: x.p.texts[e], Value: v, Why: why(k.Name, x.attrs)}}, nil
}

// maxShownValue bounds how much of an attribute value a reason quotes.
const maxShownValue = 40

func why(key string, attrs map[string]string) string {
	v, ok := attrs[key]
	if !ok {
		return "no " + filter.Quote(key) + " attribute"
	}
	cut := ""
	if len(v) > maxShownValue && utf8.RuneCountInString(v) > maxShownValue {
		v, cut = string([]rune(v)[:maxShownValue]), "…"
	}
	return filter.Quote(key) + " is " + filter.Quote(v) + cut
}

// maxReasons bounds how many conditions a reason lists.
const maxReasons = 4

func reason(ds []Decision) string {
	var b strings.Builder
	b.Grow(64 * min(len(ds), maxReasons+1))
	for i, d := range ds {
		if i == maxReasons {
			b.WriteString("; and " + strconv.Itoa(len(ds)-maxReasons) + " more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(d.Text)
		b.WriteString(" is ")
		b.WriteString(strconv.FormatBool(d.Value))
		b.WriteString(" (")
		b.WriteString(d.Why)
		b.WriteString(")")
	}
	return b.String()
}
