//go:build !noudf && !quickjs

package transform

import (
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
)

// tickName is the global the instrumented code calls on every loop
// iteration and function entry. Code that mentions it is refused, so a UDF
// can neither shadow it nor call it; it is read-only on the global object.
const tickName = "__subplay_step"

// regionNodes is how many expression nodes of a region (a loop's body
// with its test and update, or a function's body) one step stands for.
// A step counted one iteration whatever the body held, so a loop whose
// body repeated "x = 1" 5,000 times ran its 50,000 steps in 4.9 s
// natively (250 million assignments). A node costs about 6.5 ns natively
// (that loop) and a light step about 0.35 µs, some 50 nodes: a region of
// n nodes now costs ceil(n/64) steps each time it runs, so a step stands
// for at most about a light step's work, and every body of 64 nodes or
// fewer (nearly every loop a transform has) still costs one.
const regionNodes = 64

// tickText is the step call of a region of n expression nodes.
func tickText(n int) string {
	if w := (n + regionNodes - 1) / regionNodes; w > 1 {
		return tickName + "(" + strconv.Itoa(w) + ")"
	}
	return tickName + "()"
}

// leftName, memName and textName are the engine's checks around string
// building (they share tickName's prefix, so the reservation covers them).
// One + or template can build a string as long as its operands together,
// and a chain of them in one expression runs with no loop or call in
// between, so each is checked before it builds:
//   - L + R becomes leftName(k, ((L))) + memName(k, 0, ((R))), k a number
//     of the site: leftName notes the left operand's length, memName adds
//     the right one's and refuses a result past the bounds (Program.concat);
//     in a chain, (L + R) + S, the inner + becomes L' + memName(j, k, ((R)))
//     and tells the length of what it builds to site k, whose left operand
//     it is;
//   - X += R becomes X = addName(k, X', ((R))): the + is taken out and
//     addName adds, with X read once, as += reads it (X' reads it; a base
//     other than a name or this, and a computed key, are evaluated once
//     and held by holdName: see readTwice);
//   - a += whose target cannot be read so (super.x, a private #x, a text
//     the extent scan is unsure of) becomes T += rightName(((R))), where
//     only the right operand's length is known;
//   - textName wraps every placeholder of a template literal (Program.text).
//
// spreadName wraps the operand of every spread (...x in an array, a call or
// an object literal), which the engine iterates with no step of the UDF's:
// it charges the items as steps before they are made (Program.charge).
const (
	leftName  = tickName + "_l"
	memName   = tickName + "_m"
	addName   = tickName + "_a"
	rightName = tickName + "_r"
	// bigName, bigAssignName and bigRightName do for *, ** and << what
	// memName, addName and rightName do for +, with a BigInt's size in
	// bits (Program.big).
	bigName       = tickName + "_n"
	bigAssignName = tickName + "_N"
	bigRightName  = tickName + "_R"
	holdName      = tickName + "_o"
	baseName      = tickName + "_b"
	convertedName = tickName + "_v"
	keyName       = tickName + "_k"
	heldName      = tickName + "_h"
	textName      = tickName + "_t"
	spreadName    = tickName + "_s"
	// numName wraps the operand of a unary +, - or ~, and one operand of
	// the other numeric and relational operators when the other is a
	// literal or a number (Program.number); eqName takes the place of ==,
	// !=, === and !== whose operands are not known to be cheap
	// (Program.equal); caseName wraps a case's value (charged as compared
	// with the switch's).
	// Each charges the steps that converting or comparing a long string
	// costs, before the engine does it in one Go call.
	numName  = tickName + "_u"
	eqName   = tickName + "_e"
	caseName = tickName + "_c"
	// countName takes the place of ++ and -- on a property, o.p++ or
	// ++o[k] becoming countName(kind, ((o)), "p") or countName(kind,
	// ((o)), ((k))): it reads the property, converts and charges what it
	// holds, and sets it (guards.count). The engine's own ++ converts an
	// object it reads with no step, and a string of millions of digits
	// each time.
	countName = tickName + "_i"
	// lengthName takes the place of o.length = v, which becomes
	// lengthName(strict, ((o)), ((v))) (guards.setLength): an array's
	// length converts v twice, with no step.
	lengthName = tickName + "_L"
	// putName takes the place of o[k] = v, which becomes putName(strict,
	// ((o)), ((k)), ((v))) (putHelper, guards.put): a typed array's element
	// converts v to a number, and an array's length twice, with no step,
	// and a long key costs its length.
	putName = tickName + "_P"
	// refName takes the place of a computed member that a destructuring,
	// a for-in or for-of or a logical assignment (&&=, ||=, ??=) writes:
	// o[k] becomes refName(strict, ((o)), ((k))).value, whose setter sets
	// it as putName does (and whose getter reads it, for &&= and the like).
	refName = tickName + "_T"
	// propertyKeyName wraps a computed key the engine uses as it comes:
	// an object literal's ({[k]: v}), a class member's, a pattern's ({[k]:
	// x} = o), and the key of a read (o[k], o[k](), o?.[k], delete o[k],
	// super[k]) or of in (k in o), k becoming propertyKeyName(((k))). It
	// converts an object to its key once (the engine would, just then) and
	// charges a long string, which the engine goes through at each use (a
	// hash of all of it for each table of properties it looks in:
	// guards.chargeKey); a number or another primitive passes as it is.
	propertyKeyName = tickName + "_K"
	// keysName wraps what the engine goes through all the keys of: an
	// object literal's spread ({...o}) and the source of an object
	// pattern with a rest ({a, ...r} = o) as keysName(0, ((o))), which
	// charges the items as spreadName does besides, and a for-in's object
	// as keysName(1, ((o))), with the objects it inherits from. Each
	// charges the long keys they hold (guards.chargeKeys). An assignment
	// to a pattern with rests nested in it becomes keysName(2, () => [r,
	// ...], ((p = v))): the rests' copies charged once it has made them.
	// An object pattern with a rest whose source the code does not name
	// gets the first key [keysName(4)]: the sandbox's key capture, whose
	// getter charges what the rest copies before it does (capture.go).
	keysName = tickName + "_F"
	// restBinding is the name a generator's added rest parameter binds
	// (see keysName's use in instrument).
	restBinding = tickName + "_R"
	// flagName, with a number, is the name a binding pattern's first key
	// (capture) binds, and flagsName the object whose properties an
	// assignment's patterns set so (flagPatterns).
	flagName  = tickName + "_C"
	flagsName = tickName + "_G"
	// superName wraps what super[k] = v or super.length = v is given:
	// superName(strict, this, k, ((v))) converts it as put does when this
	// is a typed array or an array (a super property's set reaches this at
	// last). A computed k is kept as the engine will use it by
	// superName(-1, k) and given as superName(-2); superName(-3, ((the
	// assignment))) makes its value v as given.
	superName = tickName + "_S"
)

// The kind countName is given: the bits of a -- (not ++), of a prefix
// operator (its value is the new number, not the old), and of strict
// code (a property that cannot be set throws, not ignored).
const (
	countDown   = 1
	countPrefix = 2
	countStrict = 4
	// restCopy marks refName's reference to a member that a pattern's
	// rest sets ({...o[k]}): goPut charges the copy it is given.
	restCopy = 8
)

// insertion is text added to the code before the byte at offset at (in the
// user's code), in place of the skip bytes there (the + of a +=). A closing
// insertion ends text an earlier one opened.
type insertion struct {
	at    int
	text  string
	skip  int
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
	// flagNames are the names patterns' first keys bind (flagPatterns):
	// the sandbox makes each a global no list of keys shows, which a var
	// of the top level then is (it would otherwise be one Object.keys of
	// the global object lists).
	flagNames []string
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
	starts := map[ast.Expression]file.Idx{} // exprStartMemo's
	ends := map[ast.Node]file.Idx{}         // nodeEnd's
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
	// around wraps an expression in a call of name, with more arguments
	// before it when more is not empty ("2, x"). The doubled parentheses
	// keep a comma expression one argument. goja's AST leaves parentheses
	// out: the text from the start of "(a) + b" to its end is "a) + b",
	// so a wrapper opens inside the parenthesis and closes outside it. The
	// doubled parentheses absorb up to two such; a deeper one leaves the
	// call around part of the expression, which keeps the program's meaning
	// only for a call that returns its argument. So a call that does more
	// (addName) or is paired with another (leftName, memName) wraps the
	// expression's whole text, parentheses included (see extent).
	aroundAt := func(a, b int, name, more string) {
		if more != "" {
			name += "(" + more + ", "
		} else {
			name += "("
		}
		add(a, name+"((")
		closeAt(b, ")))")
	}
	// rewrites are the plans of countMember, setMember and refMember, made
	// before the walk: a wrapper around one opens where it does (see
	// countMember).
	rewrites := map[ast.Node]rewrite{}
	around := func(e ast.Expression, name, more string) {
		if e != nil {
			start := off(exprStartMemo(e, starts))
			if r, ok := rewrites[e]; ok {
				start = r.start
			}
			aroundAt(start, off(nodeEnd(code, e, ends)), name, more)
		}
	}
	// sites numbers the + and += of the code, for Program.concat to pair
	// each right operand with its left; feeds gives a + whose result is
	// the left operand of another that one's number.
	sites := 0
	feeds := map[*ast.BinaryExpression]string{}
	weights := map[ast.Node]int{}
	safe := counters(prog)
	// num is numeric, with the loop counters that always hold a number.
	num := func(e ast.Expression) bool {
		if id, ok := e.(*ast.Identifier); ok && safe[id] {
			return true
		}
		return numeric(e)
	}
	if _, ok := weigh(reflect.ValueOf(prog), 0, map[uintptr]bool{}, weights, num); !ok {
		return nil, false
	}
	flags, flagged := flagPatterns(prog)
	if !flagged {
		return nil, false
	}
	var flagNames []string
	for p, flag := range flags {
		add(off(p.LeftBrace)+1, "["+keysName+"(4)]: "+flag+", ")
		if !strings.HasPrefix(flag, flagsName) {
			flagNames = append(flagNames, flag)
		}
	}
	// The updates of a property and the assignments to a length, then
	// their plans (which need to know whether the code around is strict:
	// a walk of its own, made only when there is one).
	var updates []*ast.UnaryExpression
	// sets are the assignments setMember plans (to a length, or to a
	// computed member), refs the targets refMember plans.
	var sets []*ast.AssignExpression
	var refs []ast.Expression
	// supers are the assignments to a super property superName checks,
	// with what it is given besides the value (first the key, then the
	// kind and this before it).
	supers := map[*ast.AssignExpression]string{}
	// keptKeys are the computed keys of super[k] = v (see supers).
	keptKeys := map[*ast.BracketExpression]bool{}
	// defaults are the initializers in patterns ([o[k] = 1] = a), which
	// are not assignments to rewrite as such.
	defaults := map[*ast.AssignExpression]bool{}
	// written are the members an assignment, a ++ or --, a pattern or a
	// loop's head writes: their keys are the rewrites' (setMember,
	// refMember, readTwice, countMember) or left as they are, never a
	// read's (propertyKeyName).
	written := map[ast.Expression]bool{}
	// restTargets are the members the rests of patterns set whose copies
	// no other call charges (all but an assignment's own rest, whose source
	// is its right side): refName's reference charges what it is given.
	restTargets := map[ast.Expression]bool{}
	// restFlags are the flags of the patterns whose rests set members
	// (refMember: a copy charged before it was made is not charged again).
	restFlags := map[ast.Expression]string{}
	// targets adds the computed members, and the lengths, that a pattern
	// or a loop's head writes, and the members their rests set.
	var targets func(e ast.Expression)
	targets = func(e ast.Expression) {
		switch x := e.(type) {
		case *ast.BracketExpression:
			written[x] = true
			if _, sup := x.Left.(*ast.SuperExpression); !sup {
				refs = append(refs, x)
			}
		case *ast.DotExpression:
			if _, sup := x.Left.(*ast.SuperExpression); !sup && x.Identifier.Name == "length" {
				refs = append(refs, x)
			}
		case *ast.AssignExpression:
			if x.Operator == token.ASSIGN {
				defaults[x] = true
				targets(x.Left)
			}
		default:
			if p, ok := e.(*ast.ObjectPattern); ok {
				if p.Rest != nil {
					restFlags[p.Rest] = flags[p]
				}
				switch m := p.Rest.(type) {
				case *ast.BracketExpression:
					restTargets[m] = !isSuper(m.Left)
				case *ast.DotExpression:
					if !isSuper(m.Left) {
						restTargets[m] = true
						if m.Identifier.Name != "length" {
							written[m] = true
							refs = append(refs, m)
						}
					}
				}
			}
			patternParts(e, targets)
		}
	}
	walk(reflect.ValueOf(prog), 0, map[uintptr]bool{}, func(v any) {
		switch n := v.(type) {
		case *ast.UnaryExpression:
			if n.Operator == token.INCREMENT || n.Operator == token.DECREMENT {
				written[n.Operand] = true
				switch n.Operand.(type) {
				case *ast.DotExpression, *ast.BracketExpression:
					updates = append(updates, n)
				}
			}
		case *ast.AssignExpression:
			written[n.Left] = true
			if dot, ok := n.Left.(*ast.DotExpression); ok && n.Operator == token.ASSIGN && dot.Identifier.Name == "length" && !num(n.Right) {
				sets = append(sets, n)
			}
			if br, ok := n.Left.(*ast.BracketExpression); ok && n.Operator == token.ASSIGN && !plainKey(br.Member) && (!num(n.Right) || !num(br.Member)) {
				sets = append(sets, n)
			}
			if n.Operator == token.ASSIGN && !num(n.Right) {
				if key := superKey(code, n.Left, off, ends); key != "" {
					supers[n] = key
				} else if br, ok := n.Left.(*ast.BracketExpression); ok && isSuper(br.Left) && !num(br.Member) {
					// super[k] = v with k computed: the key, as the engine
					// will use it, is kept when made (superName(-1, k)) and
					// given to the value's conversion (superName(-2)).
					supers[n] = superName + "(-2)"
					keptKeys[br] = true
				}
			}
			switch l := n.Left.(type) {
			case *ast.ArrayPattern, *ast.ObjectPattern:
				targets(n.Left)
				if p, ok := l.(*ast.ObjectPattern); ok && n.Operator == token.ASSIGN {
					delete(restTargets, p.Rest) // keysName(0) charges the right side
				}
			case *ast.BracketExpression, *ast.DotExpression:
				if logical(n.Operator) {
					targets(n.Left)
				}
			}
		case *ast.ForInStatement:
			if into, ok := n.Into.(*ast.ForIntoExpression); ok {
				targets(into.Expression)
			}
		case *ast.ForOfStatement:
			if into, ok := n.Into.(*ast.ForIntoExpression); ok {
				targets(into.Expression)
			}
		}
	})
	sets = slices.DeleteFunc(sets, func(n *ast.AssignExpression) bool { return defaults[n] })
	if len(updates)+len(sets)+len(refs)+len(supers) > 0 {
		strict := strictCode(prog, len(code))
		for n, key := range supers {
			kind := 0
			if strict(n.Idx0()) {
				kind = countStrict
			}
			supers[n] = strconv.Itoa(kind) + ", this, " + key
		}
		for _, n := range updates {
			if r, ok := countMember(code, n, strict(n.Idx), off, starts, ends); ok {
				rewrites[n] = r
			}
		}
		for _, n := range sets {
			if r, ok := setMember(code, n, strict(n.Left.Idx0()), off, starts, ends); ok {
				rewrites[n] = r
			}
		}
		for _, n := range refs {
			if r, ok := refMember(code, n, strict(n.Idx0()), restTargets[n], restFlags[n], off, starts, ends); ok {
				rewrites[n] = r
			}
		}
	}
	// take adds a rewrite's insertions.
	take := func(n ast.Node) bool {
		r, ok := rewrites[n]
		for _, x := range r.list {
			x.seq = len(ins)
			ins = append(ins, x)
		}
		return ok
	}
	bad := false
	// ownKeys are the spreads of object literals (keysName's, not
	// spreadName's).
	ownKeys := map[*ast.SpreadElement]bool{}
	// inPattern are the assignments that are a pattern's defaults
	// ([{x: {...r}} = w] = a), marked as the walk meets their pattern:
	// nothing can wrap one.
	inPattern := map[*ast.AssignExpression]bool{}
	// stepAround puts a step before an expression, (step(), E), opened
	// before the parentheses E starts with (goja's start of "(a) += 1" is
	// inside them, and "((step(), a) += 1)" would not parse).
	// Each takes the names whose keys keysName charges after the step
	// (restNames).
	stepAround := func(e ast.Expression, region ast.Node, names []string) {
		add(leadingParens(code, off(exprStart(e))), "("+tickText(weights[region])+","+chargeRests(names, ","))
		closeAt(off(nodeEnd(code, e, ends)), ")")
	}
	// declared charges, after each declaration of a list of statements,
	// the rests nested in its patterns (var {a: {...r}} = o), whose source
	// the code does not name: only in a list, where a statement may follow
	// (after the body of an if, it would part the if from its else).
	declared := func(list []ast.Statement) {
		for _, st := range list {
			var bs []*ast.Binding
			switch d := st.(type) {
			case *ast.VariableStatement:
				bs = d.List
			case *ast.LexicalDeclaration:
				bs = d.List
			}
			var names []string
			for _, b := range bs {
				// Within the pattern: its own rest's source is named, and
				// keysName wraps it.
				patternParts(b.Target, func(e ast.Expression) { names = append(names, restNames(e, flags)...) })
			}
			if len(names) == 0 {
				continue
			}
			// Closing, so that it comes before the brace a loop's body
			// gets at the same place (wrapBody).
			closeAt(statementEnd(code, off(nodeEnd(code, st, ends))), ";"+chargeRests(names, ";"))
		}
	}
	wrapBody := func(body ast.Statement, names []string) {
		if body == nil {
			return
		}
		step := tickText(weights[body]) + ";" + chargeRests(names, ";")
		switch b := body.(type) {
		case *ast.BlockStatement:
			if len(names) == 0 {
				add(off(b.LeftBrace)+1, step)
				return
			}
			// The rests are charged outside a block around the body's
			// statements: a body may declare a name the head's rest binds
			// (for ({...r} of l) { let r }), which the charge would meet in
			// its temporal dead zone.
			add(off(b.LeftBrace)+1, step+"{")
			closeAt(off(b.RightBrace), "}")
			return
		case *ast.ExpressionStatement:
			// Around the expression, as around an arrow function's
			// body: goja's start of "(o)" is inside its parenthesis, and
			// a block opened there ("while (x) ({step();o)}") did not
			// parse.
			stepAround(b.Expression, body, names)
			return
		}
		end := statementEnd(code, off(nodeEnd(code, body, ends)))
		start := stmtStart(code, body)
		if start < 1 {
			bad = true // a loop without its step would be unbounded
			return
		}
		add(off(start), "{"+step)
		closeAt(end, "}")
	}
	// prologue is where a list of statements starting at at begins past
	// its directive prologue, so that "use strict" stays a directive, and
	// whether what is put there needs a semicolon first (never at a
	// statement's own start: goja's start of "(a)();" is inside the
	// parenthesis).
	prologue := func(list []ast.Statement, at int) (int, string) {
		sep := ""
		for _, s := range list {
			es, ok := s.(*ast.ExpressionStatement)
			if !ok {
				break
			}
			if _, ok := es.Expression.(*ast.StringLiteral); !ok {
				break
			}
			at, sep = off(nodeEnd(code, es, ends)), ";"
			if j, _ := skipBlank(code, at); j < len(code) && code[j] == ';' {
				at, sep = j+1, ""
			}
		}
		return at, sep
	}
	// funcBody puts the body's step (and first, entry: a check of what
	// the function made when it is called as a constructor) after the
	// directive prologue.
	funcBody := func(b *ast.BlockStatement, entry string, names []string) {
		if b == nil {
			return
		}
		at, sep := prologue(b.List, off(b.LeftBrace)+1)
		add(at, sep+entry+tickText(weights[b])+";"+chargeRests(names, ";"))
	}
	// Prototype chains (chains.go). methods are the functions that are no
	// constructors (methods, getters, setters); derived the constructors
	// of classes that extend, whose this comes from super(); declaredGens
	// the generators declared as statements (sealed where their scope
	// starts, sealing).
	methods := map[*ast.FunctionLiteral]bool{}
	derived := map[*ast.FunctionLiteral]bool{}
	declaredGens := map[*ast.FunctionLiteral]bool{}
	// genNames are the names anonymous generator expressions take from
	// where they stand (var g = function* () {}: "g"), which the call that
	// seals them would take away: it gives them back.
	genNames := map[*ast.FunctionLiteral]string{}
	nameFrom := func(e ast.Expression, name string) {
		if f, ok := e.(*ast.FunctionLiteral); ok && f.Generator && f.Name == nil && name != "" {
			genNames[f] = name
		}
	}
	// fielded are the constructors of base classes whose first field
	// checks this, before their bodies run.
	fielded := map[*ast.FunctionLiteral]bool{}
	const madeCheck = keysName + "(6, this)"
	const entryCheck = "new.target !== void 0 && " + madeCheck
	// sealing is the text that seals the generators a list of statements
	// declares, "K(7, g), K(7, h)", or "".
	sealing := func(list []ast.Statement) string {
		var seals []string
		for _, st := range list {
			if d, ok := st.(*ast.FunctionDeclaration); ok && d.Function != nil && d.Function.Generator && d.Function.Name != nil {
				seals = append(seals, keysName+"(7, "+d.Function.Name.Name.String()+")")
			}
		}
		return strings.Join(seals, ", ")
	}
	// checkBefore runs check before e: (check, e). An anonymous function
	// runs nothing, and is left as it is (a call around it would take away
	// the name its place gives it); an anonymous class runs its computed
	// keys and static parts, and is given that name back (keysName(8)).
	checkBefore := func(e ast.Expression, name, check string) {
		switch anonymous(e) {
		case 1:
			return
		case 2:
			start, end := off(exprStartMemo(e, starts)), off(nodeEnd(code, e, ends))
			aroundAt(start, end, "", check)
			if name != "" {
				aroundAt(start, end, keysName, "8, "+strconv.Quote(name))
			}
			return
		}
		around(e, "", check)
	}
	// sealAt seals, at the start of a list of statements, the generators
	// it declares, which the whole list can call.
	sealAt := func(list []ast.Statement, at int) {
		if seals := sealing(list); seals != "" {
			at, sep := prologue(list, at)
			add(at, sep+seals+";")
		}
	}
	// equal puts eqName(which, ((L)), ((R))) in the place of L op R, an
	// equality whose operands are not both cheap: the operator's text
	// becomes the comma between the arguments. Where an operand's extent
	// is not sure, the equality stays as it is.
	equal := func(n *ast.BinaryExpression, which int) {
		strict := which == eqStrict || which == eqStrictNot
		short := func(e ast.Expression) bool {
			x, ok := e.(*ast.StringLiteral)
			_, null := e.(*ast.NullLiteral)
			return ok && len(x.Value) <= literalChars || null
		}
		if num(n.Left) && num(n.Right) || strict && (literal(n.Left) || literal(n.Right)) || !strict && (short(n.Left) || short(n.Right)) {
			// Bounded: two primitives that convert at once, a strict
			// comparison with a literal (as long as the literal at most),
			// or a loose one with a short string (compared, or converted
			// itself) or null (never converted).
			return
		}
		la, lb, lok := extent(code, exprStartMemo(n.Left, starts), n.Left, off, ends)
		ra, rb, rok := extent(code, exprStartMemo(n.Right, starts), n.Right, off, ends)
		if !lok || !rok {
			return
		}
		op := n.Operator.String()
		j, _ := skipBlank(code, lb)
		if j+len(op) > ra || !strings.HasPrefix(code[j:], op) {
			return
		}
		add(la, eqName+"("+opText(which)+", ((")
		ins = append(ins, insertion{at: j, text: ")), ((", skip: len(op), seq: len(ins)})
		closeAt(rb, ")))")
	}
	ok := walk(reflect.ValueOf(prog), 0, map[uintptr]bool{}, func(n any) {
		switch n := n.(type) {
		case *ast.ForStatement:
			wrapBody(n.Body, nil)
		case *ast.ForInStatement:
			wrapBody(n.Body, restNames(n.Into, flags))
			around(n.Source, keysName, "1")
		case *ast.ForOfStatement:
			wrapBody(n.Body, restNames(n.Into, flags))
		case *ast.WhileStatement:
			wrapBody(n.Body, nil)
		case *ast.DoWhileStatement:
			wrapBody(n.Body, nil)
		case *ast.FunctionLiteral:
			names := restNames(n.ParameterList, flags)
			if at := off(n.ParameterList.Closing); n.Generator && len(names) > 0 && n.ParameterList.Rest == nil && at > 0 && at < len(code) && code[at] == ')' {
				// A generator's body starts at its first next, but its
				// parameters are bound at the call: the rests are charged
				// there, by a rest parameter of the engine's whose pattern's
				// key is keysName's (it binds the array's length).
				sep := ", "
				if trailingComma(code, off(nodeEnd(code, n.ParameterList.List[len(n.ParameterList.List)-1], ends)), at) {
					sep = ""
				}
				add(at, sep+"...{["+keysName+"(2, () => ["+strings.Join(names, ", ")+"], 'length')]: "+restBinding+"}")
				names = nil
			}
			entry := ""
			if !n.Generator && !n.Async && !methods[n] && !derived[n] && !fielded[n] {
				// A constructor's this may inherit from anything its
				// new.target's prototype holds: checked before any code of
				// the function's runs (each default of its parameters, its
				// body).
				entry = entryCheck + ";"
				paramCode(n.ParameterList, func(e ast.Expression, name string) { checkBefore(e, name, entryCheck) })
			}
			if n.Generator && !methods[n] && !declaredGens[n] {
				// A generator expression, sealed as made.
				if name, ok := genNames[n]; ok {
					aroundAt(off(exprStartMemo(n, starts)), off(nodeEnd(code, n, ends)), keysName, "7, "+strconv.Quote(name))
				} else {
					around(n, keysName, "7")
				}
			}
			funcBody(n.Body, entry, names)
		case *ast.ArrowFunctionLiteral:
			switch b := n.Body.(type) {
			case *ast.BlockStatement:
				funcBody(b, "", restNames(n.ParameterList, flags))
			case *ast.ExpressionBody:
				stepAround(b.Expression, b, restNames(n.ParameterList, flags))
			}
		case *ast.CatchStatement:
			if names := restNames(n.Parameter, flags); len(names) > 0 && n.Body != nil {
				add(off(n.Body.LeftBrace)+1, chargeRests(names, ";"))
			}
		case *ast.Program:
			declared(n.Body)
			sealAt(n.Body, 0)
		case *ast.BlockStatement:
			declared(n.List)
			sealAt(n.List, off(n.LeftBrace)+1)
		case *ast.FunctionDeclaration:
			if n.Function != nil && n.Function.Generator {
				declaredGens[n.Function] = true
			}
		case *ast.SwitchStatement:
			// The generators its clauses declare: any clause, and any
			// test, may call them; each seals them first.
			var all []ast.Statement
			for _, c := range n.Body {
				all = append(all, c.Consequent...)
			}
			if seals := sealing(all); seals != "" {
				for _, c := range n.Body {
					if c.Test != nil && !literal(c.Test) {
						around(c.Test, "", seals)
					}
					if len(c.Consequent) > 0 {
						if at := stmtStart(code, c.Consequent[0]); at >= 1 {
							add(off(at), seals+";")
						} else {
							bad = true
						}
					}
				}
			}
		case *ast.CallExpression:
			if isSuper(n.Callee) {
				// this, as super() has made it (chains.go).
				around(n, keysName, "6")
			}
		case *ast.BinaryExpression:
			if logical(n.Operator) && mayBeConstant(n.Left) {
				// goja's compiler folds a &&, || or ?? whose left operand
				// is a constant, and each level of a chain asks the
				// levels below it again: a chain of n constants took 2^n
				// steps (26 links of "1&&", 60 bytes, compiled in 8 s). A
				// comma expression is never a constant to it, and (0, x)
				// is x.
				add(off(exprStartMemo(n.Left, starts)), "(0, ((")
				closeAt(off(nodeEnd(code, n.Left, ends)), ")))")
			}
			if _, private := n.Left.(*ast.PrivateIdentifier); n.Operator == token.IN && !private && !num(n.Left) {
				// k in o: the key, as a read's.
				around(n.Left, propertyKeyName, "")
			}
			if which, ok := equality[n.Operator]; ok {
				equal(n, which)
				break
			}
			if fam := family(n.Operator); fam == 'n' && !growing(n.Operator) && (num(n.Left) || literal(n.Right)) {
				// One operand is a primitive already (nothing runs when
				// the operator converts it) and a literal has nothing to
				// run when evaluated: converting the other where it is
				// evaluated is what the operator does.
				op := func(other ast.Expression) string {
					if relational(n.Operator) && stringy(other) {
						return opText(opCompare)
					}
					return opText(bigOps[n.Operator])
				}
				switch {
				case num(n.Left) && num(n.Right):
				case num(n.Left):
					around(n.Right, numName, op(n.Left))
				default:
					around(n.Left, numName, op(n.Right))
				}
				break
			}
			if fam := family(n.Operator); fam != 0 {
				// A + on the left (a chain, "a + b + c") tells its own
				// result's length to this one (feeds): wrapping it in a
				// call as well would nest the calls as deep as the chain
				// is long. Likewise a *, ** or << on the left of one of
				// them, with its result's size in bits.
				inner, chain := n.Left.(*ast.BinaryExpression)
				chain = chain && family(inner.Operator) == fam && (fam == '+' || growing(inner.Operator))
				var la, lb int
				lok := false
				if !chain {
					la, lb, lok = extent(code, exprStartMemo(n.Left, starts), n.Left, off, ends)
				}
				ra, rb, rok := extent(code, exprStartMemo(n.Right, starts), n.Right, off, ends)
				if (chain || lok) && rok {
					sites++
					k := strconv.Itoa(sites)
					if chain {
						feeds[inner] = k
					} else {
						aroundAt(la, lb, leftName, k)
					}
					feed := feeds[n]
					if feed == "" {
						feed = "0"
					}
					if fam == '+' {
						aroundAt(ra, rb, memName, k+", "+feed)
					} else {
						aroundAt(ra, rb, bigName, k+", "+feed+", "+opText(bigOps[n.Operator]))
					}
				} else if fam == '+' {
					around(n.Right, rightName, "")
				} else {
					around(n.Right, bigRightName, "")
				}
			}
		case *ast.AssignExpression:
			if id, ok := n.Left.(*ast.Identifier); ok && n.Operator == token.ASSIGN {
				nameFrom(n.Right, id.Name.String())
			}
			if p, ok := n.Left.(*ast.ObjectPattern); ok && p.Rest != nil && n.Operator == token.ASSIGN {
				around(n.Right, keysName, "0")
			}
			if n.Operator == token.ASSIGN && isPattern(n.Left) && !inPattern[n] {
				// Rests nested in the pattern ({x: {...r}} = w), whose
				// sources the code does not name: their copies charged once
				// made, read by a function given before the assignment.
				names := restNames(n.Left, flags)
				if p, ok := n.Left.(*ast.ObjectPattern); ok {
					if _, named := restOf(p); named {
						names = names[1:] // its source is the right side
					}
				}
				if len(names) > 0 {
					around(n, keysName, "2, () => ["+strings.Join(names, ", ")+"]")
				}
			}
			if more, ok := supers[n]; ok {
				// super[k] = v: v converted for this (superName), and the
				// assignment's value v as given, not as converted
				// (superName(-3) around it).
				around(n, superName, "-3")
				around(n.Right, superName, more)
			}
			if dot, ok := n.Left.(*ast.DotExpression); ok && n.Operator == token.ASSIGN && dot.Identifier.Name == "length" && !num(n.Right) {
				// An array's length converts what it is given to a number
				// (twice): lengthName sets it, converting there. Where the
				// text cannot be taken apart so, a string is charged
				// (numName only charges for opCount), but an object's
				// conversion stays the engine's.
				if !take(n) {
					around(n.Right, numName, opText(opCount))
				}
			}
			if _, ok := n.Left.(*ast.BracketExpression); ok && n.Operator == token.ASSIGN {
				// o[k] = v: a typed array's element converts v to a
				// number, an array's length twice (putName). Where the
				// text cannot be taken apart so, the engine's assignment
				// stays, unchecked.
				take(n)
			}
			if fam := family(n.Operator); fam != 0 {
				// The target read once (readTwice), when its operator
				// follows it (not a parenthesis): all of it but the = is
				// taken out.
				op := n.Operator.String() + "="
				ra, rb, rok := extent(code, exprStartMemo(n.Right, starts), n.Right, off, ends)
				j, _ := skipBlank(code, off(nodeEnd(code, n.Left, ends)))
				if rok && j <= len(code) && strings.HasPrefix(code[j:], op) {
					if target, wraps, ok := readTwice(code, n.Left, off, starts, ends); ok {
						sites++
						for _, w := range append(wraps, insertion{at: j, skip: len(op) - 1}) {
							w.seq = len(ins)
							ins = append(ins, w)
						}
						if fam == '+' {
							aroundAt(ra, rb, addName, strconv.Itoa(sites)+", "+target)
						} else {
							aroundAt(ra, rb, bigAssignName, opText(bigOps[n.Operator])+", "+target)
						}
						break
					}
				}
				if fam == '+' {
					around(n.Right, rightName, "")
				} else {
					around(n.Right, bigRightName, "")
				}
			}
		case *ast.UnaryExpression:
			if !n.Postfix && (n.Operator == token.PLUS || n.Operator == token.MINUS || n.Operator == token.BITWISE_NOT) && !num(n.Operand) {
				around(n.Operand, numName, opText(opUnary))
			}
			if id, ok := n.Operand.(*ast.Identifier); (n.Operator == token.INCREMENT || n.Operator == token.DECREMENT) && !(ok && safe[id]) {
				// x++ converts x: its value is read once more before, by
				// its name as the code spells it, charged if it is a
				// string, and if it is an object converted to a primitive
				// (its valueOf runs there, once) and put back in x, so
				// that the operator converts a primitive:
				// "(num(x) || (x = converted()), x++)". The same for a
				// private field of this or of a name, this.#x (a private
				// getter and setter of an object run twice).
				target := ""
				switch x := n.Operand.(type) {
				case *ast.Identifier:
					a, b := off(x.Idx0()), off(identEnd(code, x))
					if a >= 0 && b <= len(code) && a <= b && code[a:b] == x.Name.String() {
						target = code[a:b]
					}
				case *ast.PrivateDotExpression:
					target = privateText(code, x, off)
				}
				if target != "" {
					add(leadingParens(code, off(exprStart(n))), "("+numName+"("+opText(opIncrement)+", "+target+") || ("+target+" = "+convertedName+"()), ")
					closeAt(off(nodeEnd(code, n, ends)), ")")
				}
			}
			take(n)
		case *ast.ObjectLiteral:
			gens := false
			for _, v := range n.Value {
				if k, ok := v.(*ast.PropertyKeyed); ok && k.Kind != ast.PropertyKindValue {
					if f, ok := k.Value.(*ast.FunctionLiteral); ok {
						methods[f] = true
						gens = gens || f.Generator
					}
				}
			}
			if gens {
				around(n, keysName, "7") // its generator methods sealed as made
			}
			for _, v := range n.Value {
				if k, ok := v.(*ast.PropertyKeyed); ok && k.Kind == ast.PropertyKindValue && !k.Computed {
					nameFrom(k.Value, propertyName(k.Key))
				}
			}
			for _, v := range n.Value {
				if k, ok := v.(*ast.PropertyKeyed); ok && k.Computed && !num(k.Key) {
					around(k.Key, propertyKeyName, "")
				}
				if k, ok := v.(*ast.PropertyKeyed); ok && !k.Computed && k.Kind == ast.PropertyKindValue && keyText(k.Key) == "__proto__" {
					// {__proto__: p}: an object that may inherit from
					// nothing (capture's accessor: guards.orphan).
					around(n, keysName, "5")
				}
				if sp, ok := v.(*ast.SpreadElement); ok {
					ownKeys[sp] = true
				}
			}
		case *ast.BracketExpression:
			// A target refMember planned, or a read whose key is not a
			// number or a short literal, or a super property written
			// (super[k] = v, super[k]++, [super[k]] = a: no rewrite takes
			// its place, and the engine hashes its key as a read's).
			if !take(n) && (!written[n] || isSuper(n.Left)) && !num(n.Member) {
				if keptKeys[n] {
					around(n.Member, superName, "-1") // propertyKeyName's work, and kept
				} else {
					around(n.Member, propertyKeyName, "")
				}
			}
		case *ast.ObjectPattern:
			for _, p := range n.Properties {
				if sh, ok := p.(*ast.PropertyShort); ok {
					nameFrom(sh.Initializer, sh.Name.Name.String())
				}
				if k, ok := p.(*ast.PropertyKeyed); ok && k.Computed && !num(k.Key) {
					around(k.Key, propertyKeyName, "")
				}
			}
			markDefaults(n, inPattern)
		case *ast.ArrayPattern:
			markDefaults(n, inPattern)
		case *ast.ClassLiteral:
			// What a static block first tells the sandbox: a class that
			// extends gives its prototype and itself their prototypes
			// (guards.orphan, guards.linked); its generator methods are
			// sealed (chains.go), an instance's private ones by a private
			// field of the sandbox's, the first.
			var static, fields []string
			if n.SuperClass != nil {
				static = append(static, keysName+"(5, this.prototype)", keysName+"(5, this)")
			}
			public, first := false, true
			var ctor *ast.FunctionLiteral
			for _, el := range n.Body {
				switch m := el.(type) {
				case *ast.MethodDefinition:
					if m.Computed && !num(m.Key) {
						around(m.Key, propertyKeyName, "")
					}
					if m.Body == nil {
						break
					}
					if k, ok := m.Key.(*ast.StringLiteral); ok && !m.Static && !m.Computed && k.Value == "constructor" {
						derived[m.Body] = n.SuperClass != nil
						ctor = m.Body
						break
					}
					methods[m.Body] = true
					if !m.Body.Generator {
						break
					}
					if id, ok := m.Key.(*ast.PrivateIdentifier); ok {
						seal := keysName + "(7, this.#" + id.Name.String() + ")"
						if m.Static {
							static = append(static, seal)
						} else {
							fields = append(fields, "#"+flagsName+"_g"+strconv.Itoa(len(fields))+" = "+seal+";")
						}
					} else {
						public = true
					}
				case *ast.FieldDefinition:
					if m.Computed && !num(m.Key) {
						around(m.Key, propertyKeyName, "")
					}
					if !m.Computed {
						nameFrom(m.Initializer, propertyName(m.Key))
					}
					if !m.Static && m.Initializer != nil && first && anonymous(m.Initializer) != 1 {
						// The instance's fields come before its
						// constructor's body (a derived class's, as
						// super() returns); an anonymous function runs
						// nothing, and the next is checked.
						first = false
						name := ""
						if !m.Computed {
							name = propertyName(m.Key)
						}
						checkBefore(m.Initializer, name, madeCheck)
					}
				}
			}
			if public {
				static = append(static, keysName+"(7, this)", keysName+"(7, this.prototype)")
			}
			if ctor != nil && !first {
				fielded[ctor] = true
			}
			if len(static)+len(fields) > 0 {
				at := -1
				if n.SuperClass != nil {
					at = off(nodeEnd(code, n.SuperClass, ends))
					for at < len(code) {
						at, _ = skipBlank(code, at)
						if at >= len(code) || code[at] != ')' {
							break
						}
						at++
					}
				} else if n.Name != nil {
					at, _ = skipBlank(code, off(identEnd(code, n.Name)))
				} else if at = off(n.Class) + len("class"); at <= len(code) {
					at, _ = skipBlank(code, at)
				}
				text := strings.Join(fields, " ")
				if len(static) > 0 {
					text += " static { " + strings.Join(static, "; ") + " } "
				}
				if at >= 0 && at < len(code) && code[at] == '{' {
					add(at+1, text)
				} else {
					bad = true // a generator unsealed would make objects no check sees
				}
			}
		case *ast.DotExpression:
			take(n) // likewise
		case *ast.CaseStatement:
			if n.Test != nil && !literal(n.Test) {
				around(n.Test, caseName, "")
			}
			declared(n.Consequent)
		case *ast.SpreadElement:
			if ownKeys[n] {
				around(n.Expression, keysName, "0")
			} else {
				around(n.Expression, spreadName, "")
			}
		case *ast.Binding:
			if id, ok := n.Target.(*ast.Identifier); ok {
				nameFrom(n.Initializer, id.Name.String())
			}
			if p, ok := n.Target.(*ast.ObjectPattern); ok && p.Rest != nil {
				around(n.Initializer, keysName, "0")
			}
		case *ast.TemplateLiteral:
			if n.Tag == nil {
				for _, e := range n.Expressions {
					around(e, textName, "")
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
		// An insertion that skips a byte is the last at its offset (none
		// opens at the + of a += or at a [), but a text must never be cut
		// backwards.
		if x.at >= prev {
			b.WriteString(code[prev:x.at])
		}
		b.WriteString(x.text)
		prev = max(prev, x.at+x.skip)
	}
	b.WriteString(code[prev:])
	return &instrumented{text: b.String(), ins: ins, regexps: regexps, flagNames: flagNames}, true
}

// family is '+' for +, 'n' for the operators that convert both operands
// to numbers (or compare them): those whose BigInt result can be far
// larger than their operands (*, **, <<), the other arithmetic and
// bitwise ones, and the relational ones; 0 for others.
func family(op token.Token) byte {
	switch op {
	case token.PLUS:
		return '+'
	}
	if _, ok := bigOps[op]; ok {
		return 'n'
	}
	return 0
}

// growing reports whether op is one whose BigInt result can be far larger
// than its operands (*, ** and <<): both its operands are always paired,
// for Program.checkBig.
func growing(op token.Token) bool {
	return op == token.MULTIPLY || op == token.EXPONENT || op == token.SHIFT_LEFT
}

// relational reports whether op compares (<, >, <=, >=).
func relational(op token.Token) bool {
	return op == token.LESS || op == token.GREATER || op == token.LESS_OR_EQUAL || op == token.GREATER_OR_EQUAL
}

// equality numbers ==, !=, === and !== for eqName (Program.equal).
var equality = map[token.Token]int{token.EQUAL: eqLoose, token.NOT_EQUAL: eqLooseNot, token.STRICT_EQUAL: eqStrict, token.STRICT_NOT_EQUAL: eqStrictNot}

// literalChars is the longest string literal taken as cheap to convert or
// compare (the same as the engine's convertFree).
const literalChars = 256

// literal reports whether e is a literal the engine converts or compares
// in a bounded time: a number, a boolean, null, or a short string.
func literal(e ast.Expression) bool {
	switch x := e.(type) {
	case *ast.NumberLiteral, *ast.BooleanLiteral, *ast.NullLiteral:
		return true
	case *ast.StringLiteral:
		return len(x.Value) <= literalChars
	case *ast.UnaryExpression:
		// -1, +1, ~0
		return !x.Postfix && (x.Operator == token.MINUS || x.Operator == token.PLUS || x.Operator == token.BITWISE_NOT) && literal(x.Operand)
	}
	return false
}

// plainKey reports whether e is a short string literal that no array or
// typed array converts what is set at: not "length", nor a number's text
// (which a typed array reads as an index).
func plainKey(e ast.Expression) bool {
	x, ok := e.(*ast.StringLiteral)
	if !ok || !literal(e) {
		return false
	}
	// A number's text has a digit, but for these.
	switch v := x.Value.String(); v {
	case "length", "Infinity", "-Infinity", "NaN":
		return false
	default:
		return !strings.ContainsAny(v, "0123456789")
	}
}

// stringy reports whether e's value is a string that numeric lets by (a
// short literal, typeof's).
func stringy(e ast.Expression) bool {
	switch x := e.(type) {
	case *ast.StringLiteral:
		return true
	case *ast.UnaryExpression:
		return x.Operator == token.TYPEOF
	}
	return false
}

// numeric reports whether e's value is a primitive that converts to a
// number at once: a literal, or the result of an operator that gives a
// number, a BigInt or a boolean (all but +, the logical ones, the comma
// and the assignments), or typeof's short string. It may have run code
// of the UDF's to get there.
func numeric(e ast.Expression) bool {
	if literal(e) {
		return true
	}
	switch x := e.(type) {
	case *ast.BinaryExpression:
		return family(x.Operator) == 'n' || equality[x.Operator] != 0 || x.Operator == token.IN || x.Operator == token.INSTANCEOF
	case *ast.UnaryExpression:
		return true // + - ~ ! typeof void delete ++ --
	}
	return false
}

// logical reports whether op is &&, || or ??.
func logical(op token.Token) bool {
	return op == token.LOGICAL_AND || op == token.LOGICAL_OR || op == token.COALESCE
}

// mayBeConstant reports whether goja's compiler may take e for a constant:
// a literal, or an operator on operands that may be.
func mayBeConstant(e ast.Expression) bool {
	switch e.(type) {
	case *ast.StringLiteral, *ast.NumberLiteral, *ast.BooleanLiteral, *ast.NullLiteral,
		*ast.UnaryExpression, *ast.BinaryExpression, *ast.ConditionalExpression:
		return true
	}
	return false
}

// bigOps numbers the operators of family 'n' for bigName and
// bigAssignName (Program.big), numName (Program.number) and the engine's
// arithProgram (the op constants of engine.go).
var bigOps = map[token.Token]int{
	token.MULTIPLY: opMul, token.EXPONENT: opPow, token.SHIFT_LEFT: opShiftLeft,
	token.MINUS: opSub, token.SLASH: opDiv, token.REMAINDER: opRem,
	token.AND: opAnd, token.OR: opOr, token.EXCLUSIVE_OR: opXor,
	token.SHIFT_RIGHT: opShiftRight, token.UNSIGNED_SHIFT_RIGHT: opUShiftRight,
	token.LESS: opLess, token.GREATER: opGreater, token.LESS_OR_EQUAL: opLessEq, token.GREATER_OR_EQUAL: opGreaterEq,
}

// opText is an operator's number as the instrumented code passes it.
func opText(op int) string { return strconv.Itoa(op) }

// readTwice plans how X = addName(k, X, R) reads a += target X once,
// as X += R does, and sets the same variable or property: it returns the
// text of X to read, the insertions that hold what the target's left part
// evaluated to, and whether it can (not for super.x, a private #x, or a
// base or key whose extent is not sure). A plain name, or a property of a
// plain name or this named after a dot (o.s, this.s), is read by its own
// text: looking up a name or this again runs none of the UDF's code (a
// name that is a getter of the global object would, which no UDF written
// for its purpose defines), and one that R assigns to is looked up before
// R runs on both sides. Any other base B, and a computed key K, are
// evaluated once, where the code has them, inside holdName(((B))) or
// holdName(((B)), ((K))), which holds their values for X to read:
// baseName() the base, heldName() the key converted to a property key
// (running an object's toString for the read) and, in the target set,
// keyName() the key as it came (the engine converts it again when it sets
// the property, after R, as goja and V8 do for +=). Nothing runs between
// holdName's return and those reads, so one slot holds them: a += inside B
// or K has finished before.
func readTwice(code string, e ast.Expression, off func(file.Idx) int, starts map[ast.Expression]file.Idx, ends map[ast.Node]file.Idx) (string, []insertion, bool) {
	spelt := func(id *ast.Identifier) bool {
		a, b := off(id.Idx0()), off(identEnd(code, id))
		return a >= 0 && b <= len(code) && a <= b && code[a:b] == id.Name.String()
	}
	plain := func(e ast.Expression) string {
		switch b := e.(type) {
		case *ast.Identifier:
			if spelt(b) {
				return b.Name.String()
			}
		case *ast.ThisExpression:
			return "this"
		}
		return ""
	}
	switch x := e.(type) {
	case *ast.Identifier:
		n := plain(x)
		return n, nil, n != ""
	case *ast.PrivateDotExpression:
		n := privateText(code, x, off)
		return n, nil, n != ""
	case *ast.DotExpression:
		if !spelt(&x.Identifier) {
			return "", nil, false
		}
		name := "." + x.Identifier.Name.String()
		if b := plain(x.Left); b != "" {
			return b + name, nil, true
		}
		if _, ok := x.Left.(*ast.SuperExpression); ok {
			return "", nil, false
		}
		a, b, ok := extent(code, exprStartMemo(x.Left, starts), x.Left, off, ends)
		if !ok {
			return "", nil, false
		}
		return baseName + "()" + name, []insertion{
			{at: a, text: holdName + "((("},
			{at: b, text: ")))", close: true},
		}, true
	case *ast.BracketExpression:
		left := x.Left
		if _, ok := left.(*ast.SuperExpression); ok {
			return "", nil, false
		}
		// The [ must follow the base's text at once (a parenthesis the
		// extent did not take in would come between): it is taken out,
		// and the key's text, parentheses and all, is what lies between
		// the brackets.
		a, b, ok := extent(code, exprStartMemo(left, starts), left, off, ends)
		lb, rb := off(x.LeftBracket), off(x.RightBracket)
		if !ok || b != lb || lb < 0 || rb >= len(code) || lb >= rb || code[lb] != '[' || code[rb] != ']' {
			return "", nil, false
		}
		return baseName + "()[" + heldName + "()]", []insertion{
			{at: a, text: holdName + "((("},
			{at: lb, text: ")), ((", skip: 1, close: true},
			{at: rb, text: ")))[" + keyName + "()", close: true},
		}, true
	}
	return "", nil, false
}

// rewrite is how countMember, setMember or refMember rewrites an expression: its
// insertions, and where its text starts (where a wrapper around it opens).
type rewrite struct {
	start int
	list  []insertion
}

// countMember plans how countName takes the place of ++ or -- (n) on a
// property, o.p or o[k]: the insertions that make n's text
// countName(kind, ((o)), "p") or countName(kind, ((o)), ((k))), and
// whether it can (not for a name, which numName converts, super.x, a
// private #x, or text around the base, the key and the operator other than
// blanks on one line and parentheses).
//
// The base's text is its extent (parentheses it needs included), opened
// at its start: a wrapper around n (around) opens there too, so that it
// holds the call whole (goja's start of "(a).b.p++" is inside the
// parenthesis). Parentheses around the base alone, "(o).p++", are taken
// out with what lies between the base and the name; those around the
// whole operand, "((o).p)++", stay around the call.
func countMember(code string, n *ast.UnaryExpression, strict bool, off func(file.Idx) int, starts map[ast.Expression]file.Idx, ends map[ast.Node]file.Idx) (rewrite, bool) {
	kind := 0
	if n.Operator == token.DECREMENT {
		kind |= countDown
	}
	if !n.Postfix {
		kind |= countPrefix
	}
	if strict {
		kind |= countStrict
	}
	op := off(n.Idx) // the operator, before or after its operand
	if op < 0 || op+2 > len(code) || code[op:op+2] != n.Operator.String() {
		return rewrite{}, false
	}
	var left ast.Expression
	switch x := n.Operand.(type) {
	case *ast.DotExpression:
		left = x.Left
	case *ast.BracketExpression:
		left = x.Left
	default:
		return rewrite{}, false
	}
	if _, ok := left.(*ast.SuperExpression); ok {
		return rewrite{}, false
	}
	a, b, ok := extent(code, exprStartMemo(left, starts), left, off, ends)
	if !ok {
		return rewrite{}, false
	}
	// sep is the operand's . or [, and end where its text ends.
	var sep, end int
	var closing []insertion
	switch x := n.Operand.(type) {
	case *ast.DotExpression:
		if sep, end, ok = dotName(code, &x.Identifier, b, off); !ok {
			return rewrite{}, false
		}
		closing = []insertion{{at: b, text: ")), " + strconv.Quote(x.Identifier.Name.String()) + ")", skip: end - b, close: true}}
	case *ast.BracketExpression:
		sep, end = off(x.LeftBracket), off(x.RightBracket)+1
		if sep < b || sep >= end-1 || end > len(code) || code[sep] != '[' || code[end-1] != ']' {
			return rewrite{}, false
		}
		closing = []insertion{
			{at: b, text: ")), ((", skip: sep + 1 - b, close: true},
			{at: end - 1, text: ")))", skip: 1, close: true},
		}
	}
	// The parentheses closed between the base and sep are around the base
	// alone: they and as many opened just before it are taken out.
	list, ok := unwrap(code, a, b, sep)
	if !ok {
		return rewrite{}, false
	}
	start := a
	if n.Postfix {
		if p, _, ok := gap(code, end, op); !ok || strings.Trim(p, ")") != "" {
			return rewrite{}, false
		}
	} else {
		if p, _, ok := gap(code, op+2, a); !ok || strings.Trim(p, "(") != "" {
			return rewrite{}, false
		}
		start = op
		list = append(list, insertion{at: op, skip: 2})
	}
	list = append(list, insertion{at: a, text: countName + "(" + strconv.Itoa(kind) + ", (("})
	list = append(list, closing...)
	if n.Postfix {
		list = append(list, insertion{at: op, skip: 2})
	}
	return rewrite{start: start, list: list}, true
}

// dotName finds the member name id after a base whose text ends at b:
// the offset of its dot and where the name ends, and whether the name is
// spelt as it reads with only blanks, comments and closing parentheses
// between the base and the dot (gap).
func dotName(code string, id *ast.Identifier, b int, off func(file.Idx) int) (int, int, bool) {
	i, j := off(id.Idx0()), off(identEnd(code, id))
	if i < b || j > len(code) || i > j || code[i:j] != id.Name.String() {
		return 0, 0, false
	}
	p, at, ok := gap(code, b, i)
	if !ok || !strings.HasSuffix(p, ".") {
		return 0, 0, false
	}
	return at[len(at)-1], j, true
}

// unwrap plans taking out the parentheses around a base alone (its text
// code[a:b], its member's . or [ at sep): those closed between b and sep,
// and as many opened just before a (see openers).
func unwrap(code string, a, b, sep int) ([]insertion, bool) {
	p, _, ok := gap(code, b, sep)
	if !ok || strings.Trim(p, ")") != "" {
		return nil, false
	}
	at, ok := openers(code, a, len(p))
	if !ok {
		return nil, false
	}
	list := make([]insertion, 0, len(at))
	for _, i := range at {
		list = append(list, insertion{at: i, skip: 1})
	}
	return list, true
}

// gap reads code[i:j], text between tokens: its punctuation (the bytes
// other than blanks and comments) and their offsets, and whether it is
// only that, blanks (white space and line breaks, ASCII or not) and
// comments.
func gap(code string, i, j int) (string, []int, bool) {
	if i < 0 || j > len(code) || i > j {
		return "", nil, false
	}
	var punct []byte
	var at []int
	for i < j {
		switch c := code[i]; {
		case c == '(' || c == ')' || c == '.' || c == '[' || c == '=':
			punct = append(punct, c)
			at = append(at, i)
			i++
		case strings.HasPrefix(code[i:j], "/*"):
			k := strings.Index(code[i+2:j], "*/")
			if k < 0 {
				return "", nil, false
			}
			i += k + 4
		case strings.HasPrefix(code[i:j], "//"):
			k := strings.IndexAny(code[i:j], "\n\r\u2028\u2029")
			if k < 0 {
				return "", nil, false
			}
			i += k
		default:
			r, n := utf8.DecodeRuneInString(code[i:j])
			if !blank(r) {
				return "", nil, false
			}
			i += n
		}
	}
	return string(punct), at, true
}

// blank says whether r is white space or a line break to JavaScript.
func blank(r rune) bool { return r != utf8.RuneError && (unicode.IsSpace(r) || r == '\ufeff') }

// openers finds the k opening parentheses just before offset a, with only
// blanks and block comments between (a line comment cannot be told apart
// going back: a line with // before them gives up), and says whether it
// found them.
func openers(code string, a, k int) ([]int, bool) {
	var at []int
	i := a
	for len(at) < k {
		if i <= 0 {
			return nil, false
		}
		switch r, n := utf8.DecodeLastRuneInString(code[:i]); {
		case r == '(':
			i--
			at = append(at, i)
		case r == '/' && strings.HasSuffix(code[:i], "*/"):
			j := strings.LastIndex(code[:i-2], "/*")
			if j < 0 {
				return nil, false
			}
			i = j
		case r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029':
			i -= n
			line := strings.LastIndexAny(code[:i], "\n\r\u2028\u2029") + 1
			if strings.Contains(code[line:i], "//") {
				return nil, false
			}
		case blank(r):
			i -= n
		default:
			return nil, false
		}
	}
	return at, true
}

// superKey is the key of a super property assignment's target (left)
// as code that makes it again with nothing run: a literal's text, or
// "'length'"; "" for any other target.
func superKey(code string, left ast.Expression, off func(file.Idx) int, ends map[ast.Node]file.Idx) string {
	switch x := left.(type) {
	case *ast.BracketExpression:
		if _, sup := x.Left.(*ast.SuperExpression); !sup {
			return ""
		}
		switch x.Member.(type) {
		case *ast.NumberLiteral, *ast.StringLiteral:
			a, b := off(x.Member.Idx0()), off(nodeEnd(code, x.Member, ends))
			if a >= 0 && a < b && b <= len(code) {
				return code[a:b]
			}
		}
	case *ast.DotExpression:
		if _, sup := x.Left.(*ast.SuperExpression); sup && x.Identifier.Name == "length" {
			return "'length'"
		}
	}
	return ""
}

// member reads the text of a member expression (target, o.p or o[k]):
// its base's extent a-b, the offset of its . or [ (sep), where it ends
// (past the name or the ]), and the insertions that take out parentheses
// around the base alone (unwrap: "(a).length" loses those around a), and
// whether it can (not for super, a base whose extent is not sure, or text
// between the base and the member other than blanks, comments and closing
// parentheses).
func member(code string, target ast.Expression, off func(file.Idx) int, starts map[ast.Expression]file.Idx, ends map[ast.Node]file.Idx) (a, b, sep, end int, list []insertion, ok bool) {
	var left ast.Expression
	switch x := target.(type) {
	case *ast.BracketExpression:
		left = x.Left
	case *ast.DotExpression:
		left = x.Left
	default:
		return
	}
	if _, sup := left.(*ast.SuperExpression); sup {
		return
	}
	if a, b, ok = extent(code, exprStartMemo(left, starts), left, off, ends); !ok {
		return
	}
	switch x := target.(type) {
	case *ast.BracketExpression:
		sep, end = off(x.LeftBracket), off(x.RightBracket)+1
		if sep < b || sep >= end-1 || end > len(code) || code[sep] != '[' || code[end-1] != ']' {
			return a, b, sep, end, nil, false
		}
	case *ast.DotExpression:
		if sep, end, ok = dotName(code, &x.Identifier, b, off); !ok {
			return
		}
	}
	list, ok = unwrap(code, a, b, sep)
	return
}

// setMember plans how lengthName takes the place of an assignment (n) to
// a length, o.length = v, or putName of one to a computed member, o[k] =
// v: the insertions that make n's text lengthName(strict, ((o)), ((v)))
// or putName(strict, ((o)), ((k)), ((v))), and whether it can (member's
// conditions, and only blanks, comments and v's parentheses around the =).
func setMember(code string, n *ast.AssignExpression, strict bool, off func(file.Idx) int, starts map[ast.Expression]file.Idx, ends map[ast.Node]file.Idx) (rewrite, bool) {
	a, b, sep, end, list, ok := member(code, n.Left, off, starts, ends)
	r, e := off(exprStartMemo(n.Right, starts)), off(nodeEnd(code, n.Right, ends))
	if !ok || r < end || e < r || e > len(code) {
		return rewrite{}, false
	}
	// The = comes first between the member and v, then v's parentheses.
	p, at, ok := gap(code, end, r)
	if !ok || !strings.HasPrefix(p, "=") || strings.Trim(p[1:], "(") != "" {
		return rewrite{}, false
	}
	eq, kind := at[0], 0
	if strict {
		kind = countStrict
	}
	if _, dot := n.Left.(*ast.DotExpression); dot {
		list = append(list,
			insertion{at: a, text: lengthName + "(" + strconv.Itoa(kind) + ", (("},
			insertion{at: b, text: ")), ", skip: eq + 1 - b, close: true})
	} else {
		list = append(list,
			insertion{at: a, text: putName + "(" + strconv.Itoa(kind) + ", (("},
			insertion{at: b, text: ")), ((", skip: sep + 1 - b, close: true},
			insertion{at: end - 1, text: ")), ", skip: eq + 1 - (end - 1), close: true})
	}
	return rewrite{start: a, list: append(list, insertion{at: r, text: "(("}, insertion{at: e, text: ")))", close: true})}, true
}

// refMember plans how refName takes the place of a computed member, or a
// length, that a pattern, a loop's head or a logical assignment writes, or
// any member a pattern's rest sets (rest: its copy charged when set):
// the insertions that make its text refName(strict, ((o)), ((k))).value
// (refName(strict, ((o)), "length").value), and whether it can (member's
// conditions).
func refMember(code string, target ast.Expression, strict, rest bool, flag string, off func(file.Idx) int, starts map[ast.Expression]file.Idx, ends map[ast.Node]file.Idx) (rewrite, bool) {
	a, b, sep, end, list, ok := member(code, target, off, starts, ends)
	if !ok {
		return rewrite{}, false
	}
	kind := 0
	if strict {
		kind = countStrict
	}
	kinds := strconv.Itoa(kind)
	if rest {
		kinds = strconv.Itoa(kind | restCopy)
		if flag != "" {
			// Its pattern's first key has charged the copy, or not
			// (flagPatterns), before the rest's target is made.
			kinds = "(" + flag + " ? " + strconv.Itoa(kind) + " : " + kinds + ")"
		}
	}
	list = append(list, insertion{at: a, text: refName + "(" + kinds + ", (("})
	if x, dot := target.(*ast.DotExpression); dot {
		list = append(list, insertion{at: b, text: ")), " + strconv.Quote(x.Identifier.Name.String()) + ").value", skip: end - b, close: true})
	} else {
		list = append(list,
			insertion{at: b, text: ")), ((", skip: sep + 1 - b, close: true},
			insertion{at: end - 1, text: "))).value", skip: 1, close: true})
	}
	return rewrite{start: a, list: list}, true
}

// strictCode says of an offset in the program's code (a file.Idx) whether
// the code there is strict: under a "use strict" directive of the program
// or of a function around it, or in a class. n is the code's length.
func strictCode(prog *ast.Program, n int) func(file.Idx) bool {
	directive := func(list []ast.Statement) bool {
		for _, st := range list {
			es, ok := st.(*ast.ExpressionStatement)
			if !ok {
				return false
			}
			lit, ok := es.Expression.(*ast.StringLiteral)
			if !ok {
				return false
			}
			if lit.Literal == `"use strict"` || lit.Literal == `'use strict'` {
				return true
			}
		}
		return false
	}
	if directive(prog.Body) {
		return func(file.Idx) bool { return true }
	}
	// depth[i] counts the strict spans that have begun at offset i or
	// before, less those that have ended (a running sum of their ends).
	depth := make([]int32, n+2)
	span := func(a, b file.Idx) {
		if 0 < a && a < b && int(b) <= n+1 {
			depth[a]++
			depth[b]--
		}
	}
	walk(reflect.ValueOf(prog), 0, map[uintptr]bool{}, func(v any) {
		switch x := v.(type) {
		case *ast.FunctionLiteral:
			if x.Body != nil && directive(x.Body.List) {
				span(x.Idx0(), x.Idx1())
			}
		case *ast.ArrowFunctionLiteral:
			if body, ok := x.Body.(*ast.BlockStatement); ok && directive(body.List) {
				span(x.Idx0(), x.Idx1())
			}
		case *ast.ClassLiteral:
			span(x.Idx0(), x.Idx1())
		}
	})
	for i := 1; i < len(depth); i++ {
		depth[i] += depth[i-1]
	}
	return func(at file.Idx) bool { return 0 < at && int(at) < len(depth) && depth[at] > 0 }
}

// privateText is the text of a private field of this or of a name as the
// code spells it, "this.#x" or "o.#x", and "" for any other base or
// spelling (a name looked up again, or this, runs none of the UDF's code).
func privateText(code string, x *ast.PrivateDotExpression, off func(file.Idx) int) string {
	base := ""
	switch b := x.Left.(type) {
	case *ast.ThisExpression:
		base = "this"
	case *ast.Identifier:
		base = b.Name.String()
	default:
		return ""
	}
	a, e := off(x.Left.Idx0()), off(identEnd(code, &x.Identifier.Identifier))
	want := base + ".#" + x.Identifier.Name.String()
	if a < 0 || e > len(code) || a > e || code[a:e] != want {
		return ""
	}
	return want
}

// exprStart is where an expression begins in the code. goja's Idx0 of a
// tagged template is its backtick, not its tag, and of an expression that
// starts with one (a call, a member, an operator) the same.
func exprStart(e ast.Expression) file.Idx { return exprStartMemo(e, nil) }

// exprStartMemo is exprStart with the starts found kept in memo (when not
// nil): the walk down an expression's first operands is as long as a
// chain ("a + b + c ..."), so finding the start of each link anew would
// take time quadratic in its length.
func exprStartMemo(e ast.Expression, memo map[ast.Expression]file.Idx) file.Idx {
	var path []ast.Expression
	at := exprStartFrom(e, memo, &path)
	for _, x := range path {
		memo[x] = at
	}
	return at
}

func exprStartFrom(e ast.Expression, memo map[ast.Expression]file.Idx, path *[]ast.Expression) file.Idx {
	for {
		if memo != nil {
			if at, ok := memo[e]; ok {
				return at
			}
			*path = append(*path, e)
		}
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
		case *ast.MetaProperty:
			// goja leaves its own Idx unset (new.target's Idx0 is 0, so
			// a check around "'F' + (new.target === F)" would lose its
			// opening and the code not compile): its start is the keyword's.
			if n.Meta != nil {
				return n.Meta.Idx
			}
			return n.Idx0()
		default:
			return e.Idx0()
		}
	}
}

// extent is the text of e (which starts at start, its exprStart) with the
// parentheses the AST leaves out: goja's
// positions of "(a) + b" run from a to b, of "a + (b)" from a to b too. The
// scan counts parentheses from exprStart to e's end: a parenthesis closed
// that opened before the start is taken in from just before it, one opened
// and not closed from just after the end. It skips strings and comments; a
// regular expression, a division or a template with a placeholder makes
// it answer false (never wrong, only less precise: the caller then uses a
// check that needs no extent), as does anything but blanks between the
// text and a parenthesis it takes in (block comments before one, see
// openers).
func extent(code string, start file.Idx, e ast.Expression, off func(file.Idx) int, ends map[ast.Node]file.Idx) (int, int, bool) {
	a, b := off(start), off(nodeEnd(code, e, ends))
	if a < 0 || b > len(code) || a > b || b-a > extentBytes {
		return 0, 0, false
	}
	depth, least := 0, 0
	for i := a; i < b; i++ {
		switch c := code[i]; c {
		case '(':
			depth++
		case ')':
			depth--
			least = min(least, depth)
		case '\'', '"', '`':
			j, placeholder := skipQuoted(code, i, b)
			if placeholder || j >= b {
				return 0, 0, false
			}
			i = j
		case '/':
			if i+1 < b && (code[i+1] == '/' || code[i+1] == '*') {
				j, _ := skipBlank(code, i)
				if j > b {
					return 0, 0, false
				}
				i = j - 1
				continue
			}
			return 0, 0, false
		}
	}
	if least < 0 {
		at, ok := openers(code, a, -least)
		if !ok {
			return 0, 0, false
		}
		a = at[len(at)-1]
	}
	for closing := depth - least; closing > 0; closing-- {
		b, _ = skipBlank(code, b)
		if b >= len(code) || code[b] != ')' {
			return 0, 0, false
		}
		b++
	}
	return a, b, true
}

// extentBytes bounds the text extent scans: a chain of n + nests n
// operands in one another, and scanning each whole would take time
// quadratic in the code (30,000 "+1" took 0.7 s). A longer operand gets the
// check that needs no extent.
const extentBytes = 1024

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

// leadingParens is where the parentheses that open right before offset
// at begin (at itself when none do). It goes back over white space and
// "(" only, so it cannot enter a string or a block comment; the first
// line it reaches is the only one with other text before its "(", and
// when that text has "//", a line comment may hold them, so that line's
// are left out.
func leadingParens(code string, at int) int {
	start, line := at, -1 // the outermost "(" so far, and where its line begins
	for i := at - 1; i >= 0; i-- {
		switch code[i] {
		case '(':
			start, line = i, -1
		case '\n':
			if line < 0 && start < at {
				line = i + 1 // start is on the line after this break
			}
		case ' ', '\t', '\r':
		default:
			if start < at && line < 0 {
				// start is on this line, after text: left out if it may
				// be a comment, for the first "(" on a later line.
				if b := strings.LastIndexByte(code[:start], '\n') + 1; strings.Contains(code[b:start], "//") {
					return nextParen(code, start, at)
				}
			}
			return start
		}
	}
	return start
}

// nextParen is the first "(" after the line of offset from, before at, or
// at when there is none.
func nextParen(code string, from, at int) int {
	nl := strings.IndexByte(code[from:at], '\n')
	if nl < 0 {
		return at
	}
	if k := strings.IndexByte(code[from+nl:at], '('); k >= 0 {
		return from + nl + k
	}
	return at
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
		shift += len(x.text) - x.skip
	}
	return o - shift
}

// walkDepth bounds the walk's recursion; the nesting check before parsing
// keeps real programs far below it.
const walkDepth = 10000

var (
	nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()
	exprType = reflect.TypeOf((*ast.Expression)(nil)).Elem()
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

// weigh counts the expression nodes of v that belong to the region
// around it, and records in w the count of every region inside it: the
// body of a loop (with its test and update, which run as often), and of a
// function (with its parameters' defaults). A region's nodes are its own,
// not those of the regions inside it, which have steps of their own. It
// answers false where walk would (too deep).
func weigh(v reflect.Value, depth int, seen map[uintptr]bool, w map[ast.Node]int, num func(ast.Expression) bool) (int, bool) {
	if depth > walkDepth {
		return 0, false
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return 0, true
		}
		return weigh(v.Elem(), depth+1, seen, w, num)
	case reflect.Pointer:
		if v.IsNil() || v.Elem().Kind() != reflect.Struct || v.Elem().Type().PkgPath() != astPkg || seen[v.Pointer()] {
			return 0, true
		}
		n := nameNodes(v.Interface()) + callNodes*checkCalls(v.Interface(), num)
		switch v.Interface().(type) {
		case *ast.CallExpression, *ast.NewExpression:
			n += callWeight
		}
		if v.Type().Implements(exprType) {
			n++
		}
		var region ast.Node
		var with []any
		switch x := v.Interface().(type) {
		case *ast.ForStatement:
			region, with = x.Body, []any{x.Test, x.Update}
		case *ast.ForInStatement:
			region = x.Body
		case *ast.ForOfStatement:
			region = x.Body
		case *ast.WhileStatement:
			region, with = x.Body, []any{x.Test}
		case *ast.DoWhileStatement:
			region, with = x.Body, []any{x.Test}
		case *ast.FunctionLiteral:
			region, with = x.Body, []any{x.ParameterList}
		case *ast.ArrowFunctionLiteral:
			region, with = x.Body, []any{x.ParameterList}
		}
		seen[v.Pointer()] = true
		if region != nil {
			// Weighed first, the region's nodes are seen, and the walk
			// of the rest below passes them by.
			in := 0
			for _, x := range append([]any{region}, with...) {
				k, ok := weigh(reflect.ValueOf(x), depth+1, seen, w, num)
				if !ok {
					return 0, false
				}
				in += k
			}
			w[region] = in
		}
		k, ok := weigh(v.Elem(), depth+1, seen, w, num)
		return n + k, ok
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if !v.Type().Field(i).IsExported() {
				continue
			}
			k, ok := weigh(v.Field(i), depth+1, seen, w, num)
			if !ok {
				return 0, false
			}
			n += k
		}
		return n, true
	case reflect.Slice:
		n := 0
		for i := 0; i < v.Len(); i++ {
			k, ok := weigh(v.Index(i), depth+1, seen, w, num)
			if !ok {
				return 0, false
			}
			n += k
		}
		return n, true
	}
	return 0, true
}

// callNodes is the weight, in expression nodes, of each call out to Go
// that the instrumenter puts in a node's place (a check around a +, a
// computed key, a template's part...): about 1.5-3 µs in js/wasm, as much as
// some 20 light nodes. Counted as one node, a statement of twenty such
// (n += 1 twenty times, o[k] twenty times, a template of twenty parts, a
// sum of twenty conditionals) ran its 50,000 steps in 1.4-3.2 s of js/wasm
// CPU (measured with scripts/hostile --wasm).
const callNodes = 10

// checkCalls is about how many calls out to Go the instrumenter puts in
// node x's place (see instrument: the same tests where they are cheap to
// repeat, else one call where there may be one).
func checkCalls(x any, num func(ast.Expression) bool) int {
	switch n := x.(type) {
	case *ast.BinaryExpression:
		switch {
		case logical(n.Operator) || n.Operator == token.INSTANCEOF:
			return 0
		case n.Operator == token.IN:
			if _, private := n.Left.(*ast.PrivateIdentifier); private || num(n.Left) {
				return 0
			}
			return 1
		case num(n.Left) && num(n.Right):
			return 0
		}
		if which, ok := equality[n.Operator]; ok {
			strict := which == eqStrict || which == eqStrictNot
			short := func(e ast.Expression) bool {
				s, ok := e.(*ast.StringLiteral)
				_, null := e.(*ast.NullLiteral)
				return ok && len(s.Value) <= literalChars || null
			}
			if strict && (literal(n.Left) || literal(n.Right)) || !strict && (short(n.Left) || short(n.Right)) {
				return 0
			}
			return 1
		}
		if family(n.Operator) == '+' {
			if _, chain := n.Left.(*ast.BinaryExpression); !chain {
				return 2 // the left operand's and the right's
			}
		}
		if family(n.Operator) != 0 {
			return 1
		}
	case *ast.AssignExpression:
		switch {
		case n.Operator != token.ASSIGN:
			if !num(n.Left) || !num(n.Right) {
				return 1
			}
		case isPattern(n.Left):
			return 1
		default:
			switch l := n.Left.(type) {
			case *ast.BracketExpression:
				if !plainKey(l.Member) && (!num(n.Right) || !num(l.Member)) {
					return 1
				}
			case *ast.DotExpression:
				if l.Identifier.Name == "length" && !num(n.Right) {
					return 1
				}
			}
		}
	case *ast.UnaryExpression:
		switch n.Operator {
		case token.PLUS, token.MINUS, token.BITWISE_NOT, token.INCREMENT, token.DECREMENT:
			if !num(n.Operand) {
				return 1
			}
		}
	case *ast.BracketExpression:
		if !num(n.Member) && !plainKey(n.Member) {
			return 1
		}
	case *ast.TemplateLiteral:
		if n.Tag == nil {
			return len(n.Expressions)
		}
	case *ast.SpreadElement:
		return 1
	case *ast.CaseStatement:
		if n.Test != nil && !literal(n.Test) {
			return 1
		}
	}
	return 0
}

// callWeight is the weight, besides its node, of a call (or new): a
// built-in the sandbox does not wrap (hasOwnProperty, Array.isArray,
// Object.getPrototypeOf) costs about 1.5-2 µs in js/wasm with its
// arguments, and twenty in a statement ran their 50,000 steps in
// 0.6-0.84 s of js/wasm CPU (scripts/hostile --wasm). A call of the UDF's own
// functions costs a step besides, at its body.
const callWeight = 4

// nameNodes is the weight, in expression nodes, of the name node x holds
// when the engine may hash it as it runs (a property's name after a dot
// or in an object literal or a class, an identifier it may look up in
// the global object; a private name is found when compiled): nothing for
// a name of convertFree bytes or fewer, else a step's worth of nodes per
// compareChars bytes, as a computed key is charged (chargeKey). The code may hold a name of up to UDFCodeBytes:
// a loop reading o.<a name of 60,000 characters> ran 0.88 s in js/wasm
// for its 50,000 steps when its weight did not count the name
// (TestRegionWeights holds the weight).
func nameNodes(x any) int {
	n := 0
	switch x := x.(type) {
	case *ast.Identifier:
		n = len(x.Name)
	case *ast.DotExpression:
		n = len(x.Identifier.Name)
	case *ast.PropertyShort: // {name} in an object literal or a pattern
		n = len(x.Name.Name)
	case *ast.PropertyKeyed:
		n = literalKeyLength(x.Key, x.Computed)
	case *ast.MethodDefinition:
		n = literalKeyLength(x.Key, x.Computed)
	case *ast.FieldDefinition:
		n = literalKeyLength(x.Key, x.Computed)
	}
	if n <= convertFree {
		return 0
	}
	return n * regionNodes / compareChars
}

// literalKeyLength is the length of a key written as a string literal
// ({"k": v}, class members), 0 for a computed one (charged as it runs)
// or another (an identifier is weighed as a node of its own).
func literalKeyLength(key ast.Expression, computed bool) int {
	if s, ok := key.(*ast.StringLiteral); ok && !computed {
		return len(s.Value)
	}
	return 0
}

// skipQuoted returns the offset of the quote that closes the string or
// template opened at s[i], searching before end (end when there is none),
// and whether it met a template's placeholder ("${") on the way. Roughly:
// a placeholder's own strings are not followed.
func skipQuoted(s string, i, end int) (int, bool) {
	q, placeholder := s[i], false
	for i++; i < end && s[i] != q; i++ {
		if s[i] == '\\' {
			i++
		} else if q == '`' && s[i] == '$' && i+1 < end && s[i+1] == '{' {
			placeholder = true
		}
	}
	return min(i, end), placeholder
}

// nodeEnd is where the node n ends in code, as goja's Idx1 (a file.Idx), but
// with each identifier's end read from the text: goja ends an identifier
// at its start plus the length of its name as it stores it, which is not
// its length in the code when the name has characters outside ASCII
// (stored as UTF-16) or escapes (\u0061 is stored as "a"). Ended so, the
// instrumentation would cut "3 * größe" inside the name and the code it
// made would not parse (TestNamesOutsideASCII; FuzzUDF found it). The ends found are
// kept in memo (when not nil), as exprStartMemo keeps starts: the walk
// down a chain's last operands ("a += a += ...") is as long as the chain,
// and walking it anew for each link took 0.7 s for 20,000 links.
func nodeEnd(code string, n ast.Node, memo map[ast.Node]file.Idx) file.Idx {
	type link struct {
		n     ast.Node
		after file.Idx // what n has past the node it ends with (a postfix ++)
	}
	var path []link
	var at file.Idx
	for {
		if e, ok := memo[n]; ok {
			at = e
			break
		}
		next, after := endsWith(n)
		if next == nil {
			at = n.Idx1()
			if id, ok := n.(*ast.Identifier); ok {
				at = identEnd(code, id)
			}
			path = append(path, link{n: n})
			break
		}
		path = append(path, link{n, after})
		n = next
	}
	for k := len(path) - 1; k >= 0; k-- {
		at += path[k].after
		if memo != nil {
			memo[path[k].n] = at
		}
	}
	return at
}

// endsWith is the node whose end is n's end, as goja's Idx1 follows it,
// and what n has past it; nil for a node that ends at a bracket, a
// keyword, a literal or a name of its own, which goja counts in the code
// (but a name: see nodeEnd).
func endsWith(n ast.Node) (ast.Node, file.Idx) {
	switch n := n.(type) {
	case *ast.DotExpression:
		return &n.Identifier, 0
	case *ast.PrivateDotExpression:
		return &n.Identifier.Identifier, 0
	case *ast.MetaProperty:
		return n.Property, 0
	case *ast.AssignExpression:
		return n.Right, 0
	case *ast.AwaitExpression:
		return n.Argument, 0
	case *ast.BinaryExpression:
		return n.Right, 0
	case *ast.ConditionalExpression:
		return n.Alternate, 0
	case *ast.SequenceExpression:
		return n.Sequence[len(n.Sequence)-1], 0
	case *ast.UnaryExpression:
		if n.Postfix {
			return n.Operand, 2 // ++ or --
		}
		return n.Operand, 0
	case *ast.NewExpression:
		if n.ArgumentList == nil {
			return n.Callee, 0
		}
	case *ast.YieldExpression:
		if n.Argument != nil {
			return n.Argument, 0
		}
	case *ast.ArrowFunctionLiteral:
		return n.Body, 0
	case *ast.ExpressionBody:
		return n.Expression, 0
	case *ast.ExpressionStatement:
		return n.Expression, 0
	case *ast.ReturnStatement:
		if n.Argument != nil {
			return n.Argument, 0
		}
	case *ast.ThrowStatement:
		return n.Argument, 0
	case *ast.VariableStatement:
		return n.List[len(n.List)-1], 0
	case *ast.LexicalDeclaration:
		return n.List[len(n.List)-1], 0
	case *ast.Binding:
		if n.Initializer != nil {
			return n.Initializer, 0
		}
		return n.Target, 0
	case *ast.LabelledStatement:
		return n.Statement, 0
	case *ast.BranchStatement:
		if n.Label != nil {
			return n.Label, 0
		}
	case *ast.IfStatement:
		if n.Alternate != nil {
			return n.Alternate, 0
		}
		return n.Consequent, 0
	case *ast.ForStatement:
		return n.Body, 0
	case *ast.ForInStatement:
		return n.Body, 0
	case *ast.ForOfStatement:
		return n.Body, 0
	case *ast.WhileStatement:
		return n.Body, 0
	case *ast.WithStatement:
		return n.Body, 0
	}
	return nil, 0
}

// identEnd is where the identifier id ends in code: past the ASCII letters,
// digits, $ and _, the \u escapes and the characters outside ASCII that
// can continue a name, from its start (a private name's # included).
func identEnd(code string, id *ast.Identifier) file.Idx {
	i := int(id.Idx) - 1
	if i < 0 || i >= len(code) {
		return id.Idx1()
	}
	if name := id.Name.String(); strings.HasPrefix(code[i:], name) && (i+len(name) >= len(code) || identPartLen(code, i+len(name)) == 0) {
		return file.Idx(i + len(name) + 1) // spelt as its name reads
	}
	if code[i] == '#' {
		i++
	}
	for i < len(code) {
		n := identPartLen(code, i)
		if n == 0 {
			break
		}
		i += n
	}
	return file.Idx(i + 1)
}

// identPartLen is the length in bytes of the part of a name at byte i of
// code (a character or a \u escape), 0 where the name ends.
func identPartLen(code string, i int) int {
	c := code[i]
	switch {
	case c == '$' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		return 1
	case c == '\\' && i+1 < len(code) && code[i+1] == 'u':
		if i+2 < len(code) && code[i+2] == '{' {
			if j := strings.IndexByte(code[i:], '}'); j > 0 {
				return j + 1
			}
			return 0
		}
		return min(6, len(code)-i)
	case c < utf8.RuneSelf:
		return 0
	}
	r, n := utf8.DecodeRuneInString(code[i:])
	if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc, unicode.Nl, unicode.Other_ID_Start, unicode.Other_ID_Continue) || r == '\u200c' || r == '\u200d' {
		return n
	}
	return 0
}

// counters finds the references to loop counters that always hold a
// number, so that the operators on them need no check: a for loop's
// variable declared with a number (or an operator's result) in its head,
// given no other value anywhere in the code (by name, whatever the scope:
// another declaration of the name without such a value, an assignment of
// anything else, a +=, a destructuring, a for-in or for-of, a parameter,
// a function, class or catch binding of the name each rule it out), in
// code with no with statement. The references marked are those inside the
// loop (let, const) or inside the function that declares it (var; a var
// at the top level is a property of the global object, which anything can
// set). "for (let i = 0; i < n; i++)" then costs what it did.
func counters(prog *ast.Program) map[*ast.Identifier]bool {
	type counter struct {
		name     string
		from, to file.Idx
		isVar    bool
	}
	var cands []counter
	heads := map[*ast.Binding]bool{}
	tainted := map[string]bool{}
	idents := map[string][]*ast.Identifier{}
	var funcs [][2]file.Idx
	with := false
	taintTarget := func(t ast.Node) {
		if id, ok := t.(*ast.Identifier); ok {
			tainted[id.Name.String()] = true
			return
		}
		if t != nil {
			walk(reflect.ValueOf(t), 0, map[uintptr]bool{}, func(n any) {
				if id, ok := n.(*ast.Identifier); ok {
					tainted[id.Name.String()] = true
				}
			})
		}
	}
	ok := walk(reflect.ValueOf(prog), 0, map[uintptr]bool{}, func(n any) {
		switch x := n.(type) {
		case *ast.WithStatement:
			with = true
		case *ast.FunctionLiteral:
			if x.Body != nil {
				funcs = append(funcs, [2]file.Idx{x.Body.Idx0(), x.Body.Idx1()})
			}
			if x.Name != nil {
				taintTarget(x.Name)
			}
		case *ast.ArrowFunctionLiteral:
			funcs = append(funcs, [2]file.Idx{x.Idx0(), x.Idx1()})
		case *ast.ClassLiteral:
			if x.Name != nil {
				taintTarget(x.Name)
			}
		case *ast.ForStatement:
			var list []*ast.Binding
			isVar := false
			switch in := x.Initializer.(type) {
			case *ast.ForLoopInitializerLexicalDecl:
				list = in.LexicalDeclaration.List
			case *ast.ForLoopInitializerVarDeclList:
				list, isVar = in.List, true
			}
			for _, b := range list {
				if id, ok := b.Target.(*ast.Identifier); ok && b.Initializer != nil && numeric(b.Initializer) {
					heads[b] = true
					cands = append(cands, counter{name: id.Name.String(), from: x.Idx0(), to: x.Idx1(), isVar: isVar})
				}
			}
		case *ast.Binding:
			if _, ok := x.Target.(*ast.Identifier); ok && (heads[x] || x.Initializer != nil && numeric(x.Initializer)) {
				break
			}
			taintTarget(x.Target)
		case *ast.AssignExpression:
			if _, ok := x.Left.(*ast.Identifier); ok && (x.Operator == token.ASSIGN && numeric(x.Right) || x.Operator != token.ASSIGN && family(x.Operator) == 'n') {
				break
			}
			if _, ok := x.Left.(*ast.Identifier); ok || isPattern(x.Left) {
				taintTarget(x.Left)
			}
		case *ast.ForIntoExpression:
			taintTarget(x.Expression)
		case *ast.ForDeclaration:
			taintTarget(x.Target)
		case *ast.CatchStatement:
			taintTarget(x.Parameter)
		case *ast.ParameterList:
			taintTarget(x.Rest)
		case *ast.Identifier:
			idents[x.Name.String()] = append(idents[x.Name.String()], x)
		}
	})
	if !ok || with {
		return nil
	}
	safe := map[*ast.Identifier]bool{}
	for _, c := range cands {
		if tainted[c.name] {
			continue
		}
		from, to := c.from, c.to
		if c.isVar {
			// The innermost function around the loop.
			found := false
			for _, f := range funcs {
				if f[0] <= c.from && c.from < f[1] && (!found || f[0] >= from) {
					from, to, found = f[0], f[1], true
				}
			}
			if !found {
				continue
			}
		}
		for _, id := range idents[c.name] {
			if from <= id.Idx0() && id.Idx0() < to {
				safe[id] = true
			}
		}
	}
	return safe
}

// isPattern reports whether e is a destructuring pattern.
func isPattern(e ast.Node) bool {
	switch e.(type) {
	case *ast.ArrayPattern, *ast.ObjectPattern:
		return true
	}
	return false
}

// restNames are the rests of object patterns in n that bind a name (at
// any depth: {a: {...r}}), for the rests whose source the code does not
// name, a parameter's, a catch's, a loop head's and a nested one's (a rest
// that sets a member is charged by refName's reference, restTargets): what
// keysName charges once the engine has copied it (chargeRests), at the
// start of the body, which the copy precedes by one call or iteration.
// Each is the name, or (flag ? void 0 : name) when its pattern reads
// capture first (flags): the copy was charged before it was made unless
// the key was not reached.
func restNames(n ast.Node, flags map[*ast.ObjectPattern]string) []string {
	var names []string
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		switch x := n.(type) {
		case *ast.ParameterList:
			if x == nil {
				return
			}
			for _, b := range x.List {
				visit(b)
			}
			visit(x.Rest)
		case *ast.Binding:
			if x != nil {
				visit(x.Target)
			}
		case *ast.ForIntoVar:
			visit(x.Binding)
		case *ast.ForDeclaration:
			visit(x.Target)
		case *ast.ForIntoExpression:
			visit(x.Expression)
		case *ast.AssignExpression:
			visit(x.Left)
		case *ast.ObjectPattern:
			if id, ok := restOf(x); ok {
				if f := flags[x]; f != "" {
					id = "(" + f + " ? void 0 : " + id + ")"
				}
				names = append(names, id)
			}
			patternParts(x, func(e ast.Expression) { visit(e) })
		case *ast.ArrayPattern:
			patternParts(x, func(e ast.Expression) { visit(e) })
		}
	}
	visit(n)
	return names
}

// flagPatterns gives each object pattern with a rest that keysName(0) does
// not charge before its copy (every one but a declaration's or an
// assignment's own, whose source the code names) the flag its first key,
// capture, sets: a name of its own where the pattern binds names (a
// declaration's, a parameter's, a catch's, a loop head's), a property of
// flagsName's object where it assigns.
func flagPatterns(prog *ast.Program) (map[*ast.ObjectPattern]string, bool) {
	flags := map[*ast.ObjectPattern]string{}
	// parts are the defaults of patterns' parts, met by the walk after
	// their pattern: not assignments of their own.
	parts := map[*ast.AssignExpression]bool{}
	var mark func(e ast.Node, binds, named bool)
	mark = func(e ast.Node, binds, named bool) {
		switch x := e.(type) {
		case *ast.AssignExpression:
			parts[x] = true
			mark(x.Left, binds, false)
			return
		case *ast.Binding:
			if x != nil {
				mark(x.Target, binds, false)
			}
			return
		case *ast.ObjectPattern:
			// A parameter's binding is met again as a binding.
			if _, done := flags[x]; x.Rest != nil && !named && !done {
				n := strconv.Itoa(len(flags))
				if binds {
					flags[x] = flagName + n
				} else {
					flags[x] = flagsName + ".c" + n
				}
			}
		case *ast.ArrayPattern:
		default:
			return
		}
		patternParts(e, func(p ast.Expression) { mark(p, binds, false) })
	}
	ok := walk(reflect.ValueOf(prog), 0, map[uintptr]bool{}, func(n any) {
		switch n := n.(type) {
		case *ast.ParameterList:
			if n != nil {
				for _, b := range n.List {
					mark(b, true, false)
				}
				mark(n.Rest, true, false)
			}
		case *ast.CatchStatement:
			mark(n.Parameter, true, false)
		case *ast.Binding:
			// A declaration's (a loop head's has no initializer).
			if n.Initializer != nil {
				mark(n.Target, true, true)
			} else {
				mark(n.Target, true, false)
			}
		case *ast.ForDeclaration:
			mark(n.Target, true, false)
		case *ast.ForIntoExpression:
			mark(n.Expression, false, false)
		case *ast.AssignExpression:
			if !parts[n] && n.Operator == token.ASSIGN && isPattern(n.Left) {
				mark(n.Left, false, true)
			}
		}
	})
	return flags, ok
}

// restOf is the name an object pattern's rest binds, if it is a name.
func restOf(p *ast.ObjectPattern) (string, bool) {
	if p == nil {
		return "", false
	}
	id, ok := p.Rest.(*ast.Identifier)
	if !ok {
		return "", false
	}
	return id.Name.String(), true
}

// chargeRests is keysName's call on each name, each followed by sep.
func chargeRests(names []string, sep string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(keysName + "(0, " + n + ")" + sep)
	}
	return b.String()
}

// statementEnd is where a statement whose node ends at end ends in the
// text: past the parentheses that close its last expression (goja's end
// of "var a = (f)" is inside them: a block closed there, "{var a = (f})",
// did not parse) and past its semicolon (or "if (a) while (b) x++; else
// ..." would lose its else). Nothing but the statement's own parenthesis
// can follow a statement there.
func statementEnd(code string, end int) int {
	for {
		j, _ := skipBlank(code, end)
		if j >= len(code) || code[j] != ')' {
			break
		}
		end = j + 1
	}
	if j, _ := skipBlank(code, end); j < len(code) && code[j] == ';' {
		end = j + 1
	}
	return end
}

// patternParts calls f on each target an array or object pattern holds:
// its elements or its properties' values, and its rest (nil where there
// is none).
func patternParts(e ast.Node, f func(ast.Expression)) {
	switch x := e.(type) {
	case *ast.ArrayPattern:
		for _, el := range x.Elements {
			f(el)
		}
		f(x.Rest)
	case *ast.ObjectPattern:
		for _, p := range x.Properties {
			if k, ok := p.(*ast.PropertyKeyed); ok {
				f(k.Value)
			}
		}
		f(x.Rest)
	}
}

// paramCode calls f on each expression a parameter list runs: the
// defaults, at any depth of its patterns, with the name of what each sets
// when it is a name (an anonymous function takes it), and their computed
// keys.
func paramCode(pl *ast.ParameterList, f func(e ast.Expression, name string)) {
	if pl == nil {
		return
	}
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		switch x := n.(type) {
		case *ast.Binding:
			if x == nil {
				return
			}
			if x.Initializer != nil {
				f(x.Initializer, bindingName(x.Target))
			}
			visit(x.Target)
		case *ast.AssignExpression:
			f(x.Right, bindingName(x.Left))
			visit(x.Left)
		case *ast.ObjectPattern:
			for _, p := range x.Properties {
				switch k := p.(type) {
				case *ast.PropertyKeyed:
					if k.Computed {
						f(k.Key, "")
					}
					visit(k.Value)
				case *ast.PropertyShort:
					if k.Initializer != nil {
						f(k.Initializer, k.Name.Name.String())
					}
				}
			}
			visit(x.Rest)
		case *ast.ArrayPattern:
			patternParts(x, func(e ast.Expression) { visit(e) })
		}
	}
	for _, b := range pl.List {
		visit(b)
	}
	visit(pl.Rest)
}

// bindingName is the name a target binds when it is a name, else "".
func bindingName(e ast.Expression) string {
	if id, ok := e.(*ast.Identifier); ok {
		return id.Name.String()
	}
	return ""
}

// anonymous is 1 for an expression that defines an anonymous function (an
// arrow too), which runs nothing when evaluated, 2 for one that defines an
// anonymous class (its computed keys and static parts run), else 0. Both
// take the name of what they are assigned to, which a call around them
// would take away.
func anonymous(e ast.Expression) int {
	switch x := e.(type) {
	case *ast.FunctionLiteral:
		if x.Name == nil {
			return 1
		}
	case *ast.ArrowFunctionLiteral:
		return 1
	case *ast.ClassLiteral:
		if x.Name == nil {
			return 2
		}
	}
	return 0
}

// markDefaults marks the defaults of pattern p's parts (a = 1 in [a = 1]).
func markDefaults(p ast.Node, in map[*ast.AssignExpression]bool) {
	patternParts(p, func(e ast.Expression) {
		if a, ok := e.(*ast.AssignExpression); ok {
			in[a] = true
		}
	})
}

// trailingComma says whether a comma stands between a list's last item,
// which ends at from (goja's end, maybe inside parentheses that close it),
// and the list's closing parenthesis at closing.
func trailingComma(code string, from, closing int) bool {
	for j := from; j >= 0 && j < closing; j++ {
		j, _ = skipBlank(code, j)
		if j >= closing || code[j] != ')' {
			return j < closing && code[j] == ','
		}
	}
	return false
}

// isSuper says whether e is super (the base of super.x or super[k]).
func isSuper(e ast.Expression) bool {
	_, ok := e.(*ast.SuperExpression)
	return ok
}

// propertyName is the name a function defined as the value of the property
// key k takes: k's text, a number's as JavaScript writes it, a private
// name's with its #; "" where not known here.
func propertyName(k ast.Expression) string {
	switch x := k.(type) {
	case *ast.NumberLiteral:
		switch v := x.Value.(type) {
		case int64:
			return strconv.FormatInt(v, 10)
		case float64:
			if v == math.Trunc(v) && math.Abs(v) < 1e21 {
				return strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
		return ""
	case *ast.PrivateIdentifier:
		return "#" + x.Name.String()
	}
	return keyText(k)
}

// keyText is a property key's text when it is written as a name or a
// string.
func keyText(k ast.Expression) string {
	switch x := k.(type) {
	case *ast.Identifier:
		return x.Name.String()
	case *ast.StringLiteral:
		return x.Value.String()
	}
	return ""
}
