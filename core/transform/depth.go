//go:build !noudf && !quickjs

package transform

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// How deeply the engine's parser and compiler recurse on a UDF's code,
// estimated by a flat scan before either runs. In WebAssembly their
// recursion uses the host's call stack (V8's: the same depth in workerd as
// in Node, about half of it in a Chromium worker, where the page runs the
// core), and a stack overflow there ends the Go instance: no recover, no
// finding. Brackets are not the only way down. goja's parser
// recurses on every link of a chain of assignments (a = a = ...),
// conditionals, arrows, prefix operators (!!!x), relational operators
// (it parses a < b < c from the right), `**`, and on statements whose body is
// one statement (if (x) if (y) ...); its compiler recurses on left-leaning
// chains too (a.b.c..., f()()...). In Node 20 (the host closest to workerd
// that a test can drive), the parser or compiler overflowed at about
// 1,100 nested brackets, 2,200 chained assignments, 2,500 arrows or
// else-ifs, 4,300 calls in a chain, 5,700 conditionals, 9,000 member
// accesses and 9,600 `!` (in a Chromium worker about 550 brackets, 1,100
// assignments, 4,000 `!`; TestDeepShapes and FuzzDepth hold the scan). A
// bracket level costs 8 units here, and every other construct at least
// its measured share of one level (rounded up), so the bounds,
// limits.UDFNesting and UDFNestingChecked levels, stay below each of those
// (about 2.75 and 2 times in a Chromium worker).
//
// The scan counts, in each open bracket, the units of the operators and
// statement keywords since the last point where the parser has returned
// from all of them: a ";" or a block's "}" ends a statement (unless an
// else, while, catch or finally continues it), a "," ends an operand of a
// list, and a line break ends a statement where JavaScript inserts a
// semicolon (after a complete operand, before a token that cannot continue
// it). goja's parser recovers from a syntax error by taking the token it
// finds for the one it expected (a ";" for the ":" of a conditional), so no
// count is cleared while a "?" waits for its ":", and a ";" clears only in
// a bracket that holds statements. Strings, comments, regular expressions
// and template literals are read as JavaScript reads them (a template's
// placeholders are scanned, and count as brackets).
const (
	unitBracket  = 8 // ( [ { and a template's ${
	unitAssign   = 4 // = += ... ??= and =>
	unitPrefix   = 4 // ! ~ + - ++ -- typeof void delete await new yield ...
	unitBinary   = 3 // binary and relational operators, **, a call's (
	unitMember   = 1 // . and an index's [
	unitOptional = 2 // ?.
	unitCond     = 2 // ?
	unitStmt     = 3 // if else while for with do, a label's or a case's :, class extends
)

// depthFrame is one open bracket of the scan (or the code's top level).
type depthFrame struct {
	open       byte // 0 (top level), '(', '[', '{', or '$' (a template's placeholder)
	statements bool // it holds statements: the top level, a block, a function's or class's body
	endsStmt   bool // a '{' whose '}' ends the statement it belongs to (a block, a declaration's body)
	header     bool // a '(' of if, while, for, with, switch, catch, or a function's parameters
	base       int  // the units of the frames around it, its own bracket's included
	expr, stmt int  // units since the last point that clears them (see depthUnits)
	cond       int  // '?' still waiting for their ':'
	inExpr     bool // an expression has begun since the statement's start
	body       bool // after function or class: the next '{' is its body
	arrow      bool // the last token was =>
	keyword    string
}

func (f *depthFrame) depth() int { return f.base + f.expr + f.stmt }

// nesting returns the offset where the code's estimated depth first passes
// max levels (see the comment above unitBracket), or -1.
func nesting(code string, max int) int {
	s := depthScan{code: code, limit: max * unitBracket}
	return s.run()
}

type depthScan struct {
	code    string
	limit   int
	frames  []depthFrame
	prevEnd bool // the last token completes an operand: "/" divides, a line break may end the statement
	nl      bool // a line break since the last token
	dot     bool // the last token was . or ?. (a word after it is a property's name)
	paren   bool // the last token was a ")" that closed no statement's header
	at      int  // where the limit was passed, or -1
}

func (s *depthScan) top() *depthFrame { return &s.frames[len(s.frames)-1] }

// add counts units at the offset i, in the statement's count or the
// expression's.
func (s *depthScan) add(i, units int, stmt bool) {
	f := s.top()
	if stmt {
		f.stmt += units
	} else {
		f.expr += units
	}
	if s.at < 0 && f.depth() > s.limit {
		s.at = i
	}
}

func (s *depthScan) push(i int, open byte, units int) {
	f := s.top()
	n := depthFrame{open: open, base: f.depth() + units}
	s.frames = append(s.frames, n)
	if s.at < 0 && n.base > s.limit {
		s.at = i
	}
}

// continues reports whether the word at i continues the statement before
// it: an else, a do's while, a try's catch or finally.
func (s *depthScan) continues(i int) bool {
	i, _ = skipBlank(s.code, i)
	w := s.code[i:wordEnd(s.code, i)]
	return w == "else" || w == "while" || w == "catch" || w == "finally"
}

// endStatement clears the counts of the frame f at a statement's end
// (i is where the next token starts).
func (s *depthScan) endStatement(f *depthFrame, i int) {
	f.expr = 0
	if !s.continues(i) {
		f.stmt = 0
	}
	f.inExpr, f.keyword, f.body, f.arrow = false, "", false, false
}

func (s *depthScan) run() int {
	s.at = -1
	s.frames = append(s.frames[:0], depthFrame{statements: true})
	code := s.code
	for i := 0; i < len(code) && s.at < 0; {
		j, nl := skipBlank(code, i)
		if j > i {
			i, s.nl = j, s.nl || nl
			continue
		}
		c := code[i]
		f := s.top()
		// A line break after a complete operand, before a token that
		// cannot continue it, ends the statement.
		if s.nl && s.prevEnd && f.statements && f.cond == 0 && !f.body && startsStatement(code, i) {
			s.endStatement(f, i)
		}
		s.nl = false
		dot, paren := s.dot, s.paren
		s.dot, s.paren = false, false
		switch {
		case isIdentStart(c):
			e := wordEnd(code, i)
			if e == i { // a character no name holds (goja refuses it)
				_, n := utf8.DecodeRuneInString(code[i:])
				i += n
				continue
			}
			if dot {
				s.operand() // a property's name, keyword or not
			} else {
				s.word(i, code[i:e])
			}
			i = e
			continue
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(code) && code[i+1] >= '0' && code[i+1] <= '9':
			i = numberEnd(code, i)
			s.operand()
			continue
		case c == '"' || c == '\'':
			i = stringEnd(code, i)
			s.operand()
			continue
		case c == '`':
			if s.prevEnd { // a tagged template: a call
				s.add(i, unitBinary, false)
			}
			i = s.template(i + 1)
			continue
		case c == '/' && !s.prevEnd:
			// goja's reading of a regular expression recurses on its
			// groups (it overflowed between 5,000 and 20,000): a group
			// counts as a member access.
			e, groups := regexpEnd(code, i)
			if s.at < 0 && f.depth()+groups*unitMember > s.limit {
				s.at = i
			}
			i = e
			s.operand()
			continue
		}
		i = s.punct(i, paren)
	}
	return s.at
}

// operand notes a token that completes an operand.
func (s *depthScan) operand() {
	f := s.top()
	f.inExpr, f.arrow, f.keyword = !f.body || f.inExpr, false, ""
	s.prevEnd = true
}

func (s *depthScan) word(i int, w string) {
	f := s.top()
	s.prevEnd = false
	f.arrow = false
	switch w {
	case "if", "while", "for", "with", "do", "else":
		s.add(i, unitStmt, true)
		f.keyword, f.inExpr = w, false
		return
	case "switch", "catch":
		f.keyword, f.inExpr = w, false
		return
	case "try", "finally", "var", "let", "const":
		f.keyword, f.inExpr = "", false
		return
	case "function":
		f.body, f.keyword = true, ""
		return
	case "class", "extends":
		s.add(i, unitStmt, false)
		f.body, f.keyword = true, ""
		return
	case "typeof", "void", "delete", "await", "new", "yield":
		s.add(i, unitPrefix, false)
	case "in", "instanceof":
		s.add(i, unitBinary, false)
	case "return", "throw", "case", "default", "break", "continue", "debugger", "import", "export":
	case "this", "super", "null", "true", "false":
		s.operand()
		return
	default:
		if f.body && !f.inExpr {
			return // a declaration's name
		}
		s.operand()
		return
	}
	f.keyword = ""
	if !f.body {
		f.inExpr = true
	}
}

// template scans a template literal from just after a backquote or a
// placeholder's "}", and returns where the scan goes on: after its closing
// backquote, or after a "${", with a frame pushed for the placeholder.
func (s *depthScan) template(i int) int {
	code := s.code
	for ; i < len(code); i++ {
		switch code[i] {
		case '\\':
			i++
		case '`':
			s.operand()
			return i + 1
		case '$':
			if i+1 < len(code) && code[i+1] == '{' {
				s.push(i, '$', unitBracket+1)
				s.prevEnd = false
				return i + 2
			}
		}
	}
	return len(code)
}

// punct reads the punctuator at i; paren says the token before it was a
// ")" that closed no statement's header.
func (s *depthScan) punct(i int, paren bool) int {
	code := s.code
	f := s.top()
	c := code[i]
	wasEnd := s.prevEnd
	s.prevEnd = false
	arrow, inExpr := f.arrow, f.inExpr
	f.arrow = false
	if !f.body {
		f.inExpr = true
	}
	switch c {
	case '(':
		if wasEnd {
			s.add(i, unitBinary, false)
		}
		header := f.body || f.keyword == "if" || f.keyword == "while" || f.keyword == "for" ||
			f.keyword == "with" || f.keyword == "switch" || f.keyword == "catch"
		f.keyword = ""
		s.push(i, '(', unitBracket)
		s.top().header = header
		return i + 1
	case '[':
		if wasEnd {
			s.add(i, unitMember, false)
		}
		f.keyword = ""
		s.push(i, '[', unitBracket)
		return i + 1
	case '{':
		var statements, endsStmt bool
		switch {
		case f.body: // a function's or class's body
			statements, endsStmt = true, !f.inExpr
		case arrow, paren: // an arrow's body, a method's (m() {...})
			statements = true
		case !inExpr || f.keyword != "": // a block (the statement's start cleared inExpr)
			statements, endsStmt = true, true
		}
		f.body, f.keyword = false, ""
		if statements && !endsStmt {
			f.inExpr = true
		}
		s.push(i, '{', unitBracket)
		n := s.top()
		n.statements, n.endsStmt = statements, endsStmt
		return i + 1
	case ')', ']', '}':
		if len(s.frames) == 1 || !matches(f.open, c) {
			return i + 1 // an unmatched closer: the frames stay open (counted)
		}
		closed := *f
		s.frames = s.frames[:len(s.frames)-1]
		p := s.top()
		switch {
		case closed.open == '$':
			return s.template(i + 1)
		case closed.open == '(' && closed.header:
			if !p.body {
				p.inExpr = false // a statement's body follows
			}
		case closed.open == '{' && closed.endsStmt:
			if p.cond == 0 {
				s.endStatement(p, i+1)
			}
		default:
			s.prevEnd = true
			s.paren = closed.open == '('
		}
		return i + 1
	case ';':
		switch {
		case f.cond > 0:
		case f.statements:
			s.endStatement(f, i+1)
		case f.open == '(':
			f.expr = 0
		}
		return i + 1
	case ',':
		if f.cond == 0 {
			f.expr = 0
		}
		return i + 1
	case '?':
		if strings.HasPrefix(code[i:], "??=") {
			s.add(i, unitAssign, false)
			return i + 3
		}
		if strings.HasPrefix(code[i:], "??") {
			s.add(i, unitBinary, false)
			return i + 2
		}
		if strings.HasPrefix(code[i:], "?.") && !(i+2 < len(code) && code[i+2] >= '0' && code[i+2] <= '9') {
			s.add(i, unitOptional, false)
			s.dot = true
			return i + 2
		}
		f.cond++
		s.add(i, unitCond, false)
		return i + 1
	case ':':
		if f.cond > 0 {
			f.cond--
			s.add(i, unitStmt, false)
			return i + 1
		}
		s.add(i, unitStmt, f.statements)
		if f.statements {
			f.inExpr = false // a label's or a case's statement follows
		}
		return i + 1
	case '.':
		if strings.HasPrefix(code[i:], "...") {
			s.add(i, unitPrefix, false)
			return i + 3
		}
		s.add(i, unitMember, false)
		s.dot = true
		return i + 1
	case '=':
		if strings.HasPrefix(code[i:], "=>") {
			s.add(i, unitAssign, false)
			f.arrow = true
			return i + 2
		}
		if strings.HasPrefix(code[i:], "===") {
			s.add(i, unitBinary, false)
			return i + 3
		}
		if strings.HasPrefix(code[i:], "==") {
			s.add(i, unitBinary, false)
			return i + 2
		}
		s.add(i, unitAssign, false)
		return i + 1
	case '+', '-':
		if i+1 < len(code) && code[i+1] == c { // ++ or --
			if wasEnd && !s.nlBefore(i) {
				s.prevEnd = true // postfix
			} else {
				s.add(i, unitPrefix, false)
			}
			return i + 2
		}
		if i+1 < len(code) && code[i+1] == '=' {
			s.add(i, unitAssign, false)
			return i + 2
		}
		if wasEnd {
			s.add(i, unitBinary, false)
		} else {
			s.add(i, unitPrefix, false)
		}
		return i + 1
	case '!', '~':
		if c == '!' && strings.HasPrefix(code[i:], "!=") {
			s.add(i, unitBinary, false)
			if strings.HasPrefix(code[i:], "!==") {
				return i + 3
			}
			return i + 2
		}
		s.add(i, unitPrefix, false)
		return i + 1
	case '*', '/', '%', '<', '>', '&', '|', '^':
		// The longest operator here, and whether it assigns.
		n := 1
		for n < 4 && i+n < len(code) && code[i+n] == c && (c == '*' || c == '<' || c == '>' || c == '&' || c == '|') {
			n++
		}
		if i+n < len(code) && code[i+n] == '=' {
			if n > 1 || c != '<' && c != '>' { // <= and >= compare
				s.add(i, unitAssign, false)
				return i + n + 1
			}
			n++
		}
		s.add(i, unitBinary, false)
		return i + n
	case '#', '@', '\\':
		s.operand()
		return wordEnd(code, i+1)
	}
	return i + 1
}

func matches(open, close byte) bool {
	switch close {
	case ')':
		return open == '('
	case ']':
		return open == '['
	}
	return open == '{' || open == '$'
}

// nlBefore reports whether a line break comes between the token before i
// and i (the scan's flag is cleared as each token starts).
func (s *depthScan) nlBefore(i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch s.code[j] {
		case '\n', '\r':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return false
}

// skipBlank skips spaces, line breaks and comments from i, and reports
// whether it met a line break.
func skipBlank(code string, i int) (int, bool) {
	nl := false
	for i < len(code) {
		switch c := code[i]; {
		case c == '\n' || c == '\r':
			nl = true
			i++
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			i++
		case strings.HasPrefix(code[i:], "//"):
			j := strings.IndexAny(code[i:], "\n\r")
			if j < 0 {
				return len(code), nl
			}
			i += j
		case strings.HasPrefix(code[i:], "/*"):
			j := strings.Index(code[i+2:], "*/")
			if j < 0 {
				return len(code), nl
			}
			if strings.ContainsAny(code[i:i+2+j], "\n\r\u2028\u2029") {
				nl = true
			}
			i += j + 4
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(code[i:])
			if !isSpace(r) {
				return i, nl
			}
			nl = nl || r == '\u2028' || r == '\u2029'
			i += n
		default:
			return i, nl
		}
	}
	return i, nl
}

// isSpace reports whether JavaScript reads r as white space or a line
// break.
func isSpace(r rune) bool {
	return r == '\ufeff' || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Zs, r)
}

// startsStatement reports whether the token at i cannot continue an
// operand before it, so that a line break before it ends the statement.
func startsStatement(code string, i int) bool {
	c := code[i]
	switch {
	case isIdentStart(c):
		switch code[i:wordEnd(code, i)] {
		case "in", "instanceof", "of", "else", "while", "catch", "finally":
			return false
		}
		return true
	case c >= '0' && c <= '9', c == '"', c == '\'', c == '!', c == '~', c == '{':
		return true
	case c == '+' || c == '-':
		return i+1 < len(code) && code[i+1] == c // ++ and -- start the next statement
	}
	return false
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= 0x80
}

// wordEnd returns where the name or keyword at i ends: i when no name
// starts there (identPartLen reads each part).
func wordEnd(code string, i int) int {
	for i < len(code) {
		n := identPartLen(code, i)
		if n == 0 {
			break
		}
		i += n
	}
	return i
}

// numberEnd returns where the number at i ends, an exponent's sign
// included.
func numberEnd(code string, i int) int {
	for i < len(code) {
		c := code[i]
		switch {
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.':
			i++
		case (c == '+' || c == '-') && (code[i-1] == 'e' || code[i-1] == 'E'):
			i++
		default:
			return i
		}
	}
	return i
}

// stringEnd returns the offset after the string literal at i; a string
// ends at an unescaped line break too (where JavaScript reports it).
func stringEnd(code string, i int) int {
	q := code[i]
	for i++; i < len(code); i++ {
		switch code[i] {
		case '\\':
			if i+2 < len(code) && code[i+1] == '\r' && code[i+2] == '\n' {
				i++
			}
			i++
		case q:
			return i + 1
		case '\n', '\r':
			return i
		}
	}
	return len(code)
}

// regexpEnd returns the offset after the regular expression literal at i
// (its flags included), and how deeply its groups nest; one ends at a line
// break too.
func regexpEnd(code string, i int) (int, int) {
	class := false
	depth, most := 0, 0
	for i++; i < len(code); i++ {
		switch code[i] {
		case '\\':
			i++
		case '[':
			class = true
		case ']':
			class = false
		case '(':
			if !class {
				depth++
				most = max(most, depth)
			}
		case ')':
			if !class && depth > 0 {
				depth--
			}
		case '/':
			if !class {
				return wordEnd(code, i+1), most
			}
		case '\n', '\r':
			return i, most
		}
	}
	return len(code), most
}
