//go:build !noudf && !quickjs

package transform

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// goja runs a JavaScript regular expression on Go's regexp (RE2: linear
// time) when it can translate the pattern, and otherwise on regexp2, a
// backtracking engine whose only bound is a time-out kept by a clock
// goroutine. js/wasm never runs that goroutine while a match holds the
// thread, so in the browser and the worker a backtracking match can run
// for ever. Even a pattern RE2 can run goes to regexp2 on some calls (read
// in goja's regexp.go): a search that starts past the text's beginning
// (exec or test of a g or y expression with lastIndex > 0, every match
// after the first of matchAll), and a search for every match (match and
// replace with g, split) in text with a character outside ASCII, unless the
// expression has the u flag and the text is well-formed UTF-16.
//
// The engine therefore refuses, the same way on every entry:
//   - a pattern only regexp2 can run (lookahead, lookbehind, backreferences,
//     a repeat count above 1000, ...): at its literal in the code, and when
//     an expression made at run time (new RegExp(text)) is used;
//   - a call that goja would hand to regexp2 when the work it could do
//     there is not bounded: a quantifier over a group that holds another
//     quantifier or an alternation (the shapes that backtrack
//     exponentially), or more paths than limits.UDFBacktrackPaths for the
//     text's length.

// rxPattern is what the engine knows of one pattern and its flags.
type rxPattern struct {
	// backtrack says why goja can run the pattern only on regexp2; "" when
	// RE2 can run it (or when goja rejects it as invalid: goja's own
	// SyntaxError says so then).
	backtrack string
	// nested is the first quantifier that repeats a group holding another
	// quantifier or an alternation, "" when there is none.
	nested string
	// quantifiers counts the pattern's quantifiers (*, +, ?, {n,m}).
	quantifiers int
	// branches is the product of the alternatives of every alternation.
	branches float64
	// The flags the route of a call depends on.
	unicode, global, sticky bool
	// fold and multiline are the i and m flags: RE2's case folding and
	// line ends are the spec's only in ASCII text (runeText).
	fold, multiline bool
	// re is the Go regexp goja compiles the pattern to when RE2 can run
	// it (nil otherwise), for guards that count matches without building
	// them.
	re *regexp.Regexp
	// nonEmpty says that re never matches the empty string, and named
	// that it has a named group (replaceFast takes neither case).
	nonEmpty, named bool
	// groups is how many groups capture, at most (each a string of exec's
	// result; counted from the source's parentheses where RE2 cannot run
	// the pattern).
	groups int
	// namedGroups is how many of them have a name (from the source's "(?<"
	// where RE2 cannot run the pattern).
	namedGroups int
	// emptyRepeated says that a group that may match the empty string is
	// repeated (by *, +, ? or {n,m}): RE2 then reports it matched empty
	// where the spec, which refuses an empty repetition, leaves it
	// undefined, which a replacer function sees (replaceFast passes those
	// to goja's replace).
	emptyRepeated bool
}

// analyse decides, as goja's compileRegexp does, which engine runs a
// pattern, and measures its shape for the backtracking bound.
func analyse(src, flags string) rxPattern {
	p := rxPattern{unicode: strings.ContainsRune(flags, 'u'), global: strings.ContainsRune(flags, 'g'), sticky: strings.ContainsRune(flags, 'y'),
		fold: strings.ContainsRune(flags, 'i'), multiline: strings.ContainsRune(flags, 'm')}
	p.nested, p.quantifiers, p.branches = shape(src)
	p.groups, p.namedGroups = strings.Count(src, "("), strings.Count(src, "(?<")
	conv := src
	if p.unicode {
		conv = joinSurrogateEscapes(src)
	} else {
		conv = splitAstral(src)
	}
	re2, err := parser.TransformRegExp(conv, strings.ContainsRune(flags, 's'), p.unicode)
	if err != nil {
		var inc parser.RegexpErrorIncompatible
		if errors.As(err, &inc) {
			p.backtrack = incompatibility(err.Error())
		}
		return p
	}
	var f string
	for _, c := range "msi" {
		if strings.ContainsRune(flags, c) {
			f += string(c)
		}
	}
	if f != "" {
		re2 = "(?" + f + ":" + re2 + ")"
	}
	re, err := regexp.Compile(re2)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) && se.Code == syntax.ErrInvalidRepeatSize {
			p.backtrack = "a repeat count above 1000"
		}
		return p
	}
	p.re, p.groups = re, re.NumSubexp()
	if sre, err := syntax.Parse(re2, syntax.Perl); err == nil {
		p.nonEmpty = minLength(sre.Simplify()) > 0
		p.emptyRepeated = emptyRepeated(sre, false)
	}
	p.namedGroups = 0
	for _, name := range re.SubexpNames() {
		if name != "" {
			p.named = true
			p.namedGroups++
		}
	}
	return p
}

// emptyRepeated says whether re has a group that may match the empty
// string inside a repetition (repeated says whether re itself is in one).
func emptyRepeated(re *syntax.Regexp, repeated bool) bool {
	switch re.Op {
	case syntax.OpCapture:
		if repeated && minLength(re.Sub[0]) == 0 {
			return true
		}
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		repeated = true
	}
	for _, sub := range re.Sub {
		if emptyRepeated(sub, repeated) {
			return true
		}
	}
	return false
}

// minLength is the fewest characters re matches; 0 for what may match
// the empty string, and for what matches nothing.
func minLength(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLength(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLength(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLength(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := minLength(sub); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0
}

// allLinear says whether goja runs a search for every match of p in s on
// Go's regexp when it can run p there at all: in ASCII text, or in
// well-formed UTF-16 with the u flag.
func (p rxPattern) allLinear(s goja.String) bool {
	_, ascii, wellFormed, _ := texts(s)
	return ascii || p.unicode && wellFormed
}

// countMatches counts the matches a search for every match of p in s
// finds (match and replace with the g flag), stopping at most: it runs the
// search goja runs, on Go's regexp, when goja runs it there (ASCII text, or
// well-formed UTF-16 with the u flag), so the count is goja's own, but
// without building a value per match, and in time up to the most-th match
// rather than the text's end. ok is false when goja would run the search on
// regexp2, which this does not reproduce.
func (p rxPattern) countMatches(s goja.String, most int) (count int, ok bool) {
	if p.re == nil || !p.allLinear(s) {
		return 0, false
	}
	// In well-formed text, offsets in UTF-8 and in UTF-16 differ but the
	// matches are the same ones: goja maps the offsets back afterwards.
	found := p.re.FindAllStringIndex(s.String(), most)
	if p.sticky {
		// As goja does: a sticky search stops at the first match that does
		// not start where the previous one ended.
		pos := 0
		for i, m := range found {
			if m[0] != pos {
				return i, true
			}
			pos = m[1]
		}
	}
	return len(found), true
}

// runeText is s in UTF-8 when RE2's matches of p there, rune by rune, are
// the spec's in s's UTF-16: ASCII text; text outside ASCII with no
// surrogate (each character one code unit and one rune); or, with the u
// flag, well-formed UTF-16 (the spec then reads code points, as RE2 reads
// runes). Not outside ASCII with the i or m flag: RE2 folds 'ſ' to 's',
// which the spec's case-insensitive match without u does not, and its
// line ends are not U+2028 and U+2029.
func (p rxPattern) runeText(s goja.String) (string, bool) {
	if asciiString(s) {
		return s.String(), true
	}
	if p.fold || p.multiline {
		return "", false
	}
	if _, _, wellFormed, surrogates := texts(s); surrogates && !(p.unicode && wellFormed) {
		return "", false
	}
	return s.String(), true
}

// incompatibility words goja's reason for sending a pattern to regexp2.
func incompatibility(msg string) string {
	switch {
	case strings.Contains(msg, "lookahead"):
		return "a lookahead ((?= or (?!)"
	case strings.Contains(msg, "lookbehind"):
		return "a lookbehind ((?<= or (?<!)"
	case strings.Contains(msg, "backreference"), strings.Contains(msg, "back-reference"):
		return `a backreference (\1 or \k<name>)`
	case strings.Contains(msg, "S in class"):
		return `\S inside a character class (for any character, [^] or the s flag with . run linearly)`
	case strings.Contains(msg, "group name"):
		return "a group name Go's regexp cannot take"
	}
	return "a construct Go's regexp cannot run (" + msg + ")"
}

// splitAstral writes each character outside the Basic Multilingual Plane
// as its two UTF-16 surrogate escapes, the form a pattern without the u
// flag means (goja does the same before choosing the engine, with the same
// doubling of a backslash that escaped the character).
func splitAstral(s string) string {
	var b strings.Builder
	prev := rune(0)
	last := 0
	for i, r := range s {
		if r > 0xFFFF {
			b.WriteString(s[last:i])
			if prev == '\\' {
				b.WriteByte('\\')
			}
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
			last = i + utf8.RuneLen(r)
		}
		prev = r
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// joinSurrogateEscapes turns a pair of \uXXXX escapes that form one
// surrogate pair into the character, as a pattern with the u flag means it.
func joinSurrogateEscapes(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+12 <= len(s); {
		if s[i] != '\\' {
			i++
			continue
		}
		if s[i+1] == 'u' && s[i+6] == '\\' && s[i+7] == 'u' {
			hi, ok1 := hex4(s[i+2 : i+6])
			lo, ok2 := hex4(s[i+8 : i+12])
			if ok1 && ok2 && utf16.IsSurrogate(rune(hi)) && hi < 0xDC00 && lo >= 0xDC00 && lo <= 0xDFFF {
				b.WriteString(s[last:i])
				b.WriteRune(utf16.DecodeRune(rune(hi), rune(lo)))
				i += 12
				last = i
				continue
			}
		}
		i += 2 // an escape: the next byte cannot start another
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func hex4(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			n = n*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			n = n*16 + int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			n = n*16 + int(c-'A'+10)
		default:
			return 0, false
		}
	}
	return n, true
}

// shape scans a JavaScript pattern for the bound on a backtracking match:
// the first quantifier over a group that holds a quantifier or an
// alternation, the number of quantifiers, and the product of the
// alternatives. It errs towards more: a brace that does not make a repeat
// is counted as one.
func shape(src string) (nested string, quantifiers int, branches float64) {
	type group struct {
		start    int
		quantAlt bool // holds a quantifier or an alternation
		alts     int
	}
	branches = 1
	stack := []group{{start: -1, alts: 1}}
	closed := -1         // the offset of the ')' just before, -1 if the last atom was not a group
	closedInner := false // that group held a quantifier or an alternation
	closedAt := 0
	quant := func(i, n int) {
		quantifiers++
		stack[len(stack)-1].quantAlt = true
		if closed >= 0 && closedInner && nested == "" {
			nested = src[closedAt : i+n]
		}
		closed = -1
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '\\':
			i++
			closed = -1
		case '[':
			for i++; i < len(src) && src[i] != ']'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			closed = -1
		case '(':
			stack = append(stack, group{start: i, alts: 1})
			closed = -1
			// Skip a group's kind ((?:, (?=, (?<=, (?<name>): its ? is no
			// quantifier.
			if i+1 < len(src) && src[i+1] == '?' {
				i++
				if i+1 < len(src) && src[i+1] == '<' {
					i++
					if i+1 < len(src) && src[i+1] != '=' && src[i+1] != '!' {
						if j := strings.IndexByte(src[i:], '>'); j > 0 {
							i += j
						}
					} else {
						i++
					}
				} else if i+1 < len(src) {
					i++
				}
			}
		case ')':
			if len(stack) == 1 {
				closed = -1
				continue
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			branches *= float64(g.alts)
			if g.quantAlt {
				stack[len(stack)-1].quantAlt = true
			}
			closed, closedInner, closedAt = i, g.quantAlt, g.start
		case '|':
			stack[len(stack)-1].alts++
			stack[len(stack)-1].quantAlt = true
			closed = -1
		case '*', '+', '?':
			if c == '?' && i > 0 && strings.IndexByte("*+?}", src[i-1]) >= 0 && (i < 2 || src[i-2] != '\\') {
				continue // a lazy quantifier's mark
			}
			quant(i, 1)
		case '{':
			j := i + 1
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == ',') {
				j++
			}
			if j > i+1 && j < len(src) && src[j] == '}' {
				quant(i, j-i+1)
				i = j
				continue
			}
			closed = -1
		default:
			closed = -1
		}
	}
	branches *= float64(stack[0].alts)
	return nested, quantifiers, branches
}

// paths bounds the number of ways a backtracking engine can try the
// pattern on a text of n characters: at each of the n+1 starts, each
// quantifier can take from 0 to n repeats, times the alternatives.
func (p rxPattern) paths(n int) float64 {
	return float64(n+1) * math.Pow(float64(n+1), float64(p.quantifiers)) * p.branches
}

// rxRefusal is the reason a call of a regular expression is refused, "" if
// it may run.
func (p rxPattern) refusal(n int, route string) string {
	switch {
	case p.backtrack != "":
		return "this regular expression has " + p.backtrack + ", which only a backtracking engine runs; subplay cannot bound its time in the browser"
	case route == "":
		return ""
	case p.nested != "":
		return fmt.Sprintf("this call would run on a backtracking engine (%s), where %s can take exponential time; subplay cannot bound it in the browser", route, diag.Quote(p.nested))
	case p.paths(n) > limits.UDFBacktrackPaths:
		return fmt.Sprintf("this call would run on a backtracking engine (%s), where %d quantifiers on %d characters could try more than %d paths", route, p.quantifiers, n, int64(limits.UDFBacktrackPaths))
	}
	return ""
}

// rxHint says how to keep a call on the linear engine.
const rxHint = "give the expression the u flag (then text outside ASCII stays on the linear engine), match from the start " +
	"(str.match(/.../g) or replace with a function instead of an exec loop), and avoid lookarounds and backreferences"

// texts describes a string for the route decision: its length in UTF-16
// units, whether it is all ASCII, whether it is well-formed UTF-16, and
// whether it holds a surrogate at all (paired or not).
func texts(s goja.String) (n int, ascii, wellFormed, surrogates bool) {
	n = s.Length()
	if asciiString(s) {
		// goja's ASCII kind; its other kind holding only ASCII is found so
		// by the loop, without a copy of the text in UTF-8.
		return n, true, true, false
	}
	ascii, wellFormed = true, true
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		if c < 0x80 {
			continue
		}
		ascii = false
		switch {
		case c >= 0xD800 && c <= 0xDBFF:
			surrogates = true
			if i+1 < n && s.CharAt(i+1) >= 0xDC00 && s.CharAt(i+1) <= 0xDFFF {
				i++
			} else {
				wellFormed = false
			}
		case c >= 0xDC00 && c <= 0xDFFF:
			surrogates, wellFormed = true, false
		}
	}
	return n, ascii, wellFormed, surrogates
}
