package filter

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// MaxBytes is the longest filter the service accepts, counted in bytes of
// UTF-8, not in characters. The subscription rule table reads its /filter
// bound from here.
const MaxBytes = 256

// maxDepth bounds nesting (see limits.FilterDepth for why).
const maxDepth = limits.FilterDepth

// Diagnostic codes. They are part of the contract: tests, the page and
// users' scripts match on them.
const (
	codeSyntax            = "filter-syntax"
	codeTooLong           = "filter-too-long"
	codeBlank             = "filter-blank"
	codeTooDeep           = "filter-too-deep"
	codeMixed             = "filter-mixed-and-or"
	codeCase              = "filter-case"
	codeOperator          = "filter-unsupported-operator"
	codeValueNotString    = "filter-value-not-string"
	codeKeyFirst          = "filter-key-first"
	codeKeyQuotes         = "filter-key-needs-quotes"
	codeEscapeOutside     = "filter-escape-outside-string"
	codeBadEscape         = "filter-bad-escape"
	codeUnterminated      = "filter-unterminated-string"
	codeControlChar       = "filter-control-character"
	codeInvalidUTF8       = "filter-invalid-utf8"
	codeUnknownName       = "filter-unknown-name"
	codeUnknownFunction   = "filter-unknown-function"
	codeHasPrefixArgs     = "filter-hasprefix-arguments"
	codeQuote             = "filter-quote"
	codeMissingCondition  = "filter-missing-condition"
	codeMissingOperator   = "filter-missing-operator"
	codeParen             = "filter-parenthesis"
	codeLoneString        = "filter-lone-string"
	codeMissingComparison = "filter-missing-comparison"
	codeMissingKey        = "filter-missing-key"
	codeInternal          = "filter-internal"
	codeEmptyKey          = "filter-empty-key"        // warning
	codeNotEqualAbsent    = "filter-not-equal-absent" // info
	codeEmptyPrefix       = "filter-empty-prefix"     // info
)

// Parse reads a filter. The empty string is the empty filter: valid, and it
// delivers every message. The Filter is nil exactly when a diagnostic is an
// error; warnings and notes may come with a valid filter.
//
// Diagnostics have no Path, Line or Column: their Span is in bytes of src,
// for the caller to carry into the user's text and locate.
func Parse(src string) (*Filter, []diag.Diagnostic) { return parse(src, MaxBytes) }

// ParseMax is Parse with another length limit (0: none), for a caller whose
// rule table holds the bound.
func ParseMax(src string, max int) (*Filter, []diag.Diagnostic) { return parse(src, max) }

type parser struct {
	dropped  int // findings past diag.MaxCollected, counted only
	src      string
	max      int // the length limit in bytes, 0 for none
	pos      int // where lexing continues
	tok      token
	peeked   bool
	peekEnd  int
	after    token // the token before the condition being read, for messages
	hasAfter bool
	lastKey  string // the key of the last comparison, for hints
	ds       []diag.Diagnostic
}

// bailout stops the parse at an error after which the rest of the text
// cannot be read sensibly. Errors the parser can step over (a lowercase
// operator, AND mixed with OR, a bad escape) are reported and parsing goes
// on, so one run shows them all.
type bailout struct{}

func parse(src string, max int) (f *Filter, ds []diag.Diagnostic) {
	if src == "" {
		return &Filter{}, nil
	}
	p := &parser{src: src, max: max}
	if max > 0 && len(src) > max {
		p.tooLong()
	}
	if i := firstInvalidUTF8(src); i >= 0 {
		p.errorAt(i, i+1, codeInvalidUTF8, "the filter is not valid UTF-8 at this byte", "filters are UTF-8 text")
	}
	root := p.run()
	if root != nil && !diag.HasErrors(p.ds) {
		p.lint(root, false, nil)
	}
	ds = diag.FinishDropped(p.ds, p.dropped)
	if diag.HasErrors(ds) {
		return nil, ds
	}
	return &Filter{Text: src, Root: root}, ds
}

func (p *parser) run() (root Expr) {
	defer func() {
		if r := recover(); r != nil {
			root = nil
			if _, ok := r.(bailout); !ok {
				// A bug, not the user's fault; report it rather than take
				// down the WebAssembly instance. The fuzz test fails on it.
				p.errorAt(0, 0, codeInternal, fmt.Sprintf("internal error reading the filter: %v", r), "please report this filter")
			}
		}
	}()
	if strings.TrimLeft(p.src, " \t\n\r\f\v") == "" {
		p.fail(0, len(p.src), codeBlank, "the filter holds only whitespace",
			"an empty filter delivers every message: remove the filter instead")
	}
	root = p.expr(0)
	if t := p.peek(); t.kind != tEOF {
		p.afterCondition(t, root, false)
	}
	return root
}

func (p *parser) add(sev diag.Severity, start, end int, code, msg, hint string) {
	if len(p.ds) >= diag.MaxCollected {
		p.dropped++ // a filter of a megabyte of bad escapes: count them only
		return
	}
	p.ds = append(p.ds, diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint, Span: diag.SpanOf(start, end)})
}

func (p *parser) errorAt(start, end int, code, msg, hint string) {
	p.add(diag.Error, start, end, code, msg, hint)
}

// fail reports an error and stops the parse.
func (p *parser) fail(start, end int, code, msg, hint string) {
	p.errorAt(start, end, code, msg, hint)
	panic(bailout{})
}

func (p *parser) failAt(t token, code, msg, hint string) { p.fail(t.start, t.end, code, msg, hint) }

func (p *parser) tooLong() {
	n := len(p.src)
	cut := p.max
	for cut > 0 && !utf8.RuneStart(p.src[cut]) {
		cut--
	}
	hint := "shorten keys or values, or drop conditions"
	if r := utf8.RuneCountInString(p.src); r != n {
		hint = "it is " + strconv.Itoa(r) + " characters, but the limit counts UTF-8 bytes and non-ASCII characters take 2 to 4 bytes each; " + hint
	}
	p.errorAt(cut, n, codeTooLong, "the filter is "+strconv.Itoa(n)+" bytes; at most "+strconv.Itoa(p.max)+" are allowed", hint)
}

func firstInvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// expr reads a chain of operands joined by AND or by OR.
func (p *parser) expr(depth int) Expr {
	if depth > maxDepth {
		t := p.peek()
		p.failAt(t, codeTooDeep, "the filter nests deeper than "+strconv.Itoa(maxDepth)+" levels", "")
	}
	first := p.unary(depth)
	terms := []Expr{first}
	var op LogicOp
	mixed := false
	for {
		t := p.peek()
		k, ok := p.logicOp(t)
		if !ok {
			break
		}
		p.next()
		if len(terms) == 1 {
			op = k
		}
		p.after, p.hasAfter = t, true
		x := p.unary(depth)
		if k != op && !mixed {
			mixed = true
			p.errorAt(t.start, t.end, codeMixed, "AND and OR cannot be mixed without parentheses", mixedHint(terms, op, k, x))
		}
		terms = append(terms, x)
	}
	if len(terms) == 1 {
		return first
	}
	return &Logic{Op: op, X: terms, Loc: Span{first.Span().Start, terms[len(terms)-1].Span().End}}
}

// mixedHint shows the two readings of "a AND b OR c", built from the
// conditions the user wrote.
func mixedHint(terms []Expr, op, other LogicOp, next Expr) string {
	generic := "add parentheses to say which goes first, e.g. a " + op.String() + " (b " + other.String() + " c)"
	last := terms[len(terms)-1]
	chain := Format(&Logic{Op: op, X: terms})
	first := "(" + chain + ") " + other.String() + " " + Format(next)
	var second string
	if len(terms) > 1 {
		second = Format(&Logic{Op: op, X: terms[:len(terms)-1]}) + " " + op.String() + " "
	}
	second += "(" + Format(last) + " " + other.String() + " " + Format(next) + ")"
	if len(first)+len(second) > 200 {
		return generic
	}
	return "add parentheses to say which goes first: " + first + "  or  " + second
}

// logicOp reads t as AND or OR. Spellings from other languages (and, &&,
// ||) are reported and read as what they were surely meant to be.
func (p *parser) logicOp(t token) (LogicOp, bool) {
	text := p.text(t)
	switch {
	case t.kind == tWord && text == "AND":
		return And, true
	case t.kind == tWord && text == "OR":
		return Or, true
	case t.kind == tWord && strings.EqualFold(text, "and"):
		p.errorAt(t.start, t.end, codeCase, "operators must be uppercase: write AND, not "+text, "")
		return And, true
	case t.kind == tWord && strings.EqualFold(text, "or"):
		p.errorAt(t.start, t.end, codeCase, "operators must be uppercase: write OR, not "+text, "")
		return Or, true
	case t.kind == tOther && text == "&&":
		p.errorAt(t.start, t.end, codeOperator, "&& is not a filter operator: write AND", "")
		return And, true
	case t.kind == tOther && text == "||":
		p.errorAt(t.start, t.end, codeOperator, "|| is not a filter operator: write OR", "")
		return Or, true
	}
	return 0, false
}

// unary reads NOT X, -X or an operand.
func (p *parser) unary(depth int) Expr {
	if depth > maxDepth {
		t := p.peek()
		p.failAt(t, codeTooDeep, "the filter nests deeper than "+strconv.Itoa(maxDepth)+" levels", "")
	}
	t := p.peek()
	text := p.text(t)
	isNot := false
	switch {
	case t.kind == tWord && text == "NOT", t.kind == tMinus:
		isNot = true
	case t.kind == tWord && strings.EqualFold(text, "not"):
		p.errorAt(t.start, t.end, codeCase, "operators must be uppercase: write NOT, not "+text, "")
		isNot = true
	case t.kind == tOther && text == "!":
		p.errorAt(t.start, t.end, codeOperator, "! is not a filter operator: write NOT (or -)", "")
		isNot = true
	}
	if !isNot {
		return p.primary(depth)
	}
	p.next()
	p.after, p.hasAfter = t, true
	x := p.unary(depth + 1)
	return &Not{X: x, Loc: Span{t.start, x.Span().End}}
}

// primary reads a condition or a parenthesised group.
func (p *parser) primary(depth int) Expr {
	t := p.peek()
	switch t.kind {
	case tLParen:
		p.next()
		if c := p.peek(); c.kind == tRParen {
			p.fail(t.start, c.end, codeParen, "empty parentheses hold no condition", "")
		}
		p.after, p.hasAfter = t, true
		x := p.expr(depth + 1)
		c := p.peek()
		if c.kind == tEOF {
			p.failAt(t, codeParen, "this ( is never closed", "add ) where the group ends")
		}
		if c.kind != tRParen {
			p.afterCondition(c, x, true)
		}
		p.next()
		setSpan(x, Span{t.start, c.end})
		return x
	case tWord:
		switch p.text(t) {
		case "attributes":
			return p.attribute()
		case "hasPrefix":
			return p.hasPrefix()
		}
		return p.badWord(t)
	case tString:
		p.loneString(t)
	case tEOF, tRParen, tComma:
		p.missingCondition(t)
	}
	p.unexpected(t, "a condition")
	return nil
}

// missingCondition reports a place where a condition should be and is not.
func (p *parser) missingCondition(t token) {
	if p.hasAfter {
		a := p.after
		what := p.text(a)
		if a.kind == tLParen {
			if t.kind == tEOF {
				p.failAt(a, codeParen, "this ( is never closed", "add ) where the group ends")
			}
			p.failAt(t, codeMissingCondition, "a condition must follow (", "")
		}
		if t.kind == tEOF {
			p.failAt(a, codeMissingCondition, "the filter ends after "+what+"; a condition must follow it", "")
		}
		p.failAt(t, codeMissingCondition, "a condition must follow "+what+", not "+p.describe(t), "")
	}
	if t.kind == tRParen {
		p.failAt(t, codeParen, "this ) has no matching (", "")
	}
	p.failAt(t, codeMissingCondition, "expected a condition, found "+p.describe(t), "")
}

// afterCondition reports what follows a complete condition when it is
// neither AND, OR nor (inside a group) a closing parenthesis.
func (p *parser) afterCondition(t token, prev Expr, inGroup bool) {
	text := p.text(t)
	switch {
	case t.kind == tRParen && !inGroup:
		p.failAt(t, codeParen, "this ) has no matching (", "")
	case t.kind == tWord && text == "NOT":
		p.failAt(t, codeMissingOperator, "NOT cannot join two conditions", "write AND NOT or OR NOT")
	case t.kind == tWord || t.kind == tString || t.kind == tLParen || t.kind == tMinus:
		p.failAt(t, codeMissingOperator, "expected AND or OR before this", "join conditions with AND or OR")
	}
	if has, ok := prev.(*Has); ok && (t.kind == tEq || t.kind == tNe || t.kind == tOther && text == "==") {
		p.failAt(t, codeMissingComparison, "attributes:KEY only tests that the attribute is present; it cannot be compared",
			"to compare the value write attributes."+FormatKey(has.Key.Name)+" "+compareText(text)+" \"...\"")
	}
	if t.kind == tEq || t.kind == tNe {
		p.failAt(t, codeSyntax, "unexpected "+text+": only attributes.KEY can be compared", "")
	}
	if inGroup {
		p.unexpected(t, "AND, OR or )")
	}
	p.unexpected(t, "AND, OR or the end of the filter")
}

func compareText(op string) string {
	if op == "!=" {
		return "!="
	}
	return "="
}

func (p *parser) unexpected(t token, want string) {
	text := p.text(t)
	if t.kind == tOther {
		switch text {
		case "==", "<", ">", "<=", ">=", "=~", "!~", "<>", "=>", "~":
			p.failAt(t, codeOperator, text+" is not a filter operator", "the comparisons are = and != after attributes.KEY, and hasPrefix(attributes.KEY, \"prefix\")")
		case "[", "]", "{", "}":
			p.failAt(t, codeSyntax, "unexpected "+text, "")
		case "\\":
			p.failAt(t, codeEscapeOutside, "escapes only work inside a string literal", `write them between double quotes, e.g. attributes:"\u307F"`)
		}
	}
	p.failAt(t, codeSyntax, "unexpected "+p.describe(t)+"; expected "+want, "")
}

// describe names a token for a message.
func (p *parser) describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the filter"
	case tString:
		return "the string " + quoteText(p.text(t))
	}
	return quoteText(p.text(t))
}

// quoteText quotes user text for a message, escaping what is not printable
// and cutting it as diag.Quote does.
func quoteText(s string) string { return diag.Quote(s) }

// attribute reads attributes:KEY or attributes.KEY OP "VALUE".
func (p *parser) attribute() Expr {
	a := p.next()
	if text := p.text(a); text != "attributes" {
		p.errorAt(a.start, a.end, codeCase, "write attributes in lowercase, not "+text, "")
	}
	t := p.peek()
	switch t.kind {
	case tColon:
		p.next()
		k := p.key(t)
		return &Has{Key: k, Loc: Span{a.start, k.Loc.End}}
	case tDot:
		p.next()
		k := p.key(t)
		return p.comparison(a, k)
	case tLParen:
		p.failAt(t, codeSyntax, "attributes is not a function", `write attributes:KEY or attributes.KEY = "value"`)
	case tEq, tNe:
		p.failAt(t, codeMissingKey, "a key must come between attributes and "+p.text(t), `write attributes.KEY `+p.text(t)+` "value"`)
	}
	if p.text(t) == "[" {
		p.failAt(t, codeSyntax, "attributes cannot be indexed with [ ]", `write attributes."key" = "value"`)
	}
	p.fail(a.start, a.end, codeMissingKey, "attributes must be followed by :KEY or .KEY",
		`attributes:KEY tests that an attribute is present; attributes.KEY = "value" compares its value`)
	return nil
}

// isKeyRunByte reports whether c continues a run of text the user probably
// meant as one key (so "iana.org/language_tag" is read whole and the hint
// can quote all of it).
func isKeyRunByte(c byte) bool {
	if isSpace(c) {
		return false
	}
	switch c {
	case '(', ')', ',', '=', '!', ':', '"', '\'', '`', '<', '>', '&', '|':
		return false
	}
	return true
}

// key reads the key after attributes: or attributes. (sep). The lexer's
// word rules do not apply here: bare keys may hold hyphens and start with a
// digit.
func (p *parser) key(sep token) Key {
	p.skipSpace()
	start := p.pos
	if start < len(p.src) {
		if c := p.src[start]; c == '"' || c == '\'' || c == '`' {
			t := p.next()
			p.checkQuote(t)
			return Key{Name: t.val, Loc: Span{t.start, t.end}}
		}
	}
	i := start
	for i < len(p.src) && isKeyByte(p.src[i]) {
		i++
	}
	j := i
	for j < len(p.src) && isKeyRunByte(p.src[j]) {
		j++
	}
	run := p.src[start:j]
	prefix := "attributes" + p.text(sep)
	if j == start {
		p.fail(sep.start, sep.end, codeMissingKey, "a key must follow "+strconv.Quote(prefix),
			`e.g. `+prefix+`name, or `+prefix+`"iana.org/language_tag" for keys with other characters`)
	}
	if j > i {
		bad, _ := utf8.DecodeRuneInString(p.src[i:])
		switch {
		case strings.ContainsRune(run, '\\'):
			p.errorAt(start, j, codeEscapeOutside, "escapes only work inside a string literal",
				"quote the key: "+prefix+`"`+run+`"`)
		case sep.kind == tDot && j < len(p.src) && p.src[j] == '(' && strings.Contains(run, "."):
			p.fail(start, j, codeUnknownFunction, "method calls are not part of the filter language",
				`to test the start of a value write hasPrefix(attributes.KEY, "prefix")`)
		case bad == '.':
			p.errorAt(start, j, codeKeyQuotes, "keys with '.' must be quoted", "write "+prefix+Quote(run))
		default:
			p.errorAt(start, j, codeKeyQuotes, "keys with "+strconv.QuoteRune(bad)+" must be quoted; bare keys hold only ASCII letters, digits, '-' and '_'",
				"write "+prefix+Quote(run))
		}
	}
	p.pos = j
	p.peeked = false
	return Key{Name: run, Loc: Span{start, j}}
}

// checkQuote reports a string literal written with a quote other than ".
func (p *parser) checkQuote(t token) {
	if t.quote == '"' {
		return
	}
	what := "single quotes"
	if t.quote == '`' {
		what = "backticks"
	}
	p.errorAt(t.start, t.end, codeQuote, "string literals use double quotes, not "+what, "write "+Quote(t.val))
}

// comparison reads OP "VALUE" after attributes.KEY (a is the attributes
// token).
func (p *parser) comparison(a token, k Key) Expr {
	t := p.peek()
	text := p.text(t)
	op := Equal
	switch {
	case t.kind == tEq:
	case t.kind == tNe:
		op = NotEqual
	case t.kind == tOther && text == "==":
		p.errorAt(t.start, t.end, codeOperator, "== is not a filter operator: write =", "")
	case t.kind == tOther && text == "<>":
		p.errorAt(t.start, t.end, codeOperator, "<> is not a filter operator: write !=", "")
		op = NotEqual
	case t.kind == tOther && strings.ContainsAny(text, "<>~"):
		p.failAt(t, codeOperator, text+" is not a filter operator: values are only compared with = and !=",
			`for a test on the start of the value write hasPrefix(attributes.`+FormatKey(k.Name)+`, "prefix")`)
	case t.kind == tColon:
		p.failAt(t, codeOperator, "attributes.KEY cannot be followed by ':'",
			"write attributes."+FormatKey(k.Name)+` = "value" to compare, or attributes:`+FormatKey(k.Name)+" to test presence")
	case t.kind == tWord && strings.EqualFold(text, "in"):
		p.failAt(t, codeOperator, "IN is not a filter operator",
			"list the values: attributes."+FormatKey(k.Name)+` = "a" OR attributes.`+FormatKey(k.Name)+` = "b"`)
	default:
		p.fail(a.start, k.Loc.End, codeMissingComparison, "attributes."+FormatKey(k.Name)+" must be compared with a value",
			"write attributes."+FormatKey(k.Name)+` = "value", or attributes:`+FormatKey(k.Name)+" to test that it is present")
	}
	p.next()
	p.lastKey = k.Name
	v := p.value(t, "the value compared with "+compareText(text))
	return &Compare{Key: k, Op: op, Value: v, Loc: Span{a.start, v.Loc.End}}
}

// value reads the string literal after op; what names it for messages.
func (p *parser) value(op token, what string) Literal {
	t := p.peek()
	switch t.kind {
	case tString:
		p.next()
		p.checkQuote(t)
		return Literal{Value: t.val, Loc: Span{t.start, t.end}}
	case tWord:
		p.next()
		text := p.text(t)
		if text == "attributes" {
			if s := p.peek(); s.kind == tDot || s.kind == tColon {
				p.next()
				k := p.key(s)
				p.errorAt(t.start, k.Loc.End, codeValueNotString, what+" must be a string literal, not another attribute",
					"attributes can only be compared with literals")
				return Literal{Loc: Span{t.start, k.Loc.End}}
			}
		}
		p.errorAt(t.start, t.end, codeValueNotString, what+" must be a string literal", "write "+Quote(text))
		return Literal{Value: text, Loc: Span{t.start, t.end}}
	case tMinus:
		p.failAt(t, codeValueNotString, what+" must be a string literal", "values are text: put the number in double quotes")
	case tEOF:
		p.failAt(op, codeValueNotString, what+" is missing", `write a string literal, e.g. "value"`)
	}
	p.failAt(t, codeValueNotString, what+" must be a string literal, not "+p.describe(t), "")
	return Literal{}
}

// hasPrefix reads hasPrefix(attributes.KEY, "PREFIX").
func (p *parser) hasPrefix() Expr {
	h := p.next()
	if text := p.text(h); text != "hasPrefix" {
		p.errorAt(h.start, h.end, codeCase, "write hasPrefix, not "+text, "")
	}
	const form = `hasPrefix(attributes.KEY, "prefix")`
	if t := p.peek(); t.kind != tLParen {
		p.fail(h.start, h.end, codeHasPrefixArgs, "hasPrefix must be called with its arguments", "write "+form)
	}
	p.next()
	a := p.peek()
	var dot token
	switch {
	case a.kind == tWord && p.text(a) == "attributes":
		p.next()
		dot = p.peek()
		if dot.kind == tColon {
			p.failAt(dot, codeHasPrefixArgs, "hasPrefix takes attributes.KEY, not attributes:KEY", "write "+form)
		}
		if dot.kind != tDot {
			p.fail(a.start, a.end, codeMissingKey, "attributes must be followed by .KEY here", "write "+form)
		}
		p.next()
	case a.kind == tString:
		p.failAt(a, codeHasPrefixArgs, "the first argument of hasPrefix is the attribute, the second the prefix", "write "+form)
	case a.kind == tRParen:
		p.failAt(a, codeHasPrefixArgs, "hasPrefix takes two arguments", "write "+form)
	default:
		p.failAt(a, codeHasPrefixArgs, "the first argument of hasPrefix must be attributes.KEY", "write "+form)
	}
	k := p.key(dot)
	c := p.peek()
	if c.kind != tComma {
		if c.kind == tRParen {
			p.failAt(c, codeHasPrefixArgs, "hasPrefix takes two arguments: the attribute and the prefix", "write "+form)
		}
		p.failAt(c, codeHasPrefixArgs, "expected , after the attribute, found "+p.describe(c), "write "+form)
	}
	p.next()
	v := p.value(c, "the prefix")
	e := p.peek()
	if e.kind == tComma {
		p.failAt(e, codeHasPrefixArgs, "hasPrefix takes exactly two arguments", "write "+form)
	}
	if e.kind != tRParen {
		if e.kind == tEOF {
			p.failAt(h, codeParen, "hasPrefix( is never closed", "add )")
		}
		p.failAt(e, codeHasPrefixArgs, "expected ) after the prefix, found "+p.describe(e), "write "+form)
	}
	p.next()
	p.lastKey = k.Name
	return &Prefix{Key: k, Prefix: v, Loc: Span{h.start, e.end}}
}

// badWord reports a word that cannot start a condition; for a miscased
// attributes or hasPrefix it reports and reads on.
func (p *parser) badWord(t token) Expr {
	text := p.text(t)
	i := t.end
	for i < len(p.src) && isSpace(p.src[i]) {
		i++
	}
	call := i < len(p.src) && p.src[i] == '('
	switch {
	case strings.EqualFold(text, "attributes"):
		return p.attribute()
	case strings.EqualFold(text, "hasPrefix"):
		return p.hasPrefix()
	case text == "AND" || text == "OR" || strings.EqualFold(text, "and") || strings.EqualFold(text, "or"):
		op := strings.ToUpper(text)
		if p.hasAfter {
			p.failAt(t, codeMissingCondition, "a condition must follow "+p.text(p.after)+", not "+op, "")
		}
		p.failAt(t, codeMissingCondition, op+" needs a condition on each side", "")
	case call && text == "has":
		p.failAt(t, codeUnknownFunction, "has() is not part of the filter language", "write attributes:KEY to test that an attribute is present")
	case call:
		p.failAt(t, codeUnknownFunction, "unknown function "+quoteText(text)+"; hasPrefix is the only one",
			"there are no suffix, substring or regular-expression tests; hasPrefix(attributes.KEY, \"prefix\") tests the start of a value")
	}
	switch strings.ToLower(text) {
	case "attribute", "attr", "attrs", "labels", "label", "headers", "metadata":
		p.failAt(t, codeUnknownName, "unknown name "+quoteText(text)+"; message attributes are named attributes", `write attributes:KEY or attributes.KEY = "value"`)
	case "data", "message", "payload", "body":
		p.failAt(t, codeUnknownName, "the message data cannot be filtered, only its attributes", "publish what you need to filter on as an attribute")
	case "messageid", "message_id", "orderingkey", "ordering_key", "publishtime", "publish_time":
		p.failAt(t, codeUnknownName, "only attributes can be filtered, not "+text, "publish what you need to filter on as an attribute")
	case "true", "false":
		p.failAt(t, codeUnknownName, "the constant "+text+" is not a condition", "an empty filter delivers every message")
	}
	hint := `conditions start with attributes or hasPrefix`
	if ValidBareKey(text) {
		hint = "did you mean attributes:" + text + " or attributes." + text + ` = "value"?`
	}
	p.failAt(t, codeUnknownName, "unknown name "+quoteText(text), hint)
	return nil
}

// loneString reports a string literal where a condition should start:
// "com" = attributes.name, or ("net" OR "org").
func (p *parser) loneString(s token) {
	p.next()
	op := p.peek()
	if op.kind == tEq || op.kind == tNe {
		p.next()
		hint := "write attributes.KEY " + p.text(op) + " " + Quote(s.val)
		if a := p.peek(); a.kind == tWord && p.text(a) == "attributes" {
			p.next()
			if d := p.peek(); d.kind == tDot {
				p.next()
				k := p.key(d)
				hint = "write attributes." + FormatKey(k.Name) + " " + p.text(op) + " " + Quote(s.val)
			}
		}
		p.failAt(s, codeKeyFirst, "a comparison must start with the attribute, and the value must come second", hint)
	}
	key := "KEY"
	if p.lastKey != "" {
		key = FormatKey(p.lastKey)
	}
	p.failAt(s, codeLoneString, "a string literal alone is not a condition", "compare it with an attribute: attributes."+key+" = "+Quote(s.val))
}

// setSpan widens a node's span to the parentheses around it.
func setSpan(e Expr, s Span) {
	switch e := e.(type) {
	case *Has:
		e.Loc = s
	case *Compare:
		e.Loc = s
	case *Prefix:
		e.Loc = s
	case *Not:
		e.Loc = s
	case *Logic:
		e.Loc = s
	}
}

// lint adds the warnings and notes of a valid filter. negated says e sits
// under a NOT; chain holds the operands of the AND chain e belongs to.
func (p *parser) lint(e Expr, negated bool, chain []Expr) {
	if k, ok := KeyOf(e); ok && k.Name == "" {
		p.add(diag.Warning, k.Loc.Start, k.Loc.End, codeEmptyKey, "attribute keys are never empty, so no message has this attribute", "")
	}
	switch e := e.(type) {
	case *Not:
		p.lint(e.X, true, nil)
	case *Logic:
		var sub []Expr
		if e.Op == And {
			sub = e.X
		}
		for _, x := range e.X {
			p.lint(x, negated, sub)
		}
	case *Compare:
		// Under NOT the absent case flips, and a sibling that requires
		// the attribute settles it; otherwise say what != does with it.
		if e.Op == NotEqual && !negated && e.Key.Name != "" && !requires(chain, e.Key.Name) {
			k := FormatKey(e.Key.Name)
			p.add(diag.Info, e.Loc.Start, e.Loc.End, codeNotEqualAbsent,
				"this is also true for messages without a "+quoteText(e.Key.Name)+" attribute",
				"to require the attribute write attributes:"+k+" AND "+Format(e))
		}
	case *Prefix:
		if e.Prefix.Value == "" {
			p.add(diag.Info, e.Prefix.Loc.Start, e.Prefix.Loc.End, codeEmptyPrefix,
				"every value starts with the empty prefix, so this only tests that the attribute is present",
				"attributes:"+FormatKey(e.Key.Name)+" says the same")
		}
	}
}

// requires reports whether an operand of an AND chain holds only when the
// attribute key is present.
func requires(chain []Expr, key string) bool {
	for _, x := range chain {
		switch x := x.(type) {
		case *Has:
			if x.Key.Name == key {
				return true
			}
		case *Compare:
			if x.Op == Equal && x.Key.Name == key {
				return true
			}
		case *Prefix:
			if x.Key.Name == key {
				return true
			}
		}
	}
	return false
}
