//go:build !noudf && !quickjs

package transform

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"runtime"
	"runtime/metrics"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/stop"
)

// Available reports whether this build can run UDFs.
const Available = true

func init() {
	// Date's local-time methods read time.Local. The service runs UDFs in
	// UTC, and every entry (the browser, the worker, the CLI on a machine
	// in any zone) must give one answer, so the engine's process keeps UTC
	// as its local zone. subplay prints no local times elsewhere.
	time.Local = time.UTC
	// The guards (regexp.go) let a call reach goja's backtracking engine
	// only when its work is bounded; natively its time-out stays as a net
	// under that bound (it needs a clock goroutine, which js/wasm does not
	// run during a match).
	regexp2.DefaultMatchTimeout = limits.UDFCallSeconds * time.Second
}

// Program is a list of compiled UDFs, ready to run on messages. It is not
// safe for concurrent use.
type Program struct {
	udfs  []*compiled
	opts  Options
	steps int // steps taken by every call so far, against UDFRequestSteps
	// allocated is what every call so far allocated, and input their
	// inputs' bytes together: the calls of one request may allocate
	// together what one call on all their inputs may (requestBudget).
	allocated uint64
	input     int
	// late is set once a call of this request ran past UDFCallSeconds: the
	// calls after it are not run, so one request costs at most about one
	// such call, however many messages and UDFs it has.
	late bool
	// Diagnostics are the findings of compiling each UDF (its code's
	// syntax, its limits, its top-level code), positioned in its code.
	Diagnostics [][]diag.Diagnostic
}

type compiled struct {
	udf  UDF
	prog *goja.Program
	code *instrumented
	vm   *goja.Runtime // nil when it must be made again (after a stop)
	// freeze is Object.freeze as it was before the UDF's code ran.
	freeze goja.Callable
	// plus is the engine's own + of two values, for Program.add, and
	// arith its arithmetic and bitwise operators, for Program.bigAssign.
	plus, arith goja.Callable
	// fn is the UDF's function, found once its top-level code ran (the
	// service calls the function its code defined, whatever the code later
	// does to the global binding).
	fn   goja.Callable
	ok   bool
	call *call
	// base and key are the base and computed key of the += on a property
	// being worked out, held by holdName for the reads after it (see
	// readTwice).
	base, key goja.Value
	// converted is the primitive numName made of an object for x++, read
	// by convertedName right after (nothing runs between).
	converted goja.Value
	// topSteps are the steps the top-level code took when it last ran, and
	// stopped says whether a budget stopped it: only a result no budget
	// cut short is the same every time, and may be cached.
	topSteps int
	stopped  bool
	// lazy: the UDF came from the cache, its steps counted, its runtime not
	// yet made.
	lazy bool
}

// call is the budget of one call.
type call struct {
	p      *Program
	c      *compiled
	steps  int
	start  time.Time
	alloc0 uint64
	// budget is what the call may allocate (budgetFor), or less when the
	// request's calls have allocated most of theirs (byRequest).
	budget    uint64
	byRequest bool
	// paced is the allocation counter at the call's last look made for
	// what it allocated (limits.WorkerPauseBytes).
	paced   uint64
	stopped string // why the call was stopped, "" while it runs
	// code and hint are the finding of a stop that is not the budget's
	// (a refused regular expression); "" for the budget's.
	code, hint string
	// looked is when a step last read the allocation counter (allocLook),
	// lookedAt the call's steps then (lookSteps), and built what the
	// built-ins that build much announced since (overAlloc, lookBuilt).
	looked   time.Time
	lookedAt int
	built    float64
	// ticked is steps at the end of the last step (tick).
	ticked int
	// The watch (natively): its timer and context hook, fired says why it
	// stopped the call ("" if it did not); mu orders it with the call's
	// end.
	mu        sync.Mutex
	ended     bool
	fired     string
	timer     *time.Timer
	stopWatch func() bool
	// pending is the length of the strings handed to template literals'
	// placeholders in this call: each template allocates their sum when it
	// ends, after the last check, so the checks count it in advance.
	pending uint64
	// iterated counts the items the engine's own iterators gave in this
	// call (chargeIterators), and scanned the characters its searches
	// went through short of a step (guards.scan).
	iterated int
	scanned  float64
	// lefts are the left operands of the + expressions being evaluated in
	// this call, innermost last (Program.left).
	lefts []leftOperand
}

// Compile checks and compiles the UDFs. A UDF that cannot run has findings
// in Diagnostics[i] and leaves every message it meets failed.
func Compile(udfs []UDF, opts Options) (*Program, error) {
	p := &Program{opts: opts, Diagnostics: make([][]diag.Diagnostic, len(udfs))}
	for i, u := range udfs {
		c := &compiled{udf: u}
		p.udfs = append(p.udfs, c)
		key := cacheKey(u, opts)
		if e := cacheGet(key); e != nil {
			c.prog, c.code = e.prog, e.code
			p.Diagnostics[i] = slices.Clone(e.diags)
			if len(e.diags) == 0 {
				// Ready to run: its runtime is made when a message first
				// needs it, and its top-level steps count now, as they
				// would have had it run here.
				c.ok, c.lazy = true, true
				p.steps += e.steps
			}
			continue
		}
		ds := p.compile(c)
		p.Diagnostics[i] = ds
		if !c.stopped {
			cachePut(&cached{key: key, prog: c.prog, code: c.code, diags: slices.Clone(ds), steps: c.topSteps})
		}
	}
	return p, nil
}

func finding(sev diag.Severity, code, msg, hint string, span diag.Span) diag.Diagnostic {
	return diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint, Span: span}
}

func (p *Program) compile(c *compiled) []diag.Diagnostic {
	code := c.udf.Code
	if len(code) > limits.UDFCodeBytes {
		return []diag.Diagnostic{finding(diag.Error, "udf-code-too-large",
			fmt.Sprintf("the code is %d bytes; subplay runs UDFs of at most %d bytes", len(code), limits.UDFCodeBytes),
			"the service documents no size limit; subplay bounds it to keep the preview quick",
			diag.SpanOf(limits.UDFCodeBytes, len(code)))}
	}
	if i := strings.Index(code, tickName); i >= 0 {
		return []diag.Diagnostic{finding(diag.Error, "udf-reserved-name",
			tickName+" is reserved by subplay's engine", "rename it", diag.SpanOf(i, i+len(tickName)))}
	}
	if i := nesting(code, limits.UDFNesting); i >= 0 {
		return []diag.Diagnostic{finding(diag.Error, "udf-nesting-too-deep",
			fmt.Sprintf("the code nests more than %d levels deep here (brackets, or a chain of operators or statements that the parser follows one inside another)", limits.UDFNesting),
			"flatten the code: split the expression with variables, or the statements into functions", diag.SpanOf(i, i+1))}
	}
	ast, err := parser.ParseFile(nil, "udf", code, 0)
	if err != nil {
		var ds []diag.Diagnostic
		var list parser.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			seen := map[int]bool{}
			for _, e := range list[:1] { // later errors are mostly echoes of the first
				o := offsetOf(code, e.Position.Line, e.Position.Column)
				if seen[o] {
					continue
				}
				seen[o] = true
				ds = append(ds, finding(diag.Error, "udf-syntax", "JavaScript syntax: "+syntaxWords(e.Message), "", charSpan(code, o)))
			}
			return ds
		}
		return []diag.Diagnostic{finding(diag.Error, "udf-syntax", "JavaScript syntax: "+syntaxWords(err.Error()), "", diag.Span{})}
	}
	in, ok := instrument(code, ast)
	if !ok {
		return []diag.Diagnostic{finding(diag.Error, "udf-nesting-too-deep", "the code nests too deeply to run", "flatten the code", diag.Span{})}
	}
	// The checks added around + and += nest the code further: a chain
	// of += three brackets a link.
	if i := nesting(in.text, limits.UDFNestingChecked); i >= 0 {
		o := in.original(i)
		return []diag.Diagnostic{finding(diag.Error, "udf-nesting-too-deep",
			fmt.Sprintf("with subplay's checks added, the code nests more than %d levels deep here", limits.UDFNestingChecked),
			"flatten the code: a long chain of + or += nests a check in each link", diag.SpanOf(o, min(o+1, len(code))))}
	}
	c.code = in
	if ds := refusedLiterals(in.regexps); len(ds) > 0 {
		return ds
	}
	prog, err := goja.Compile("udf", in.text, false)
	if err != nil {
		// The compiler finds some errors the parser lets through (a
		// regular expression's unknown flag): the user's, when the code
		// as written fails too.
		var se *goja.CompilerSyntaxError
		if _, err0 := goja.Compile("udf", code, false); err0 != nil && errors.As(err0, &se) {
			o := min(max(se.Offset-1, 0), len(code))
			return []diag.Diagnostic{finding(diag.Error, "udf-syntax", "JavaScript syntax: "+syntaxWords(se.Message), "", diag.SpanOf(o, min(o+1, len(code))))}
		}
		// Otherwise the instrumented code must compile as the code did.
		// Say so rather than blame the user.
		return []diag.Diagnostic{finding(diag.Error, "udf-engine", "subplay could not prepare this code to run: "+err.Error(),
			"this is a bug in subplay; the code itself parsed", diag.Span{})}
	}
	c.prog = prog
	if ds := p.start(c); len(ds) > 0 {
		return ds
	}
	c.ok = true
	return nil
}

// refusedLiterals reports each regular expression literal that only the
// backtracking engine can run, at the literal: the UDF does not run, as
// every use of it would be refused.
func refusedLiterals(lits []*ast.RegExpLiteral) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, l := range lits {
		if p := analyse(l.Pattern, l.Flags); p.backtrack != "" {
			o := int(l.Idx) - 1
			ds = append(ds, finding(diag.Error, "udf-regexp-backtracking",
				"this regular expression has "+p.backtrack+", which only a backtracking engine runs; subplay cannot bound its time in the browser",
				rxHint, diag.SpanOf(o, o+len(l.Literal))))
		}
	}
	return ds
}

// start makes c's runtime and runs its top-level code, then finds its
// function. It returns the findings when that fails.
func (p *Program) start(c *compiled) []diag.Diagnostic {
	vm := goja.New()
	vm.SetMaxCallStackSize(limits.UDFCallStack)
	now := p.opts.Now
	vm.SetTimeSource(func() time.Time { return now })
	var seed uint64 = 0x9E3779B97F4A7C15
	vm.SetRandSource(func() float64 {
		// A fixed sequence (splitmix64): deterministic across entries.
		seed += 0x9E3779B97F4A7C15
		z := seed
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		z ^= z >> 31
		return float64(z>>11) / (1 << 53)
	})
	c.vm = vm
	sandbox(vm, p, c)
	c.freeze, _ = goja.AssertFunction(vm.GlobalObject().Get("Object").ToObject(vm).Get("freeze"))
	c.plus = programFunc(vm, plusProgram)
	c.arith = programFunc(vm, arithProgram)
	cl := p.begin(c, len(c.udf.Code))
	var ds []diag.Diagnostic
	func() {
		defer p.recoverCall(c, &ds, "its top-level code")
		if _, err := vm.RunProgram(c.prog); err != nil {
			ds = p.runError(c, err, "its top-level code")
		}
	}()
	p.end(cl)
	c.topSteps, c.stopped = cl.steps, cl.stopped != "" || cl.fired != ""
	if len(ds) > 0 {
		c.vm = nil
		return ds
	}
	if v := vm.GlobalObject().Get(c.udf.FunctionName); v == nil || goja.IsUndefined(v) {
		if _, ok := lookup(vm, c.udf.FunctionName); !ok {
			return []diag.Diagnostic{finding(diag.Error, "udf-function-missing",
				"the code defines no function "+diag.Quote(c.udf.FunctionName),
				"functionName must name a function of the code: function "+exampleName(c.udf.FunctionName)+"(message, metadata) { ... }"+p.defined(vm),
				diag.Span{})}
		}
	}
	fn, ok := lookup(vm, c.udf.FunctionName)
	if !ok {
		return []diag.Diagnostic{finding(diag.Error, "udf-function-missing",
			diag.Quote(c.udf.FunctionName)+" is not a function", "define it with function "+exampleName(c.udf.FunctionName)+"(message, metadata) { ... }", diag.Span{})}
	}
	c.fn = fn
	return nil
}

// lookup finds the function NAME, also when it is a top-level let, const
// or class binding (which the global object does not hold).
func lookup(vm *goja.Runtime, name string) (goja.Callable, bool) {
	if !isIdent(name) {
		return nil, false
	}
	var fn goja.Callable
	ok := false
	func() {
		defer func() { _ = recover() }()
		v, err := vm.RunString("typeof " + name + " === 'function' ? " + name + " : undefined")
		if err == nil {
			fn, ok = goja.AssertFunction(v)
		}
	}()
	return fn, ok
}

// defined lists the functions the code does define, for the hint.
func (p *Program) defined(vm *goja.Runtime) string {
	var names []string
	g := vm.GlobalObject()
	for _, k := range g.Keys() {
		if _, ok := goja.AssertFunction(g.Get(k)); ok && k != tickName {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	if len(names) > 5 {
		names = names[:5]
	}
	for i, n := range names {
		names[i] = diag.Quote(n)
	}
	return "; the code defines " + strings.Join(names, ", ")
}

// programFunc runs prog, one of the engine's own programs, whose value is
// a function, and gives that function: the engine's programs run
// everywhere, so an error is a bug of subplay's.
func programFunc(vm *goja.Runtime, prog *goja.Program) goja.Callable {
	v, err := vm.RunProgram(prog)
	if err != nil {
		panic("transform: " + err.Error())
	}
	f, ok := goja.AssertFunction(v)
	if !ok {
		panic("transform: a program of the engine's gave no function")
	}
	return f
}

// engineName defines one of the names the instrumented code calls, as a
// global the code can neither change nor delete; two functions given one
// name (a constant spelt twice) panic here rather than one calling the
// other.
func engineName(vm *goja.Runtime, name string, f goja.Value) {
	if err := vm.GlobalObject().DefineDataProperty(name, f, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		panic("transform: sandbox: " + name + ": " + err.Error())
	}
}

// sandbox takes out what could reach past the message: code made from
// strings (eval, the Function constructors) would run uninstrumented, so
// it is refused like V8 refuses it under a content security policy. It
// installs the step counter and bounds the built-ins that can build a huge
// value in one call.
func sandbox(vm *goja.Runtime, p *Program, c *compiled) {
	g := vm.GlobalObject()
	gd := newGuards(vm, p, c)
	if testSandbox != nil {
		testSandbox(vm)
	}
	// Counted and held to the steps' limits, without the step's other
	// looks (the built-in's own checks come first, with their own
	// findings).
	wrapping.Store(vm, &wrappers{charge: func() { gd.cost(builtinSteps) }})
	defer markCalls(vm)
	// superKey is the last computed key of a super[k] = v, and superGiven
	// the last value given one, before its conversion (superName). A
	// setter that the engine's write runs may make another super[k] = v in
	// between: that one takes its own value, and the outer assignment's
	// value is then its converted one, not the value as given (a single
	// super[k] = v gives its value as given: TestConversionsSemantics).
	var superKey goja.Value = goja.Undefined()
	var superGiven goja.Value
	// keptKeys are the stand-ins of super[k] = v's object keys (earlyKey).
	keptKeys := map[*goja.Object]func() goja.Value{}
	for name, f := range map[string]func(goja.FunctionCall) goja.Value{
		tickName: func(fc goja.FunctionCall) goja.Value {
			w := 1
			if len(fc.Arguments) > 0 {
				// A region's weight (tickText), a small whole number.
				w = int(max(1, min(fc.Arguments[0].ToInteger(), limits.UDFCallSteps+1)))
			}
			p.tick(c, w)
			return goja.Undefined()
		},
		leftName: func(fc goja.FunctionCall) goja.Value { return p.left(c, gd, fc) },
		memName:  func(fc goja.FunctionCall) goja.Value { return p.concat(c, gd, fc) },
		addName: func(fc goja.FunctionCall) goja.Value {
			return p.add(c, gd, fc.Argument(0).ToInteger(), fc.Argument(1), fc.Argument(2))
		},
		rightName: func(fc goja.FunctionCall) goja.Value { return p.right(c, gd, fc.Argument(0)) },
		bigName:   func(fc goja.FunctionCall) goja.Value { return p.big(c, gd, fc) },
		bigAssignName: func(fc goja.FunctionCall) goja.Value {
			return p.bigAssign(c, gd, fc.Argument(0).ToInteger(), fc.Argument(1), fc.Argument(2))
		},
		bigRightName: func(fc goja.FunctionCall) goja.Value {
			v := fc.Argument(0)
			if cl := c.call; cl != nil && cl.stopped == "" {
				p.checkBig(cl, gd, 0, -1, false, v)
			}
			return v
		},
		holdName: func(fc goja.FunctionCall) goja.Value {
			c.base, c.key = fc.Argument(0), fc.Argument(1)
			return c.base
		},
		baseName:      func(goja.FunctionCall) goja.Value { return c.base },
		convertedName: func(goja.FunctionCall) goja.Value { return c.converted },
		keyName:       func(goja.FunctionCall) goja.Value { return c.key },
		superName: func(fc goja.FunctionCall) goja.Value {
			switch fc.Argument(0).ToInteger() {
			case -1: // super[k] = v's key, as the engine will use it, kept
				if o, ok := fc.Argument(1).(*goja.Object); ok {
					// A stand-in whose conversion superName makes, the
					// engine's then given that key (V8 converts super[k]'s
					// key once, after the value is made, before converting
					// it, as superName does).
					d, early := gd.earlyKey(o)
					keptKeys[d] = early
					superKey = d
				} else {
					superKey = gd.usedKey(fc.Argument(1))
				}
				return superKey
			case -2: // the key kept, for the value's conversion
				k := superKey
				superKey = goja.Undefined()
				return k
			case -3: // the assignment done: its value is what was given
				if superGiven != nil {
					v := superGiven
					superGiven = nil
					return v
				}
				return fc.Argument(1)
			}
			superGiven = fc.Argument(3)
			k := fc.Argument(2)
			if d, stand := k.(*goja.Object); stand {
				early := keptKeys[d]
				delete(keptKeys, d)
				if early == nil {
					return fc.Argument(3)
				}
				k = early()
			}
			return gd.superValue(fc.Argument(1), k, fc.Argument(3))
		},
		propertyKeyName: func(fc goja.FunctionCall) goja.Value { return gd.usedKey(fc.Argument(0)) },
		heldName: func(goja.FunctionCall) goja.Value {
			k := gd.propertyKey(c.key)
			gd.chargeKey(k)
			return k
		},
		textName: func(fc goja.FunctionCall) goja.Value {
			gd.chargeBigText(fc.Argument(0))
			return p.text(c, fc.Argument(0))
		},
		numName: func(fc goja.FunctionCall) goja.Value {
			return p.number(c, gd, fc.Argument(0).ToInteger(), fc.Argument(1))
		},
		countName: func(fc goja.FunctionCall) goja.Value {
			return gd.count(fc.Argument(0).ToInteger(), fc.Argument(1), fc.Argument(2))
		},
		lengthName: func(fc goja.FunctionCall) goja.Value {
			return gd.setLength(fc.Argument(0).ToInteger(), fc.Argument(1), fc.Argument(2))
		},
		eqName: func(fc goja.FunctionCall) goja.Value {
			return p.equal(c, gd, fc.Argument(0).ToInteger(), fc.Argument(1), fc.Argument(2))
		},
		caseName: func(fc goja.FunctionCall) goja.Value {
			v := fc.Argument(0)
			if s, ok := v.(goja.String); ok {
				if cl := c.call; cl != nil {
					// A case compares its value with the switch's, as ===.
					p.chargeText(cl, gd, s.Length(), compareChars)
				}
			}
			return v
		},
		keysName: func(fc goja.FunctionCall) goja.Value {
			v := fc.Argument(1)
			switch fc.Argument(0).ToInteger() {
			case 1: // a for-in's object, with what it inherits
				gd.chargeKeys(v, true)
			case 2: // the rests an assignment made, read once it has
				if f, ok := goja.AssertFunction(v); ok {
					if list, ok := invoke(f, goja.Undefined()).(*goja.Object); ok {
						for i := range list.Get("length").ToInteger() {
							gd.copied(list.Get(strconv.FormatInt(i, 10)), "a rest")
						}
					}
				}
				return fc.Argument(2)
			case 4: // the key an object pattern with a rest reads first
				return gd.capture
			case 5: // an object given its prototype (a literal's __proto__, a class's extends)
				gd.cost(builtinSteps) // the check of its chain, as Object.create's
				gd.orphan(v)
				gd.linked(v)
				return v
			case 6: // an object a constructor of the UDF's has just made (this)
				gd.made(v)
				return v
			case 8: // K(8, name, f): an anonymous class given the name its place gives it
				if name, ok := v.(goja.String); ok {
					gd.named(fc.Argument(2), name)
				}
				return fc.Argument(2)
			case 7: // a generator function, or an object or class holding generator methods
				name, named := v.(goja.String) // K(7, name, f): the name f's place gives it
				if named {
					v = fc.Argument(2)
				}
				gd.sealed(v)
				if named {
					gd.named(v, name)
				}
				return v
			default:
				gd.copied(v, "a spread")
			}
			return v
		},
		spreadName: func(fc goja.FunctionCall) goja.Value {
			v := fc.Argument(0)
			p.charge(c, gd.items(v, "a spread"), 1, "a spread")
			return v
		},
	} {
		engineName(vm, name, vm.ToValue(f))
	}
	deny := vm.ToValue(func(goja.FunctionCall) goja.Value {
		panic(vm.NewTypeError("code made from strings (eval, new Function) cannot run in a transform"))
	}).(*goja.Object)
	strLen := func(fc goja.FunctionCall) float64 { return float64(len(fc.This.String())) }
	arg := func(fc goja.FunctionCall, i int) float64 {
		if i >= len(fc.Arguments) || goja.IsUndefined(fc.Arguments[i]) {
			return 0
		}
		f := fc.Argument(i).ToFloat()
		if math.IsNaN(f) {
			return 0 // as the built-ins read it: 'x'.repeat(NaN) is ""
		}
		return f
	}
	// goja's repeat appends the string once per count, and the pads their
	// filler once per copy: about 3.5 ns a piece natively and 40 in
	// js/wasm, so a call of 64 one-character repeats of a million (within
	// the allocation budget) took 1.6-1.8 s in js/wasm. Besides the bound,
	// their pieces are charged a step per 512 (the pads' by the length
	// they reach, a bound on their copies).
	pieces := func(what string, bound, count func(goja.FunctionCall) float64) func(goja.FunctionCall) bool {
		return func(fc goja.FunctionCall) bool {
			n := bound(fc)
			gd.tooLong(what, n)
			return p.charge(c, count(fc), stringPieces, what) && gd.afford(what, n)
		}
	}
	first := func(fc goja.FunctionCall) float64 { return arg(fc, 0) }
	repeatCheck := pieces("repeat", func(fc goja.FunctionCall) float64 { return strLen(fc) * arg(fc, 0) }, first)
	if proto := objectAt(vm, "String.prototype"); proto != nil {
		if orig, ok := goja.AssertFunction(proto.Get("repeat")); ok {
			replaceMethod(vm, proto, "repeat", nil, func(fc goja.FunctionCall) goja.Value {
				if !repeatCheck(fc) {
					return goja.Undefined()
				}
				if s, n, ok := plainRepeat(fc); ok {
					return repeatASCII(vm, s, n)
				}
				v, err := orig(fc.This, fc.Arguments...)
				if err != nil {
					panic(err)
				}
				return v
			})
		}
	}
	wrap(vm, "String.prototype", "padStart", pieces("padStart", first, first))
	wrap(vm, "String.prototype", "padEnd", pieces("padEnd", first, first))
	// fill's items are charged as steps (chargeBulk), far below
	// UDFStringBytes.
	gd.boundPatterns() // before install, which notes RegExp as it is then
	gd.boundConversions()
	gd.boundElements()
	gd.boundKeys()
	gd.boundComparisons()
	gd.boundBigText()
	gd.install()
	chargeBulk(gd, p, c)
	chargeIterators(gd, p, c)
	gd.boundPositions() // around the guards above, it charges first
	gd.boundThis()      // last: the string methods' this converted first
	f := programFunc(vm, lockdown)
	// sized refuses a binary buffer made from a count past the bound, as
	// the string builders are: new ArrayBuffer(3e8) or new Uint8Array(3e8)
	// allocated 286 MiB in one call.
	sized := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		what, n := fc.Argument(2).String(), fc.Argument(0).ToFloat()*fc.Argument(1).ToFloat()
		gd.tooLong(what, n)
		gd.afford(what, n) // a stop ends the call before the constructor runs
		return goja.Undefined()
	})
	// charged charges the items of a Map's or Set's first argument.
	charged := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		what := fc.Argument(1).String()
		return vm.ToValue(p.charge(c, gd.items(fc.Argument(0), what), 1, what))
	})
	names := make([]any, len(typedArrays))
	for i, n := range typedArrays {
		names[i] = n
	}
	// copied does the same for a typed array made from an array-like
	// object, whose length the constructor reads: new Float64Array({length:
	// 3e8}) took 37 s and 4.7 GB.
	copied := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		what := fc.Argument(2).String()
		o, ok := fc.Argument(0).(*goja.Object)
		if !ok || o.ExportType() == arrayBufferType { // goja names a buffer's class "Object"
			return goja.Undefined()
		}
		n := gd.items(o, what)
		if n == 0 && o.ClassName() == "Object" && !isTypedArray(o) {
			if _, iterable := o.GetSymbol(goja.SymIterator).(*goja.Object); !iterable {
				n = gd.steadyLength(o, what)
			}
		}
		gd.tooLong(what, n*fc.Argument(1).ToFloat())
		gd.afford(what, n*fc.Argument(1).ToFloat())
		if c.call == nil || isTypedArray(o) {
			return goja.Undefined()
		}
		// The items, converted here (guards.elements), as the typed
		// array would convert them.
		if items := gd.elements(o, namedKind(what)); items != nil {
			return items
		}
		return goja.Undefined()
	})
	// bigFrom converts BigInt's argument as BigInt would, and refuses a
	// text past UDFBigIntBits/3 characters: math/big reads a decimal text
	// in time quadratic in its length (a million digits took 2.4 s).
	bigFrom := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		v := gd.toPrimitive(fc.Argument(0), "number")
		if s, ok := v.(goja.String); ok && s.Length() > limits.UDFBigIntBits/3 {
			gd.throwRange(fmt.Sprintf("BigInt would read a text of %d characters; subplay allows at most %d", s.Length(), limits.UDFBigIntBits/3))
		}
		return v
	})
	// viewed charges a typed array's offset and length in a buffer, strings
	// the constructor converts (chargeText).
	viewed := vm.ToValue(func(fc goja.FunctionCall) goja.Value {
		for _, a := range fc.Arguments {
			gd.chargeNumber(a)
		}
		return goja.Undefined()
	})
	if _, err := f(goja.Undefined(), deny, g, sized, charged, copied, viewed, bigFrom, vm.NewArray(names...)); err != nil {
		panic("transform: sandbox: " + err.Error())
	}
	gd.boundProxies() // after the sandbox's own Proxies
	gd.installCapture()
	gd.boundConstruct()
	gd.listProtos()
	// The flags of assignments' patterns (flagged): an object the code
	// sets, under a name it cannot change.
	flags := vm.NewObject()
	_ = flags.SetPrototype(nil)
	engineName(vm, flagsName, flags)
	if c.code != nil {
		for _, name := range c.code.flagNames {
			_ = g.DefineDataProperty(name, goja.Undefined(), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
	}
}

// charge counts the work of a built-in or a spread over n items as n/per
// steps of the call, before it runs: the engine loops over them with no
// step of the UDF's, so a short UDF could otherwise make it loop for
// seconds or allocate gigabytes in one operation ([...Array(1e7).keys()]
// took 10.9 s natively, Array.from({length: 1e7}) allocated 2.4 GB). per is
// 1 where each item becomes a value and 8 where the loop only reads them.
// Past the call's or the request's steps it stops the call, as the steps of
// the UDF's own loops do, so every entry gives the same verdict. It
// reports whether the built-in may run.
func (p *Program) charge(c *compiled, n, per float64, what string) bool {
	cl := c.call
	if cl == nil {
		return true
	}
	if cl.stopped != "" {
		return false
	}
	if !(n > 0) {
		return true
	}
	k := math.Ceil(n / per)
	if k > p.stepsLeft(c) {
		p.refuseSteps(c, what, countText(n))
		return false
	}
	cl.steps += int(k)
	return true
}

// chargeHint is the hint of a charged built-in's stop.
const chargeHint = "a transform edits one message: work on fewer items at a time (an array made by Array(n) or a length of n has n items for these built-ins, even when empty)"

// stepsLeft is how many steps the current call may still take, within
// its own budget and the request's. With no call running nothing is
// counted, and it gives limits.UDFSplitPieces, the bound a split then
// keeps.
func (p *Program) stepsLeft(c *compiled) float64 {
	cl := c.call
	if cl == nil {
		return limits.UDFSplitPieces
	}
	return float64(max(0, min(limits.UDFCallSteps-cl.steps, limits.UDFRequestSteps-p.steps-cl.steps)))
}

// refuseSteps stops the call: what, over items (a count in words), would
// take it past its steps or the request's.
func (p *Program) refuseSteps(c *compiled, what, items string) {
	cl := c.call
	if limits.UDFCallSteps-cl.steps <= limits.UDFRequestSteps-p.steps-cl.steps {
		cl.refuse("udf-budget", fmt.Sprintf("%s over %s items would take the call past its %d steps (loop iterations, calls, and the items built-ins go through)", what, items, limits.UDFCallSteps), chargeHint)
		return
	}
	cl.refuse("udf-budget", fmt.Sprintf("%s over %s items would take the request's UDFs past their %d steps together", what, items, limits.UDFRequestSteps), chargeHint)
}

func countText(n float64) string {
	if n > 1e15 {
		return "an unbounded number of"
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

// items is how many items the engine goes through to iterate or copy v:
// a string's characters (a String object's too), an array's, arguments'
// or typed array's length (steadyLength), a Map's or Set's size. A user's iterable counts 0: its next is the
// UDF's code, whose calls are steps. So does an iterator of the engine's
// own (arr.keys()): Array.prototype's keys, values and entries charge
// when they make one.
func (g *guards) items(v goja.Value, what string) float64 {
	switch v := v.(type) {
	case goja.String:
		return float64(v.Length())
	case *goja.Object:
		switch c := v.ClassName(); {
		case c == "Array", c == "Arguments", c == "String", isTypedArray(v):
			return g.steadyLength(v, what)
		case c == "Map", c == "Set":
			if n := v.Get("size"); n != nil {
				return n.ToFloat()
			}
		}
	}
	return 0
}

// isTypedArray reports whether o is a typed array. goja gives them the
// class name "Object"; what tells them apart is the Go type they export
// to, a slice of numbers (an array's is of interfaces), which it reads
// without copying.
func isTypedArray(o *goja.Object) bool {
	t := o.ExportType()
	return t != nil && t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Interface
}

// typedArrays are the typed array constructors' names.
var typedArrays = []string{"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

// lengthOf is ToLength(o.length).
func lengthOf(o *goja.Object) float64 {
	v := o.Get("length")
	if v == nil {
		return 0
	}
	return toLength(v.ToFloat())
}

// chargeBulk makes the built-ins that go through many items in one call
// charge them first (Program.charge): those that make a value of each
// (Array.from, concat, slice, splice, flat, sort, reverse, copyWithin, an
// array's keys, values and entries, Function.prototype.apply, Reflect's
// apply and construct with their arguments, Object.keys and its kin on a
// string or an array) per item, those that only read them (indexOf,
// includes, join, and the methods that call a callback, whose calls are
// steps of their own) per 8. A length read for it runs a getter on an
// array-like object a second time.
func chargeBulk(g *guards, p *Program, c *compiled) {
	vm := g.vm
	// self counts the items of the built-in's this.
	self := func(fc goja.FunctionCall, what string) float64 {
		switch t := fc.This.(type) {
		case *goja.Object:
			return g.steadyLength(t, what)
		case goja.String:
			return float64(t.Length())
		}
		return 0
	}
	arrayLike := func(v goja.Value, what string) float64 {
		if n := g.items(v, what); n > 0 {
			return n
		}
		if o, ok := v.(*goja.Object); ok && o.ClassName() == "Object" {
			return g.steadyLength(o, what)
		}
		return 0
	}
	arg := func(i int) func(goja.FunctionCall, string) float64 {
		return func(fc goja.FunctionCall, what string) float64 { return g.items(fc.Argument(i), what) }
	}
	// withArgs counts this and its arguments: one item each, or, spread,
	// their items (concat's).
	withArgs := func(spread bool) func(goja.FunctionCall, string) float64 {
		return func(fc goja.FunctionCall, what string) float64 {
			n := self(fc, what)
			for _, a := range fc.Arguments {
				if spread {
					n += max(g.items(a, what), 1)
				} else {
					n++
				}
			}
			return n
		}
	}
	// digits is the digits a number's formatting asks for (its argument,
	// a primitive: an object's conversion is the built-in's).
	digits := func(fc goja.FunctionCall, what string) float64 {
		if d := fc.Argument(0); !isObject(d) && !goja.IsUndefined(d) {
			return max(d.ToFloat(), 0)
		}
		return 0
	}
	for _, b := range []struct {
		path, name string
		per        float64
		count      func(goja.FunctionCall, string) float64
	}{
		{"Array", "from", 1, func(fc goja.FunctionCall, what string) float64 { return arrayLike(fc.Argument(0), what) }},
		{"Array.prototype", "concat", 1, withArgs(true)},
		{"Array.prototype", "slice", 1, self},
		{"Array.prototype", "splice", 1, self},
		{"Array.prototype", "flat", 1, self},
		{"Array.prototype", "sort", 1, self},
		{"Array.prototype", "reverse", 1, self},
		{"Array.prototype", "copyWithin", 1, self},
		{"Array.prototype", "fill", 1, self},
		{"Array.prototype", "keys", 1, self},
		{"Array.prototype", "values", 1, self},
		{"Array.prototype", "entries", 1, self},
		// shift and unshift move every item (a memmove of the whole
		// array, fast per item, but 45,000 of them on 250,000 items took
		// 14 s; a sparse array goes index by index).
		{"Array.prototype", "shift", 16, self},
		{"Array.prototype", "unshift", 16, withArgs(false)},
		{"Array.prototype", "indexOf", 8, self},
		{"Array.prototype", "lastIndexOf", 8, self},
		{"Array.prototype", "includes", 8, self},
		{"Array.prototype", "join", 8, self},
		{"Array.prototype", "toString", 8, self},
		{"Array.prototype", "toLocaleString", 8, self},
		{"Array.prototype", "forEach", 8, self},
		{"Array.prototype", "map", 8, self},
		{"Array.prototype", "filter", 8, self},
		{"Array.prototype", "some", 8, self},
		{"Array.prototype", "every", 8, self},
		{"Array.prototype", "find", 8, self},
		{"Array.prototype", "findIndex", 8, self},
		{"Array.prototype", "findLast", 8, self},
		{"Array.prototype", "findLastIndex", 8, self},
		{"Array.prototype", "reduce", 8, self},
		{"Array.prototype", "reduceRight", 8, self},
		{"Array.prototype", "flatMap", 8, self},
		{"Array.prototype", "toSorted", 1, self},
		{"Array.prototype", "toReversed", 1, self},
		{"Array.prototype", "toSpliced", 1, self},
		{"Array.prototype", "with", 1, self},
		// Typed arrays' own (their length is bounded by UDFStringBytes in
		// bytes, up to 16 Mi items).
		{"%TypedArray%.prototype", "join", 8, self},
		{"%TypedArray%.prototype", "toString", 8, self},
		{"%TypedArray%.prototype", "toLocaleString", 8, self},
		{"%TypedArray%.prototype", "indexOf", 8, self},
		{"%TypedArray%.prototype", "lastIndexOf", 8, self},
		{"%TypedArray%.prototype", "includes", 8, self},
		{"%TypedArray%.prototype", "sort", 1, self},
		{"%TypedArray%.prototype", "reverse", 8, self},
		{"%TypedArray%.prototype", "slice", 8, self},
		{"%TypedArray%.prototype", "map", 8, self},
		{"%TypedArray%.prototype", "filter", 8, self},
		{"%TypedArray%.prototype", "forEach", 8, self},
		{"%TypedArray%.prototype", "fill", 8, self},
		{"%TypedArray%.prototype", "copyWithin", 8, self},
		{"%TypedArray%.prototype", "set", 8, func(fc goja.FunctionCall, what string) float64 { return arrayLike(fc.Argument(0), what) }},
		{"%TypedArray%.prototype", "keys", 1, self},
		{"%TypedArray%.prototype", "values", 1, self},
		{"%TypedArray%.prototype", "entries", 1, self},
		{"Function.prototype", "apply", 1, func(fc goja.FunctionCall, what string) float64 { return arrayLike(fc.Argument(1), what) }},
		{"Reflect", "apply", 1, func(fc goja.FunctionCall, what string) float64 { return arrayLike(fc.Argument(2), what) }},
		{"Reflect", "construct", 1, func(fc goja.FunctionCall, what string) float64 { return arrayLike(fc.Argument(1), what) }},
		{"Reflect", "ownKeys", 1, arg(0)},
		{"Object", "keys", 1, arg(0)},
		{"Object", "values", 1, arg(0)},
		{"Object", "entries", 1, arg(0)},
		{"Object", "getOwnPropertyNames", 1, arg(0)},
		{"Object", "getOwnPropertyDescriptors", 1, arg(0)},
		{"Object", "assign", 1, func(fc goja.FunctionCall, what string) float64 {
			n := 0.0
			for i := 1; i < len(fc.Arguments); i++ {
				n += g.items(fc.Arguments[i], what)
			}
			return n
		}},
		// Work per character of a text in one Go call. normalize of a
		// text outside ASCII (ASCII goes through at once) took about
		// 1 us a character natively and 2.5 in js/wasm (1.5 million
		// "\u00c5" to NFD: 1.6 s and 3.7 s at a step per 32 characters,
		// too little): a step per character,
		// as much as a light step costs in js/wasm. localeCompare took
		// 0.16 us a character natively, 0.55 in js/wasm (two texts of
		// 750,000: 0.25 and 0.83 s): a step per 4 (TestConversionsCharged's
		// normalize and localeCompare cases). parseFloat: below.
		{"String.prototype", "normalize", 1, func(fc goja.FunctionCall, what string) float64 {
			if s, ok := fc.This.(goja.String); ok && g.copiesParts(s) {
				return float64(s.Length())
			}
			return 0
		}},
		// A search for a string (not a regular expression, whose searches
		// are charged as they go) reads up to the whole text: fast per
		// character, but 300 indexOf of a 16 MB text in one statement took
		// 2.2 s in js/wasm with no step between them.
		{"String.prototype", "indexOf", compareChars, self},
		{"String.prototype", "lastIndexOf", compareChars, self},
		{"String.prototype", "includes", compareChars, self},
		// The case conversions copy the text, about 3.6 ns a character
		// natively and ten times that in js/wasm: toUpperCase of 16
		// million characters took 0.9 s there with the repeat that made
		// them (the allocation budget alone bounded it).
		{"String.prototype", "toUpperCase", 64, self},
		{"String.prototype", "toLowerCase", 64, self},
		{"String.prototype", "toLocaleUpperCase", 64, self},
		{"String.prototype", "toLocaleLowerCase", 64, self},
		{"String.prototype", "localeCompare", 4, func(fc goja.FunctionCall, what string) float64 { return self(fc, what) + g.items(fc.Argument(0), what) }},
		{"Number", "parseInt", 32, arg(0)},
		// The trims read the text whole (and copy it when it is outside
		// ASCII), about 9 ns a character of space: 300 trim() of 8 MB
		// in one statement took 22 s natively. startsWith and endsWith
		// compare up to their argument's length, a character at a time
		// (300 of 8 MB: 13.8 s).
		{"String.prototype", "trim", 256, self},
		{"String.prototype", "trimStart", 256, self},
		{"String.prototype", "trimEnd", 256, self},
		{"String.prototype", "trimLeft", 256, self},
		{"String.prototype", "trimRight", 256, self},
		{"String.prototype", "startsWith", 256, arg(0)},
		{"String.prototype", "endsWith", 256, arg(0)},
		// Digits worked out one by one with big numbers: toPrecision(100)
		// of the largest double took 16 µs, toString(2) of it and
		// toString(3) of the smallest 19 µs together, tens of a plain
		// step's time; a step per 4 digits asked for, and 32 for a radix
		// other than 10 (up to 1,100 digits).
		{"Number.prototype", "toPrecision", 4, digits},
		{"Number.prototype", "toFixed", 4, digits},
		{"Number.prototype", "toExponential", 4, digits},
		{"Number.prototype", "toString", 1, func(fc goja.FunctionCall, what string) float64 {
			if r := fc.Argument(0); !goja.IsUndefined(r) && (isObject(r) || r.ToFloat() != 10) {
				return 32
			}
			return 0
		}},
		// BigInt.asIntN and asUintN make a BigInt of the size they are
		// given: refused past UDFBigIntBits, before they allocate.
		{"BigInt", "asIntN", 1, g.bigSize},
		{"BigInt", "asUintN", 1, g.bigSize},
		// String.raw goes through its template's raw strings.
		{"String", "raw", 1, func(fc goja.FunctionCall, what string) float64 {
			if o, ok := fc.Argument(0).(*goja.Object); ok {
				if raw, ok := o.Get("raw").(*goja.Object); ok {
					return arrayLike(raw, what)
				}
			}
			return 0
		}},
	} {
		what, count, per := b.path+"."+b.name, b.count, b.per
		if strings.HasSuffix(b.path, ".prototype") {
			what = b.name
		}
		wrap(vm, b.path, b.name, func(fc goja.FunctionCall) bool { return p.charge(c, count(fc, what), per, what) })
	}
	// parseFloat finds the number at the start of its text with a regular
	// expression (goja's, Go's regexp), about 280 ns a character natively
	// and 2.8 us in js/wasm: 150 parseFloat of 10,000 digits took 0.83 s
	// and 4.2 s at a step per 32 characters, too little. The characters the expression reads (after
	// the leading white space, the run of those a number is written
	// with) are charged a step each, the rest a step per 32; an object
	// is converted first, as parseFloat's first step does
	// (TestConversionsCharged's parseFloat case).
	pf := objectAt(vm, "Number")
	parseFloat := original(pf, "parseFloat", nil)
	g.set(pf, "parseFloat", nil, func(fc goja.FunctionCall) goja.Value {
		if g.c.call == nil {
			return invoke(parseFloat, fc.This, fc.Arguments...)
		}
		s := g.text(&fc, 0)
		run := numberPrefix(s)
		if !p.charge(c, float64(run)+float64(s.Length()-run)/32, 1, "parseFloat") {
			return goja.Undefined()
		}
		return invoke(parseFloat, fc.This, fc.Arguments...)
	})
	// The global parseFloat and parseInt are Number's (one function each).
	_ = vm.GlobalObject().Set("parseFloat", pf.Get("parseFloat"))
	_ = vm.GlobalObject().Set("parseInt", pf.Get("parseInt"))
}

// numberPrefix is how much of s parseFloat's regular expression goes
// through: after the leading white space, the run of the characters a
// number is written with (digits, the sign, the point, the exponent's e
// and the letters of Infinity).
func numberPrefix(s goja.String) (run int) {
	n, lead := s.Length(), 0
	for lead < n {
		c := s.CharAt(lead)
		if c != 0xfeff && !unicode.IsSpace(rune(c)) && c != 0x2028 && c != 0x2029 {
			break
		}
		lead++
	}
	for lead+run < n && strings.ContainsRune("0123456789+-.eEInfinity", rune(s.CharAt(lead+run))) {
		run++
	}
	return run
}

// chargeIterators makes the engine's own iterators (an array's, a
// string's, a Map's, a Set's, matchAll's) charge a step per 2 items they
// give (per 8, a rest of 16 million characters went through 400,000
// items, 0.34 s natively, before the steps ran out). The engine drains one in a Go loop with no step of the UDF's for
// a destructuring rest (var [...r] = 'x'.repeat(16e6) took 16.7 s and
// 1.5 GB), Promise.all, Object.fromEntries and the like; once the call is
// stopped, next throws, which ends such a loop, and the stop takes effect
// at the UDF's next step. A for-of loop's items are steps of their own
// besides, at half a step more each.
func chargeIterators(g *guards, p *Program, c *compiled) {
	vm := g.vm
	protoOf := func(v goja.Value, method *goja.Symbol, args ...goja.Value) *goja.Object {
		o := v.ToObject(vm)
		f, ok := goja.AssertFunction(o.GetSymbol(method))
		if !ok {
			return nil
		}
		it, err := f(o, args...)
		if err != nil {
			return nil
		}
		if io, ok := it.(*goja.Object); ok {
			return io.Prototype()
		}
		return nil
	}
	newOf := func(name string) goja.Value {
		o, err := vm.New(vm.GlobalObject().Get(name))
		if err != nil {
			panic("transform: sandbox: " + err.Error())
		}
		return o
	}
	rx, _ := vm.New(vm.GlobalObject().Get("RegExp"), vm.ToValue("a"), vm.ToValue("g"))
	for _, proto := range []*goja.Object{
		protoOf(vm.NewArray(), goja.SymIterator),
		protoOf(vm.ToValue(""), goja.SymIterator),
		protoOf(newOf("Map"), goja.SymIterator),
		protoOf(newOf("Set"), goja.SymIterator),
		protoOf(rx, goja.SymMatchAll, vm.ToValue("")),
	} {
		if proto == nil {
			continue
		}
		next, ok := goja.AssertFunction(proto.Get("next"))
		if !ok {
			continue
		}
		// Not a call the UDF makes (for-of, a spread, a destructuring
		// call it), and charged by its items: no builtinSteps.
		replaceMethodUncharged(vm, proto, "next", nil, func(fc goja.FunctionCall) goja.Value {
			if cl := c.call; cl != nil {
				if cl.iterated++; cl.iterated%2 == 0 {
					p.tick(c, 1)
				}
				if cl.stopped != "" {
					g.halt()
				}
			}
			return invoke(next, fc.This, fc.Arguments...)
		})
	}
}

// plusProgram makes the engine's own +, compiled once (not the user's
// code: nothing in it is instrumented).
var plusProgram = goja.MustCompile("plus", "(function (a, b) { return a + b })", true)

// lockdown takes away the ways to make code from strings; compiled once,
// run in every runtime.
//
// It also puts each binary buffer constructor (ArrayBuffer, the typed
// arrays) behind a function that has sized check a count (anything but an
// object: the constructor converts it to an index) before the constructor
// runs; an object is an existing buffer, array or iterable, which the
// constructor copies or views. The Map, Set, WeakMap and WeakSet
// constructors likewise have charged count the items of what they are
// given (Program.charge). The function has the constructor's own
// properties (its prototype, name, BYTES_PER_ELEMENT), its parent (whose
// from and of construct through the function) and new.target, so
// instanceof, the statics and subclasses behave as before, and each
// prototype's constructor is the function, as the global is. (A Proxy
// would do it in fewer lines, but goja's instanceof refuses a Proxy.)
var lockdown = goja.MustCompile("sandbox", `(function (deny, g, sized, charged, copied, viewed, bigFrom, typedArrays) {
	"use strict";
	var lock = function (o, k, v) { Object.defineProperty(o, k, { value: v, writable: false, configurable: false }); };
	Object.defineProperty(deny, "prototype", { value: Function.prototype });
	lock(g, "eval", deny);
	lock(g, "Function", deny);
	lock(Function.prototype, "constructor", deny);
	[function* () {}, async function () {}].forEach(function (f) {
		lock(Object.getPrototypeOf(f), "constructor", deny);
	});
	var construct = Reflect.construct, define = Object.defineProperty, toNumber = Number, keys = Reflect.ownKeys,
		describe = Object.getOwnPropertyDescriptor, setProto = Object.setPrototypeOf, getProto = Object.getPrototypeOf;
	var apply = Reflect.apply;
	["ArrayBuffer", "Map", "Set", "WeakMap", "WeakSet"].concat(typedArrays).forEach(function (name) {
		var C = g[name];
		if (typeof C !== "function") {
			return;
		}
		var per = C.BYTES_PER_ELEMENT || 1, collection = name.slice(-3) === "Map" || name.slice(-3) === "Set";
		var W = function (n) {
			if (new.target === undefined) {
				return apply(C, this, arguments); // throws, as C does
			}
			if (collection) {
				// The items of an array, a string, a Map or a Set the
				// constructor goes through.
				if (!charged(n, "new " + name)) {
					return;
				}
			} else if (n === null || (typeof n !== "object" && typeof n !== "function")) {
				// ToIndex: undefined and NaN are 0; a BigInt or a Symbol
				// throws in the constructor.
				var k = typeof n === "bigint" || typeof n === "symbol" ? 0 : toNumber(n);
				sized(k === k ? k : 0, per, "new " + name);
			} else if (name !== "ArrayBuffer") {
				// An array, a typed array or an array-like to copy: its
				// items, as many as its length says (a buffer is viewed,
				// not copied).
				var items = copied(n, per, "new " + name);
				if (items !== undefined) {
					arguments[0] = items;
				}
				// A view of a buffer: its offset and length, converted to
				// numbers by the constructor.
				viewed(arguments[1], arguments[2]);
			}
			return construct(C, arguments, new.target);
		};
		keys(C).forEach(function (k) {
			if (k !== "length") {
				define(W, k, describe(C, k));
			}
		});
		setProto(W, getProto(C));
		define(C.prototype, "constructor", { value: W, writable: true, enumerable: false, configurable: true });
		define(g, name, { value: W, writable: true, enumerable: false, configurable: true });
	});
	// BigInt converts its argument once, through bigFrom, which refuses a
	// text too long to read in time. A proxy tells a call from a
	// construction (see guards.go's behind: a function testing new.target
	// made BigInt(5) inside a constructor throw "not a constructor").
	var B = g.BigInt;
	if (typeof B === "function") {
		var isProto = Object.prototype.isPrototypeOf, get = Reflect.get, has = Symbol.hasInstance;
		var instance = function (v) {
			return (typeof v === "object" && v !== null || typeof v === "function") && apply(isProto, this.prototype, [v]);
		};
		var WB = new Proxy(B, {
			apply: function (t, self, args) { return B(bigFrom(args[0])); },
			construct: function (t, args, target) { return construct(B, args, target); }, // throws, as B does
			get: function (t, k, r) { return k === has ? instance : get(t, k, r); }
		});
		define(B.prototype, "constructor", { value: WB, writable: true, enumerable: false, configurable: true });
		define(g, "BigInt", { value: WB, writable: true, enumerable: false, configurable: true });
	}
})`, true)

// wrap replaces obj[name] (obj named by a path from the global object,
// see objectAt) with a function that first calls check, which panics to
// refuse, or returns false when the call was stopped (the built-in then
// does not run). The function keeps the built-in's name and arity, as code
// may read them.
func wrap(vm *goja.Runtime, path, name string, check func(goja.FunctionCall) bool) {
	obj := objectAt(vm, path)
	orig, ok := goja.AssertFunction(obj.Get(name))
	if !ok {
		return
	}
	replaceMethod(vm, obj, name, nil, func(fc goja.FunctionCall) goja.Value {
		if !check(fc) {
			return goja.Undefined()
		}
		v, err := orig(fc.This, fc.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	})
}

// objectAt finds an object by its path from the global object
// ("String.prototype"); "%TypedArray%" names the typed arrays' common
// parent, which has no global.
func objectAt(vm *goja.Runtime, path string) *goja.Object {
	o := vm.GlobalObject()
	for _, k := range strings.Split(path, ".") {
		if k == "%TypedArray%" {
			o = o.Get("Uint8Array").ToObject(vm).Prototype()
			continue
		}
		o = o.Get(k).ToObject(vm)
	}
	return o
}

func size(n float64) string {
	if math.IsNaN(n) || math.IsInf(n, 0) || n > 1e15 {
		return "an unbounded value"
	}
	return fmt.Sprintf("%.0f bytes or items", n)
}

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func allocated() uint64 {
	metrics.Read(allocSample)
	if allocSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return allocSample[0].Value.Uint64()
}

// begin starts a call on input bytes (its message, or the code).
func (p *Program) begin(c *compiled, input int) *call {
	a := allocated()
	now := time.Now()
	cl := &call{p: p, c: c, start: now, alloc0: a, paced: a, budget: budgetFor(input), looked: now}
	p.input += input
	if rest := p.requestBudget() - min(p.allocated, p.requestBudget()); rest+requestSlack < cl.budget {
		cl.budget, cl.byRequest = rest, true
	}
	c.call = cl
	c.vm.ClearInterrupt()
	cl.watch()
	return cl
}

// testSandbox, when a test sets it, is given each runtime the sandbox
// prepares (TestWatchStopsAStatement adds work the steps do not see).
var testSandbox func(vm *goja.Runtime)

// netTime is how long a call may run natively before the watch stops it
// (limits.UDFCallSeconds; a variable so that a test can wait less).
var netTime = limits.UDFCallSeconds * time.Second

// watch is the native net under the steps: a goroutine's timer stops the
// call once it has run netTime, and the call's context stops it when its
// caller stops waiting, also in the middle of a statement with no step.
// One statement may repeat work the steps do not see any number of times
// (3,000 comparisons of two 8 MB strings took 2.5 s natively, 3,000 +s of
// 4 million digits over 100 s) and kept a server's core after its client
// had gone. Under js/wasm no other goroutine runs while the call does, so
// there is no watch (the page's loader has its own time-out).
func (cl *call) watch() {
	if runtime.GOOS == "js" {
		return
	}
	// The runtime as the call starts: a stop sets c.vm to nil (the next
	// message starts afresh) before the call's end ends the watch, and a
	// watch firing in between read that nil (a panic in CI, the caller's
	// context cancelled just then). Interrupting the runtime let go of is
	// harmless.
	vm := cl.c.vm
	fire := func(why string) {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		if cl.ended {
			return
		}
		cl.fired = why
		vm.Interrupt(why)
	}
	cl.timer = time.AfterFunc(netTime, func() { fire(fmt.Sprintf("it ran longer than %d s", limits.UDFCallSeconds)) })
	if ctx := cl.p.opts.Ctx; ctx != nil {
		cl.stopWatch = context.AfterFunc(ctx, func() { fire("its caller stopped waiting") })
	}
}

// unwatch ends the watch: after it nothing interrupts the runtime for this
// call (the next call clears what a watch fired just before).
func (cl *call) unwatch() {
	cl.mu.Lock()
	cl.ended = true
	cl.mu.Unlock()
	if cl.timer != nil {
		cl.timer.Stop()
	}
	if cl.stopWatch != nil {
		cl.stopWatch()
	}
}

func (p *Program) end(cl *call) {
	cl.unwatch()
	p.steps += cl.steps
	p.allocated += allocated() - cl.alloc0
	cl.c.call = nil
}

// requestBudget is what the calls of the request may allocate together:
// what one call on all their inputs together may (budgetFor). Each call's
// own budget leaves the next a fresh one, and five messages with a loop
// that allocates 31 MB each, within each call's budget, took 3 s in js/wasm
// with a budget per call alone (TestRequestAllocBudget).
func (p *Program) requestBudget() uint64 { return budgetFor(p.input) }

// requestSlack is how much less than its own budget a call may have left
// of the request's and still get its own: the top-level code runs before
// the first message, and what it allocates (a few KB for a function's
// declaration, and whatever else runs in the process meanwhile) would
// otherwise leave the first call a budget a few KB short of its own.
const requestSlack = 1 << 20

// tick is called by the instrumented code at every step, with the
// weight of the region it starts (its expression nodes per regionNodes).
func (p *Program) tick(c *compiled, w int) {
	cl := c.call
	if cl == nil || cl.stopped != "" {
		return
	}
	// before is the count at the last step's end: the built-ins' own
	// charges (builtinSteps) come between.
	before := cl.ticked
	cl.steps += w
	defer func() { cl.ticked = cl.steps }()
	// The allocation counter is read after the built-ins have announced
	// lookBuilt bytes, and otherwise, natively, when the last read is
	// allocLook old (reading it costs more than a light step: 0.8 of the
	// 1.1 us of an empty loop's step natively; work that allocates much
	// takes time, so a step after a long one still looks), under js/wasm
	// every lookSteps steps (a read of the clock there is a call out to
	// JavaScript).
	var allocs uint64
	looked := cl.built >= lookBuilt
	if !looked {
		if cheapClock {
			looked = time.Since(cl.looked) >= allocLook
		} else {
			looked = cl.steps-cl.lookedAt >= lookSteps
		}
	}
	if looked {
		allocs, cl.lookedAt, cl.built = allocated(), cl.steps, 0
		if cheapClock {
			cl.looked = time.Now()
		}
	}
	if ctx := p.opts.Ctx; ctx != nil {
		// A look every stop.Every steps: a step may count more than one
		// (a large region), so the multiple crossed, not reached.
		var err error
		if cl.steps/stop.Every != before/stop.Every {
			err = stop.Check(ctx, 0)
		}
		if err == nil && looked && allocs-cl.paced >= limits.WorkerPauseBytes {
			// A few heavy steps are as much work as many light ones.
			cl.paced = allocs
			err = stop.Heavy(ctx)
		}
		if err != nil {
			// Not cached (c.stopped), and answered "cancelled" whatever
			// the finding says.
			cl.stop("its caller stopped waiting")
			return
		}
	}
	switch {
	case p.pastSteps(cl):
	case looked && allocs-cl.alloc0+cl.pending > cl.budget:
		cl.stop(cl.overBudget("it allocated"))
	case (looked || cl.steps/1024 != before/1024) && cl.overtime():
		// The net, not the budget: a call within UDFCallSteps takes about
		// a second even in the browser, so only work the steps do not
		// count (backtracking regular expressions, each stopped by its
		// own time-out natively) gets here. A verdict that depended on the
		// machine's speed would differ between the entries, so the steps
		// decide everything else. Read at each look too: under js/wasm,
		// where no watch runs, 1,024 steps of work they do not count
		// (each converting an 8 MB string in a length's assignment) would
		// run minutes between two reads.
		cl.stop(fmt.Sprintf("it ran longer than %d s", limits.UDFCallSeconds))
	}
}

// pastSteps stops the call when its steps, or its request's, pass their
// limits, and reports whether it did.
func (p *Program) pastSteps(cl *call) bool {
	switch {
	case cl.steps > limits.UDFCallSteps:
		cl.stop(fmt.Sprintf("it took more than %d steps (loop iterations and calls)", limits.UDFCallSteps))
	case p.steps+cl.steps > limits.UDFRequestSteps:
		cl.stop(fmt.Sprintf("the request's UDFs took more than %d steps together", limits.UDFRequestSteps))
	default:
		return false
	}
	return true
}

// lookSteps is, under js/wasm, how many steps a call goes between two
// reads of the allocation counter. There the clock is JavaScript's
// (performance.now, Date.now: a call out of the instance, and workerd's
// stands still while code runs), and reading it at every step made a
// loop's steps take about 1.4 times as long in Chromium
// (site/test's BenchmarkLoopingUDF). A step is at most
// regionNodes expression nodes, each making a value at most, so 16 steps
// allocate some hundred KB between two reads; what the built-ins build in one go they announce
// (lookBuilt) or check themselves (guards.afford).
const lookSteps = 16

// lookBuilt is how much the built-ins may announce they build (overAlloc)
// before the next step reads the allocation counter, whatever lookSteps
// says: a few steps that each build a megabyte are as much work as many
// light ones, and pause by it (limits.WorkerPauseBytes).
const lookBuilt = limits.WorkerPauseBytes / 4

// cheapClock says whether reading the clock costs little next to a step:
// natively, not under js/wasm.
const cheapClock = runtime.GOOS != "js"

// allocLook is, natively, the longest a call's steps go without reading
// the allocation counter. What a call allocates between two reads is what it
// can allocate in that time (a few hundred KB at memory speed): the
// built-ins that build much in one Go call look before they build
// (guards.afford), as + and the template literals do; the rest allocate
// a value at a time.
const allocLook = 20 * time.Microsecond

// callTime is UDFCallSeconds, a variable so that a test can wait less.
var callTime = limits.UDFCallSeconds * time.Second

func (cl *call) overtime() bool {
	return time.Since(cl.start) > callTime
}

func (cl *call) overtimeFinding(what string) diag.Diagnostic {
	return finding(diag.Warning, "udf-slow", fmt.Sprintf("%s ran longer than %d s on this machine; a regular expression stopped by its time-out reads as no match, so the result may be wrong", what, limits.UDFCallSeconds),
		"look for a regular expression that backtracks (nested quantifiers such as (a+)+) or a built-in given a huge value", diag.Span{})
}

// budgetFor is the allocation budget of a call on input bytes: it grows
// with the input, up to limits.UDFCallAllocBytes.
func budgetFor(input int) uint64 {
	return min(uint64(limits.UDFCallAllocBase)+uint64(limits.UDFCallAllocPerByte)*uint64(max(input, 0)), limits.UDFCallAllocBytes)
}

// mib writes a size in MiB, to a tenth where it is not whole.
func mib(n uint64) string {
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64), ".0") + " MiB"
}

// overBudget is the finding of a call stopped by its allocation budget:
// what it did, and the budget with how it was set.
func (cl *call) overBudget(what string) string {
	if cl.byRequest {
		return fmt.Sprintf("%s more than %s, what the request's UDFs had left of their budget together (%d MiB and %d bytes for each byte of their inputs, at most %d MiB)",
			what, mib(cl.budget), limits.UDFCallAllocBase>>20, limits.UDFCallAllocPerByte, limits.UDFCallAllocBytes>>20)
	}
	return fmt.Sprintf("%s more than %s, its budget (%d MiB and %d bytes for each byte of its input, at most %d MiB)",
		what, mib(cl.budget), limits.UDFCallAllocBase>>20, limits.UDFCallAllocPerByte, limits.UDFCallAllocBytes>>20)
}

// overAlloc reports whether what the call has allocated (and counted in
// advance, pending) and more bytes about to be built pass its budget.
func (cl *call) overAlloc(more float64) bool {
	if more > 0 {
		cl.built += more
	}
	return float64(allocated()-cl.alloc0+cl.pending)+more > float64(cl.budget)
}

func (cl *call) stop(why string) {
	cl.stopped = why
	cl.c.vm.Interrupt(why)
}

// refuse stops the call with a finding of its own: the UDF cannot catch it.
func (cl *call) refuse(code, why, hint string) {
	cl.code, cl.hint = code, hint
	cl.stop(why)
}

// left is called on the left operand of every + (leftName), and notes
// its length as a string for concat. It returns a primitive as it is. An
// object's conversion (its valueOf or toString) comes after the right
// operand, so the + gets a stand-in for it instead: concat converts the
// object there, where the + would, and hands the primitive to the
// stand-in, whose Symbol.toPrimitive gives it to the +; when concat did
// not (the call was stopped), the stand-in converts the object itself,
// as the + would have.
func (p *Program) left(c *compiled, g *guards, fc goja.FunctionCall) goja.Value {
	v := fc.Argument(1)
	if cl := c.call; cl != nil {
		if len(cl.lefts) >= maxLefts {
			// Only operands whose right side threw get here this many:
			// forgetting them leaves later sums unknown, never wrong.
			cl.lefts = cl.lefts[:0]
		}
		n, str := textLength(v)
		l := leftOperand{site: fc.Argument(0).ToInteger(), length: n, str: str, bits: bitsOf(v), seen: true}
		if o, ok := v.(*goja.Object); ok {
			h := &heldPrimitive{object: o}
			stand := g.vm.NewObject()
			_ = stand.SetSymbol(goja.SymToPrimitive, func(call goja.FunctionCall) goja.Value {
				if h.value == nil {
					return g.toPrimitive(h.object, call.Argument(0).String())
				}
				return h.value
			})
			l.object, v = h, stand
		}
		cl.lefts = append(cl.lefts, l)
	}
	return v
}

// heldPrimitive is an object left of a + and, once concat has converted
// it, the primitive the + adds.
type heldPrimitive struct {
	object *goja.Object
	value  goja.Value
}

// maxLefts bounds call.lefts.
const maxLefts = 1024

// leftOperand is what left noted of a + at a site: its left operand's
// length in UTF-16 units as a string, and whether it is one.
type leftOperand struct {
	site   int64
	length int
	str    bool
	object *heldPrimitive // an object's stand-in's, nil for a primitive
	// bits is a BigInt's size, -1 for anything else or when not known;
	// seen says left saw the operand (then -1 is a number, not unknown).
	bits int
	seen bool
}

// textLength is the length of a primitive as + would join it to a string
// (a number's digits, "null"), and whether it is a string; -1 for an
// object, whose conversion is not known here.
func textLength(v goja.Value) (int, bool) {
	switch v := v.(type) {
	case goja.String:
		return v.Length(), true
	case *goja.Object, *goja.Symbol:
		return -1, false
	}
	if b := bitsOf(v); b >= 0 {
		// At most a digit more than a BigInt's text has, and a sign: its
		// text is not written here (that is math/big's slow part).
		return b*30103/100000 + 2, false
	}
	return len(v.String()), false
}

// concat is called on the right operand of every + (memName), before the
// + adds, and returns what the + adds. It converts an object on either
// side to the primitive the + would use (its valueOf or toString runs
// once, here, where the + would run it, the left one first; the left's
// goes to its stand-in, see left), and checks both (Program.check).
func (p *Program) concat(c *compiled, g *guards, fc goja.FunctionCall) goja.Value {
	v := fc.Argument(2)
	cl := c.call
	if cl == nil || cl.stopped != "" {
		return v
	}
	site, feed := fc.Argument(0).ToInteger(), fc.Argument(1).ToInteger()
	l := cl.takeLeft(site)
	if h := l.object; h != nil {
		h.value = g.prim(h.object)
		l.length, l.str = textLength(h.value)
		l.bits = bitsOf(h.value)
	}
	v = g.prim(v)
	right, rightStr := textLength(v)
	// A BigInt joined to a string is written as text.
	if rightStr {
		g.chargeBits(l.bits)
	}
	if l.str {
		g.chargeBigText(v)
	}
	n := p.check(cl, g, l.length, l.str, right, rightStr)
	if feed != 0 {
		// What this + builds is the left operand of the + at site feed: a
		// string of n characters, or unknown when it builds none.
		next := leftOperand{site: feed, length: -1, bits: -1}
		if n >= 0 {
			next.length, next.str = n, true
		}
		cl.lefts = append(cl.lefts, next)
	}
	return v
}

// takeLeft is what left noted of the + (or *, **, <<) at site, taken off
// the list; unknown (-1) when left did not see it.
func (cl *call) takeLeft(site int64) leftOperand {
	for i := len(cl.lefts) - 1; i >= 0; i-- {
		if cl.lefts[i].site == site {
			// Entries above it are of operands whose right side threw.
			l := cl.lefts[i]
			cl.lefts = cl.lefts[:i]
			return l
		}
	}
	return leftOperand{length: -1, bits: -1}
}

// big is called on the right operand of every *, ** and << (bigName),
// before the operator computes, and returns what it computes with. As
// concat does for +, it converts an object on either side to the number
// or BigInt the operator would use, where the operator would, and
// checks the size of a BigInt result (checkBig).
func (p *Program) big(c *compiled, g *guards, fc goja.FunctionCall) goja.Value {
	v := fc.Argument(3)
	cl := c.call
	if cl == nil || cl.stopped != "" {
		return v
	}
	site, feed, op := fc.Argument(0).ToInteger(), fc.Argument(1).ToInteger(), fc.Argument(2).ToInteger()
	l := cl.takeLeft(site)
	if h := l.object; h != nil {
		h.value = g.toPrimitive(h.object, "number")
		l.bits = bitsOf(h.value)
		l.length, l.str = textLength(h.value)
	}
	v = g.toPrimitive(v, "number")
	p.chargeOperands(cl, g, op, l.length, l.str, v)
	n := -1
	switch {
	case op <= opShiftLeft:
		n = p.checkBig(cl, g, op, l.bits, l.seen && l.bits < 0, v)
	case op < opLess && l.bits >= 0 && bitsOf(v) >= 0:
		// -, /, %, the bitwise ones: no larger than the larger operand
		// and a carry.
		n = max(l.bits, bitsOf(v)) + 1
	}
	if feed != 0 {
		cl.lefts = append(cl.lefts, leftOperand{site: feed, length: -1, bits: n})
	}
	return v
}

// bigAssign is X *= R, X **= R and X <<= R (bigAssignName; see readTwice
// for X): both operands converted as the operator converts them, checked,
// then computed by the engine's own operator.
func (p *Program) bigAssign(c *compiled, g *guards, op int64, x, r goja.Value) goja.Value {
	x = g.toPrimitive(x, "number")
	r = g.toPrimitive(r, "number")
	if cl := c.call; cl != nil && cl.stopped == "" {
		n, str := textLength(x)
		p.chargeOperands(cl, g, op, n, str, r)
		if op <= opShiftLeft {
			p.checkBig(cl, g, op, bitsOf(x), bitsOf(x) < 0, r)
		}
	}
	v, err := c.arith(goja.Undefined(), x, r, g.vm.ToValue(op))
	if err != nil {
		panic(err)
	}
	return v
}

// The numbers the instrumented code gives bigName, bigAssignName and
// numName for an operator (instrument.go's bigOps), and arithProgram's.
const (
	opUnary       = iota // numName's: a unary +, - or ~
	opMul                // *
	opPow                // **
	opShiftLeft          // <<, the last that checkBig bounds
	opSub                // -
	opDiv                // /
	opRem                // %
	opAnd                // &
	opOr                 // |
	opXor                // ^
	opShiftRight         // >>
	opUShiftRight        // >>>
	opLess               // <, the first relational one
	opGreater            // >
	opLessEq             // <=
	opGreaterEq          // >=
	opCompare            // numName's: a comparison with a string literal
	opCount              // numName's: a length's new value, which it only charges
	opIncrement          // numName's: x++ or x--, whose operand it converts
)

// The numbers eqName is given for ==, !=, === and !== (instrument.go's
// equality).
const (
	eqLoose = 1 + iota
	eqLooseNot
	eqStrict
	eqStrictNot
)

// A string converted to a number, or compared, is gone through by one Go
// call of the engine, with no step between: +s of 16 million digits took
// 118 ms natively (3,000 of 4 million in one statement over 100 s), Number(s)
// and s * 1 about 160 ms, s === t of two 16 MB strings 2.9 ms. So each is
// charged as steps before it runs, at parseFloat's rate for a conversion
// (numberChars, as Number.parseFloat) and indexOf's for a comparison
// (compareChars); a string of convertFree characters or fewer costs
// nothing, so that no ordinary operator costs more than it did.
const (
	numberChars  = 32
	compareChars = 1024
	keyChars     = -compareChars // compareChars' rate, with a key's words
	convertFree  = literalChars
)

// chargeText charges the steps of converting (per numberChars),
// comparing (per compareChars) or using as a key (keyChars: compareChars'
// rate) a string of n characters. Past the call's
// or the request's steps it stops the call and throws, so that the
// operator does not run.
func (p *Program) chargeText(cl *call, g *guards, n, per int) {
	if n <= convertFree || cl.stopped != "" {
		return
	}
	chars := max(per, -per)
	k := (n + chars - 1) / chars
	if float64(k) <= p.stepsLeft(cl.c) {
		cl.steps += k
		return
	}
	what := "converting a string of %d characters to a number"
	switch per {
	case compareChars:
		what = "comparing a string of %d characters"
	case keyChars:
		what = "using a string of %d characters as a property's or a collection's key"
	}
	cl.refuse("udf-budget", fmt.Sprintf(what+" would take %s (a step per %d characters)", n, p.whose(cl), chars),
		"converting or comparing a long string goes through all of it each time: do it once and keep the result")
	g.halt()
}

// whose names the budget a charge past the steps left would pass: the
// call's, or the request's when less of it is left.
func (p *Program) whose(cl *call) string {
	if limits.UDFCallSteps-cl.steps > limits.UDFRequestSteps-p.steps-cl.steps {
		return fmt.Sprintf("the request's UDFs past their %d steps together", limits.UDFRequestSteps)
	}
	return fmt.Sprintf("the call past its %d steps", limits.UDFCallSteps)
}

// chargeOperands charges what operator op (by bigOps' numbers) does to
// its operands, converted to primitives: the left one's length and
// whether it is a string, and the right one. A relational operator
// compares two strings and converts anything else to numbers.
func (p *Program) chargeOperands(cl *call, g *guards, op int64, llen int, lstr bool, r goja.Value) {
	rlen, rstr := textLength(r)
	if op >= opLess && lstr && rstr {
		p.chargeText(cl, g, min(llen, rlen), compareChars)
		return
	}
	if lstr {
		p.chargeText(cl, g, llen, numberChars)
	}
	if rstr {
		p.chargeText(cl, g, rlen, numberChars)
	}
}

// number is numName: the operand of a unary +, - or ~ (op 0), or of a
// numeric or relational operator op whose other operand is a primitive
// already, converted to the primitive the operator would use, where the
// operator would (nothing runs between), and charged (chargeText).
// opCompare says the other operand is a string, so a string here is
// compared with it, not converted; opCount that the operand is assigned
// to a length, only charged (an array's length converts an object twice
// itself); opIncrement that it is x's of x++ or x--: an object is
// converted and the primitive held for convertedName, which the code puts
// back in x before the operator runs, and the answer is whether x was
// left as it was (true) or not.
func (p *Program) number(c *compiled, g *guards, op int64, v goja.Value) goja.Value {
	cl := c.call
	if op == opIncrement {
		kept := !isObject(v)
		if !kept {
			c.converted = g.toPrimitive(v, "number")
			v = c.converted
		}
		g.chargeNumber(v)
		return g.vm.ToValue(kept)
	}
	if cl == nil || cl.stopped != "" {
		return v
	}
	if op != opCount {
		v = g.toPrimitive(v, "number")
	}
	if s, ok := v.(goja.String); ok {
		per := numberChars
		if op == opCompare {
			per = compareChars
		}
		p.chargeText(cl, g, s.Length(), per)
	}
	return v
}

// count is countName: ++ or -- (kind: countDown and the other bits) of
// base's property key, as the engine would do it, but for what the
// property holds being converted here, to a primitive (an object's valueOf
// runs once), charged when it is a string, then to a number or a BigInt.
// The engine's own ++ of a property converts with no step: a string of
// millions of digits, or an object's valueOf giving one, each time. The
// property is read and set through Reflect.get and Reflect.set as the
// sandbox found them, with base as the receiver (a getter of a primitive's
// prototype sees the primitive) and key given to each to convert, as V8
// converts it for the read and again for the write.
func (g *guards) count(kind int64, base, key goja.Value) goja.Value {
	vm := g.vm
	if base == nil || goja.IsUndefined(base) || goja.IsNull(base) {
		panic(vm.NewTypeError("Cannot read properties of %s%s", base, reading(key)))
	}
	obj := base.ToObject(vm)
	g.chargeKey(key) // an object's string is the engine's to make, twice
	var v goja.Value
	if k := asciiKey(key); k != "" && isObject(base) && obj.ExportType() != proxyType {
		// The object's [[Get]] with itself as the receiver, as Reflect.get
		// does it, without a call out to it.
		v = obj.Get(k)
	} else {
		v = invoke(g.reflectGet, goja.Undefined(), obj, key, base)
	}
	if v == nil {
		v = goja.Undefined() // goja's Reflect.get gives nil for a property a primitive's object lacks
	}
	v = g.toPrimitive(v, "number")
	g.chargeNumber(v)
	step := int64(1)
	if kind&countDown != 0 {
		step = -1
	}
	var old, next goja.Value
	if b, ok := v.Export().(*big.Int); ok && v.ExportType() == bigIntType {
		old, next = v, vm.ToValue(new(big.Int).Add(b, big.NewInt(step)))
	} else {
		old = v.ToNumber()
		next = vm.ToValue(old.ToFloat() + float64(step))
	}
	if !g.reflectSetOn(obj, key, next, base) && kind&countStrict != 0 {
		panic(vm.NewTypeError("Cannot set the property%s of %s", reading(key), valueKind(base)))
	}
	if kind&countPrefix != 0 {
		return next
	}
	return old
}

// asciiKey is a property key that is a string of ASCII characters as Go
// reads it, and "" for any other (a Go string of other text may not say the
// same key: a lone surrogate).
func asciiKey(key goja.Value) string {
	if k, ok := key.(goja.String); ok && asciiString(k) {
		return k.String()
	}
	return ""
}

// setLength is lengthName: base.length = v (kind: countStrict or 0), as
// put does it: an array's length converts v here (arrayLength), and one
// that cannot be written converts nothing and is left as it is, as in V8;
// anything else (a plain object, a Proxy) is given v to set as it is. Its
// value is v.
func (g *guards) setLength(kind int64, base, v goja.Value) goja.Value {
	return g.put(kind, base, g.vm.ToValue("length"), v)
}

// arrayLength converts v as an array's length (obj's) is given it: twice,
// as the spec's ArraySetLength does (an object's valueOf runs twice, a
// string each time charged), the first to a whole length, the second to
// compare (RangeError when they differ). Set (an assignment, not a
// definition) converts nothing when the length cannot be written, as in
// V8; it reports whether it converted.
func (g *guards) arrayLength(obj *goja.Object, v goja.Value, define bool) (goja.Value, bool) {
	if !define {
		d, _ := invoke(g.describe, goja.Undefined(), obj, g.vm.ToValue("length")).(*goja.Object)
		if d == nil || !d.Get("writable").ToBoolean() {
			return v, false
		}
	}
	number := func() float64 {
		x := g.toPrimitive(v, "number")
		g.chargeNumber(x)
		return x.ToFloat()
	}
	n := toUint32(number())
	if float64(n) != number() {
		g.throwRange("Invalid array length")
	}
	return g.vm.ToValue(n), true
}

// put is putName: base[key] = v (kind: countStrict or 0), as the engine
// would do it, in V8's order (the key converted once, after v is made),
// but where the engine would convert v with no step, converting it here:
// a typed array's element (key a canonical numeric string, whether or not
// it is in range, as the spec's TypedArraySetElement) gets v as a number
// or a BigInt (element), and an array's length as arrayLength converts
// it (written). Anything else gets v as it is. The set is Reflect.set's as
// the sandbox found it, with base as the receiver. Its value is v.
func (g *guards) put(kind int64, base, key, v goja.Value) goja.Value {
	if k := g.decide(kind, base, key, v); k != nil {
		g.setOn(kind, base, k, v, true)
	}
	return v
}

// setOn sets v at key k (a property key) of base through Reflect.set as
// the sandbox found it, with base as the receiver, when ok (false: a set
// known to fail), and in strict code (kind) throws when it failed.
func (g *guards) setOn(kind int64, base, k, v goja.Value, ok bool) {
	if !(ok && g.reflectSetOn(base.ToObject(g.vm), k, v, base)) && kind&countStrict != 0 {
		panic(g.vm.NewTypeError("Cannot set the property%s of %s", reading(k), valueKind(base)))
	}
}

// decide is put's work but the set of an object that converts nothing: it
// converts the key (charged when it is a long string) and, for an array
// or a typed array (converting's), sets v converted and gives nil. For
// anything else it gives the key, for the caller to set v at (putHelper
// sets it in JavaScript, cheaper than a call to Reflect.set).
func (g *guards) decide(kind int64, base, key, v goja.Value) goja.Value {
	vm := g.vm
	if base == nil || goja.IsUndefined(base) || goja.IsNull(base) {
		panic(vm.NewTypeError("Cannot set properties of %s%s", base, setting(key)))
	}
	k := g.key(key)
	g.chargeKey(k)
	o := g.converting(base)
	if o == nil {
		return k
	}
	set, ok := g.written(o, k, v)
	g.setOn(kind, base, k, set, ok)
	return nil
}

// key is the spec's ToPropertyKey: a Symbol, or a string (an object's
// toString run once).
func (g *guards) key(v goja.Value) goja.Value {
	k := g.propertyKey(v)
	switch k.(type) {
	case goja.String, *goja.Symbol:
		return k
	}
	g.chargeBigText(k)
	return g.vm.ToValue(k.String()) // a number's, a boolean's, null's: ASCII text
}

// usedKey is a key the engine is about to use (propertyKeyName,
// boundKeys): a string charged when it is long (chargeKey), any other
// primitive as it is (the engine converts it at once), and an object
// in a stand-in that converts it and charges the result when the
// engine converts the stand-in (its Symbol.toPrimitive): V8 checks the
// base first (null[k] and k in 5 throw with k not converted), and so
// does the engine.
func (g *guards) usedKey(v goja.Value) goja.Value {
	switch o := v.(type) {
	case goja.String:
		g.chargeKey(v)
	case *goja.Object:
		d, _ := g.earlyKey(o) // converted only when the engine asks
		return d
	}
	g.chargeBigText(v)
	return v
}

// earlyKey is usedKey's stand-in for an object key whose conversion may be
// made before the engine asks (early): the engine's next conversion then
// gives that key, running nothing more.
func (g *guards) earlyKey(v *goja.Object) (*goja.Object, func() goja.Value) {
	var made goja.Value
	convert := func() goja.Value {
		k := g.key(v)
		g.chargeKey(k)
		return k
	}
	d := g.vm.NewObject()
	_ = d.SetSymbol(goja.SymToPrimitive, g.vm.ToValue(func(goja.FunctionCall) goja.Value {
		if made != nil {
			k := made
			made = nil
			return k
		}
		return convert()
	}))
	return d, func() goja.Value {
		made = convert()
		return made
	}
}

// chargeKey charges a property key that is a long string, as compared
// (compareChars), for a set or a collection's lookup: the engine goes
// through all of it each time (a property's set with a key of 8 million
// characters took 0.6 ms natively and 6 ms in js/wasm, a Map's or Set's
// lookup 1 and 13-15 ms; TestConversionsCharged's "a long key set" and "a
// Map's long key").
func (g *guards) chargeKey(k goja.Value) {
	if s, ok := k.(goja.String); ok {
		if cl := g.c.call; cl != nil {
			g.p.chargeText(cl, g, s.Length(), keyChars)
		}
	}
}

// setting is a key as the message of a set on null or undefined quotes it
// (as reading, but "(setting 'k')").
func setting(key goja.Value) string {
	if r := reading(key); r != "" {
		return " (setting" + r + ")"
	}
	return ""
}

// Typed arrays' contents: numbers, or BigInts (BigInt64Array,
// BigUint64Array).
const (
	numberElements = 1 + iota
	bigElements
)

// namedKind is what the typed array or the DataView method a name names
// holds or writes: BigInts for BigInt64Array, BigUint64Array,
// setBigInt64 and setBigUint64, numbers for the others.
func namedKind(name string) int {
	if strings.Contains(name, "Big") {
		return bigElements
	}
	return numberElements
}

// typedElement says what a typed array holds (0 for anything else): a
// BigInt array exports to a slice of 64-bit integers, the others to
// slices of smaller integers or floats.
func typedElement(o *goja.Object) int {
	if o == nil || !isTypedArray(o) {
		return 0
	}
	switch o.ExportType().Elem().Kind() {
	case reflect.Int64, reflect.Uint64:
		return bigElements
	}
	return numberElements
}

// canonicalNumeric says whether s is a canonical numeric string (the
// spec's CanonicalNumericIndexString): "-0", or what a number converts
// to. A typed array converts what it is given for such a key, whether or
// not it is an index in range, and sets nothing for any other. No
// number's text is longer than 24 characters, so a longer key is not
// converted here.
func canonicalNumeric(s goja.String) bool {
	if s.Length() > 24 {
		return false
	}
	t := s.String()
	return t == "-0" || s.ToNumber().String() == t
}

// element converts v as a typed array holding t converts what it is
// given, here (an object's valueOf once, a string charged), and returns
// what the array converts with no cost of its own: a number, or for a
// BigInt array the primitive (a string past UDFBigIntBits/3 characters
// refused, as BigInt refuses it: math/big reads one in quadratic time).
func (g *guards) element(t int, v goja.Value) goja.Value {
	p := g.toPrimitive(v, "number")
	s, ok := p.(goja.String)
	if !ok {
		return p
	}
	g.chargeNumber(s)
	if t == bigElements {
		if s.Length() > limits.UDFBigIntBits/3 {
			g.throwRange(fmt.Sprintf("BigInt would read a text of %d characters; subplay allows at most %d", s.Length(), limits.UDFBigIntBits/3))
		}
		return p
	}
	return s.ToNumber()
}

// valueKind names what kind of value v is, for an error's message.
func valueKind(v goja.Value) string {
	switch {
	case isObject(v):
		return "an object"
	case v.ExportType() == symbolType:
		return "a symbol"
	case v.ExportType() == bigIntType:
		return "a BigInt"
	}
	switch v.ExportType().Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	}
	return "a number"
}

// reading is a property key as an error's message quotes it: a short
// primitive, or nothing (an object's would have to be converted).
func reading(key goja.Value) string {
	if _, sym := key.(*goja.Symbol); sym || key == nil || isObject(key) {
		return ""
	}
	s := key.String() // a primitive: no code of the UDF's runs
	if utf8.RuneCountInString(s) > limits.QuotedInput {
		return ""
	}
	return " '" + s + "'"
}

// bigIntType and symbolType are the types a BigInt and a Symbol export as.
var (
	bigIntType = reflect.TypeOf((*big.Int)(nil))
	symbolType = reflect.TypeOf((*goja.Symbol)(nil))
)

// equal is eqName: ==, !=, === or !== (num 1 to 4) of a and b, worked
// out by the engine's own comparison once the strings it would go
// through are charged. For ==, an object against a primitive other than
// null and undefined is converted here, as == converts it, and the
// comparison made with the primitive it gave.
func (p *Program) equal(c *compiled, g *guards, num int64, a, b goja.Value) goja.Value {
	strict := num == eqStrict || num == eqStrictNot
	nullish := func(v goja.Value) bool { return v == nil || goja.IsNull(v) || goja.IsUndefined(v) }
	if !strict {
		switch {
		case isObject(a) && !isObject(b) && !nullish(b):
			a = g.toPrimitive(a, "default")
		case isObject(b) && !isObject(a) && !nullish(a):
			b = g.toPrimitive(b, "default")
		}
	}
	if cl := c.call; cl != nil && cl.stopped == "" {
		as, aok := a.(goja.String)
		bs, bok := b.(goja.String)
		converts := func(v goja.Value) bool {
			_, sym := v.(*goja.Symbol)
			return !strict && !nullish(v) && !sym && !isObject(v)
		}
		switch {
		case aok && bok:
			if as.Length() == bs.Length() {
				p.chargeText(cl, g, as.Length(), compareChars)
			}
		case aok && converts(b):
			p.chargeText(cl, g, as.Length(), numberChars)
		case bok && converts(a):
			p.chargeText(cl, g, bs.Length(), numberChars)
		}
	}
	var r bool
	if strict {
		r = a.StrictEquals(b)
	} else {
		r = a.Equals(b)
	}
	return g.vm.ToValue(r != (num == eqLooseNot || num == eqStrictNot))
}

// checkBig bounds a *, ** or << (op by bigOps' numbers; 0 when only the
// right operand is known) whose result is a BigInt, given the left
// operand's size in bits (-1 when not a BigInt or not known), whether
// the left operand is known to be a number, and the right operand: past limits.UDFBigIntBits it throws a
// RangeError, and it charges the call a step per bigStepBits of the
// result, stopping it past its steps. math/big
// computes each in one Go call, which no step can stop: 1n << 4e9n
// allocated 500 MB, and squaring a number in a loop ran 12.8 s. It
// returns the result's size in bits, -1 when it is no BigInt.
func (p *Program) checkBig(cl *call, g *guards, op int64, lbits int, number bool, right goja.Value) int {
	rbits := bitsOf(right)
	if rbits < 0 || number && op != 0 {
		// No BigInt, or a number with a BigInt: the operator throws a
		// TypeError.
		return -1
	}
	var est float64
	switch op {
	case 1: // *
		est = float64(max(lbits, 0) + rbits)
	case 2: // **: about the left's bits times the exponent
		e := bigFloat(right)
		switch {
		case lbits < 0:
			est = e // the base is not known: as if it were 2
		case lbits <= 1 || e <= 0:
			est = float64(max(lbits, 1)) // 0, 1 or -1 to any power, or a negative exponent (which throws)
		default:
			est = float64(lbits) * e
		}
	case 3: // <<: the left's bits plus the shift
		est = float64(max(lbits, 0)) + max(bigFloat(right), 0)
	default: // the right operand alone
		est = float64(rbits)
	}
	if est > limits.UDFBigIntBits {
		g.throwRange(fmt.Sprintf("%s would make a BigInt of %s bits; subplay allows at most %d", bigOpName[op], countText(est), limits.UDFBigIntBits))
	}
	if k := math.Ceil(est / bigStepBits); k > p.stepsLeft(cl.c) {
		cl.refuse("udf-budget", fmt.Sprintf("%s on BigInts of about %s bits would take the UDF past its steps (one per %d bits of a BigInt result)", bigOpName[op], countText(est), bigStepBits),
			"keep BigInts small: their arithmetic costs steps by their size")
		g.halt()
	} else {
		cl.steps += int(k)
	}
	return int(est)
}

// plainRepeat returns the text and count of a repeat that Go makes in
// 64 KiB chunks (repeatASCII), where goja appends the text once per
// count (a million one-character pieces took some 40 ms in js/wasm): an
// ASCII string primitive and a count that is a number from 0 up, the
// checks of the bound and the steps already passed. Anything else (a
// String object, a count to convert, NaN, a negative count and its
// RangeError) goes to goja's own, whose answer it would be anyway.
func plainRepeat(fc goja.FunctionCall) (string, int, bool) {
	if _, obj := fc.This.(*goja.Object); obj || fc.This == nil || fc.This.ExportType() == nil || fc.This.ExportType().Kind() != reflect.String {
		return "", 0, false
	}
	c := fc.Argument(0)
	if t := c.ExportType(); t == nil || (t.Kind() != reflect.Int64 && t.Kind() != reflect.Float64) {
		return "", 0, false
	}
	f := c.ToFloat()
	if math.IsNaN(f) || f < 0 || f > limits.UDFStringBytes {
		return "", 0, false
	}
	s := fc.This.String()
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return "", 0, false
		}
	}
	return s, int(f), true
}

// repeatASCII makes n copies of the ASCII text s as goja's own ASCII
// string, in chunks of about 64 KiB: vm.ToValue would give a long string
// goja's "imported" kind, which goja's own splitter (among others) treats
// otherwise than the string its repeat makes.
func repeatASCII(vm *goja.Runtime, s string, n int) goja.Value {
	if s == "" || n == 0 {
		return vm.ToValue("")
	}
	k := max(1, min(n, (64<<10)/len(s)))
	var cb goja.StringBuilder
	cb.WriteUTF8String(strings.Repeat(s, k)) // read once, as ASCII
	chunk := cb.String()
	var b goja.StringBuilder
	b.Grow(len(s) * n)
	for ; n >= k; n -= k {
		b.WriteString(chunk) // copied as it is
	}
	b.WriteString(chunk.Substring(0, n*len(s)))
	return b.String()
}

// stringPieces is how many pieces of a repeat or a pad cost a step.
const stringPieces = 512

// bigStepBits is how many bits of a BigInt result cost a step: a product
// of 158,000 bits took 1.3 ms natively and is charged 619 steps, so that
// a call of nothing else stops after about 80 of them, near 0.1 s.
const bigStepBits = 256

var bigOpName = map[int64]string{0: "a BigInt operation", opMul: "*", opPow: "**", opShiftLeft: "<<"}

// arithProgram makes the engine's own arithmetic and bitwise operators, by
// bigOps' numbers, for Program.bigAssign.
var arithProgram = goja.MustCompile("arith", fmt.Sprintf(`(function (a, b, op) {
  switch (op) {
  case %d: return a * b; case %d: return a ** b; case %d: return a << b; case %d: return a - b;
  case %d: return a / b; case %d: return a %% b; case %d: return a & b; case %d: return a | b;
  case %d: return a ^ b; case %d: return a >> b; case %d: return a >>> b;
  }
})`, opMul, opPow, opShiftLeft, opSub, opDiv, opRem, opAnd, opOr, opXor, opShiftRight, opUShiftRight), true)

// bitsOf is the size in bits of a BigInt's magnitude, -1 for any other
// value. goja keeps a BigInt as a math/big number, read here in place:
// exporting it would copy it.
func bitsOf(v goja.Value) int {
	if _, obj := v.(*goja.Object); v == nil || obj || v.ExportType() != bigIntPtr {
		return -1 // an object (a BigInt's too: Object(1n)) is not one
	}
	rv := reflect.ValueOf(v)
	if !rv.CanConvert(bigIntPtr) {
		return len(v.String()) * 4 // not reached with this engine: a bound from its digits
	}
	return rv.Convert(bigIntPtr).Interface().(*big.Int).BitLen()
}

// bigFloat is a BigInt's value as a float64 (±Inf past its range).
func bigFloat(v goja.Value) float64 {
	rv := reflect.ValueOf(v)
	if !rv.CanConvert(bigIntPtr) {
		return math.Inf(1)
	}
	f, _ := new(big.Float).SetInt(rv.Convert(bigIntPtr).Interface().(*big.Int)).Float64()
	return f
}

// bigIntPtr is what goja says a BigInt exports to, and what its value
// converts to in place.
var bigIntPtr = reflect.TypeOf((*big.Int)(nil))

// add is X += R for a plain name X (addName): both operands converted to
// primitives, left first, as the + converts them, checked, then added by
// the engine's own +.
func (p *Program) add(c *compiled, g *guards, site int64, x, r goja.Value) goja.Value {
	if goja.IsNumber(x) && goja.IsNumber(r) {
		// Nothing to check, convert or build: the sum, without the
		// engine's + (a call back into JavaScript).
		return g.vm.ToValue(x.ToFloat() + r.ToFloat())
	}
	x = g.prim(x)
	r = g.prim(r)
	if cl := c.call; cl != nil && cl.stopped == "" {
		left, leftStr := textLength(x)
		right, rightStr := textLength(r)
		if leftStr {
			g.chargeBigText(r)
		}
		if rightStr {
			g.chargeBigText(x)
		}
		p.check(cl, g, left, leftStr, right, rightStr)
	}
	v, err := c.plus(goja.Undefined(), x, r)
	if err != nil {
		panic(err)
	}
	return v
}

// right is the right operand of a += on a property (rightName), returned
// as it is: the property is not read twice, so only a string operand's
// length is known.
func (p *Program) right(c *compiled, g *guards, v goja.Value) goja.Value {
	if cl := c.call; cl != nil && cl.stopped == "" {
		if s, ok := v.(goja.String); ok {
			p.check(cl, g, -1, false, s.Length(), true)
		}
		// The property may hold a string (not read here): a BigInt is
		// charged as written as text.
		g.chargeBigText(v)
	}
	return v
}

// check is what every + is checked with before it adds, given the lengths
// of its operands as strings (-1 when not known) and whether each is one.
// When either is a string the + builds one as long as both together: past
// limits.UDFStringBytes it throws a RangeError, as the bounded built-ins
// do, and past the call's allocation budget, counting what it would build,
// it stops the call. So no + allocates past either bound, where a check of
// the allocations before it let one more through, as large as both
// operands (a 16 MiB string added to a 32 MiB one took a call to 92 MiB,
// doubling a string in a loop to 64).
// It returns the length of the string the + builds, -1 when it builds none
// or either length is unknown.
func (p *Program) check(cl *call, g *guards, left int, leftStr bool, right int, rightStr bool) int {
	var built uint64
	n := -1
	if leftStr || rightStr {
		n = max(left, 0) + max(right, 0)
		if n > limits.UDFStringBytes {
			g.refuseLong("+", fmt.Sprintf("%d characters", n))
		}
		built = uint64(n)
		if left < 0 || right < 0 {
			n = -1
		}
	}
	if cl.overAlloc(float64(built)) {
		cl.stop(cl.overBudget("it allocated"))
	}
	return n
}

// text converts a template literal's placeholder to its string, as the
// template would next, and counts its length towards the call's
// allocations before the template joins them all at once.
func (p *Program) text(c *compiled, v goja.Value) goja.Value {
	if o, ok := v.(*goja.Object); ok {
		v = o.ToString()
	}
	cl := c.call
	if s, ok := v.(goja.String); ok && cl != nil && cl.stopped == "" {
		cl.pending += uint64(s.Length())
		if cl.overAlloc(0) {
			cl.stop(cl.overBudget("its template literals would build"))
		}
	}
	return v
}

// recoverCall turns a panic out of the engine (an interrupt or a Go error
// raised while reading a result) into a finding.
func (p *Program) recoverCall(c *compiled, ds *[]diag.Diagnostic, what string) {
	r := recover()
	if r == nil {
		return
	}
	if err, ok := r.(error); ok {
		*ds = p.runError(c, err, what)
		return
	}
	*ds = []diag.Diagnostic{finding(diag.Error, "udf-exception", fmt.Sprintf("%s failed: %v", what, r), "", diag.Span{})}
}

// runError describes an error of the engine as a finding at the place in
// the code where it happened.
func (p *Program) runError(c *compiled, err error, what string) []diag.Diagnostic {
	var ie *goja.InterruptedError
	var so *goja.StackOverflowError
	var ex *goja.Exception
	cl := c.call
	interrupted := errors.As(err, &ie)
	switch {
	case interrupted || cl != nil && cl.stopped != "" && errors.As(err, &ex):
		// A stop, also when what ended the call is the exception a guard
		// threw to leave a loop of the engine's once the call was stopped
		// (no instruction of the UDF's ran after it to be interrupted).
		where := ex
		if interrupted {
			where = &ie.Exception
		}
		why := ""
		if interrupted {
			why = fmt.Sprint(ie.Value())
		}
		if cl != nil && cl.stopped != "" {
			why = cl.stopped
		}
		c.vm = nil // its state is half-way: start afresh for the next message
		if cl != nil && cl.code != "" {
			return []diag.Diagnostic{finding(diag.Error, cl.code, why, cl.hint, p.where(c, where))}
		}
		return []diag.Diagnostic{finding(diag.Error, "udf-budget", what+" was stopped: "+why,
			"look for a loop that never ends or a value that keeps growing", p.where(c, where))}
	case errors.As(err, &so):
		c.vm = nil
		return []diag.Diagnostic{finding(diag.Error, "udf-recursion",
			fmt.Sprintf("%s recursed deeper than %d calls", what, limits.UDFCallStack),
			"look for a function that calls itself without an end", p.where(c, &so.Exception))}
	case errors.As(err, &ex):
		msg := "an exception"
		func() {
			defer func() { _ = recover() }()
			if v := ex.Value(); v != nil {
				msg = diag.Quote(v.String())
			}
		}()
		return []diag.Diagnostic{finding(diag.Error, "udf-exception", what+" threw "+msg,
			"the service does not deliver a message its transform fails on (it goes to the dead-letter topic when one is set)", p.where(c, ex))}
	}
	return []diag.Diagnostic{finding(diag.Error, "udf-exception", what+" failed: "+diag.Quote(err.Error()), "", diag.Span{})}
}

// where is the place in the user's code of the innermost frame of the
// UDF's code in an exception's stack.
func (p *Program) where(c *compiled, ex *goja.Exception) diag.Span {
	if ex == nil || c.code == nil {
		return diag.Span{}
	}
	for _, f := range ex.Stack() {
		if f.SrcName() != "udf" {
			continue
		}
		pos := f.Position()
		if pos.Line == 0 {
			continue
		}
		o := c.code.original(offsetOf(c.code.text, pos.Line, pos.Column))
		return charSpan(c.udf.Code, o)
	}
	return diag.Span{}
}

// offsetOf turns goja's 1-based line and byte column into a byte offset,
// with goja's line breaks (\n, \r\n, \r, U+2028, U+2029).
func offsetOf(s string, line, col int) int {
	o := 0
	for l := 1; l < line && o < len(s); l++ {
		i := o
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029' {
				if r == '\r' && i+1 < len(s) && s[i+1] == '\n' {
					n = 2
				}
				i += n
				break
			}
			i += n
		}
		o = i
	}
	return min(o+max(col-1, 0), len(s))
}

// syntaxWords is goja's syntax message in our form: the token it names
// is the user's text, quoted with diag.Quote ("unexpected token ." ended
// the message with a period; found by FuzzCall, kept as a seed).
func syntaxWords(m string) string {
	m = lowerFirst(m)
	if tok, ok := strings.CutPrefix(m, "unexpected token "); ok {
		return "unexpected token " + diag.Quote(tok)
	}
	return strings.TrimRight(m, ".")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

var stringType = reflect.TypeOf("")
