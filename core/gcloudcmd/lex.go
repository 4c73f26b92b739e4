package gcloudcmd

import (
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
)

// word is one shell word after quote removal. Each byte of text remembers
// the offset it came from in the command, so a finding about part of a
// value (one label of --labels) points at that part of the user's text.
type word struct {
	text       string
	offs       []int // offs[i] is the offset in the command of text[i]
	start, end int   // the word as written, quotes included
	// expansion is the first shell expansion ($TOPIC, "${PROJECT}",
	// $(...)) in the word, as written: the shell would replace it with a
	// value we cannot know.
	expansion string
}

// span returns the command span of text[i:j] (the whole word when the
// range is empty or the word has no text).
func (w *word) span(i, j int) diag.Span {
	if i >= j || j > len(w.offs) {
		return diag.SpanOf(w.start, w.end)
	}
	return diag.SpanOf(w.offs[i], w.offs[j-1]+1)
}

// command is the words of one shell command, with the redirections that
// followed it (which the shell, not gcloud, handles).
type command struct {
	words     []word
	redirects []diag.Span
}

// lexer splits a text into shell commands the way bash would for the forms
// people paste, plus PowerShell's and cmd.exe's line continuations. It
// never runs anything: expansions are kept as written and marked.
type lexer struct {
	s    string
	i    int
	cmds []command
	cur  command
	w    *word  // the word being built, nil between words
	buf  []byte // its text so far
	ds   []diag.Diagnostic
	n    int // words so far, across commands
}

func lex(s string) ([]command, []diag.Diagnostic) {
	lx := &lexer{s: s}
	lx.run()
	return lx.cmds, lx.ds
}

func (lx *lexer) errorf(start, end int, code, msg, hint string) {
	lx.ds = append(lx.ds, diag.Diagnostic{Severity: diag.Error, Code: code, Message: msg, Hint: hint, Span: diag.SpanOf(start, end)})
}

func (lx *lexer) begin() {
	if lx.w == nil {
		lx.w = &word{start: lx.i}
	}
}

func (lx *lexer) add(c byte, off int) {
	lx.begin()
	lx.buf = append(lx.buf, c)
	lx.w.offs = append(lx.w.offs, off)
}

func (lx *lexer) endWord() {
	if lx.w == nil {
		return
	}
	lx.w.end = lx.i
	lx.w.text = string(lx.buf)
	lx.buf = lx.buf[:0]
	lx.n++
	if lx.n <= limits.GcloudMaxWords {
		lx.cur.words = append(lx.cur.words, *lx.w)
	} else if lx.n == limits.GcloudMaxWords+1 {
		lx.errorf(lx.w.start, lx.w.end, "gcloud-too-many-words",
			"the command has more than "+itoa(limits.GcloudMaxWords)+" words, the most subplay reads",
			"paste one gcloud command at a time")
	}
	lx.w = nil
}

func (lx *lexer) endCommand() {
	lx.endWord()
	if len(lx.cur.words) > 0 {
		lx.cmds = append(lx.cmds, lx.cur)
	}
	lx.cur = command{}
}

// continuation reports the length of a line continuation starting at i:
// a backslash (bash), a backtick (PowerShell) or a caret (cmd.exe), then
// optional spaces, then a line break. It is 0 when there is none.
func (lx *lexer) continuation(i int) int {
	s := lx.s
	if i >= len(s) || (s[i] != '\\' && s[i] != '`' && s[i] != '^') {
		return 0
	}
	j := i + 1
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j++
	}
	if j < len(s) && s[j] == '\n' {
		return j + 1 - i
	}
	return 0
}

func (lx *lexer) run() {
	s := lx.s
	for lx.i < len(s) {
		c := s[lx.i]
		if n := lx.continuation(lx.i); n > 0 {
			lx.i += n
			continue
		}
		if lx.w == nil && len(lx.cur.words) == 0 {
			lx.i += prompt(s[lx.i:])
			if lx.i >= len(s) {
				break
			}
			c = s[lx.i]
		}
		if c == '<' {
			if n := angled(s[lx.i:]); n > 0 {
				for k := lx.i; k < lx.i+n; k++ {
					lx.add(s[k], k)
				}
				lx.i += n
				continue
			}
		}
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			lx.endWord()
			lx.i++
		case c == '\n' || c == ';':
			lx.endCommand()
			lx.i++
		case c == '&' || c == '|':
			if c == '&' && lx.w != nil && lx.i > 0 && s[lx.i-1] == '>' {
				lx.add(c, lx.i) // 2>&1 is handled by redirect
				lx.i++
				continue
			}
			lx.endCommand()
			for lx.i < len(s) && (s[lx.i] == '&' || s[lx.i] == '|') {
				lx.i++
			}
		case c == '#' && lx.w == nil:
			for lx.i < len(s) && s[lx.i] != '\n' {
				lx.i++
			}
		case c == '>' || c == '<':
			lx.redirect()
		case c == '\'':
			lx.single()
		case c == '"':
			lx.double()
		case c == '$':
			lx.expansion()
		case c == '`':
			lx.backquote()
		case c == '\\':
			lx.begin()
			if lx.i+1 < len(s) {
				lx.add(s[lx.i+1], lx.i+1)
				lx.i += 2
			} else {
				lx.i++
			}
		default:
			lx.add(c, lx.i)
			lx.i++
		}
	}
	lx.endCommand()
}

// redirect skips a redirection (2>/dev/null, >out.txt, 2>&1, < in): the
// shell handles it, gcloud never sees it. A word made only of digits just
// before it is the file descriptor.
func (lx *lexer) redirect() {
	start := lx.i
	if lx.w != nil {
		if strings.Trim(lx.w.text, "0123456789") == "" && lx.w.expansion == "" {
			start = lx.w.start
			lx.w = nil
			lx.buf = lx.buf[:0]
		} else {
			lx.endWord()
		}
	}
	s := lx.s
	for lx.i < len(s) && (s[lx.i] == '>' || s[lx.i] == '<' || s[lx.i] == '&') {
		lx.i++
	}
	for lx.i < len(s) && (s[lx.i] == ' ' || s[lx.i] == '\t') {
		lx.i++
	}
	// The target: one word, possibly quoted.
	for lx.i < len(s) {
		c := s[lx.i]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == '|' || c == '&' {
			break
		}
		if c == '\'' || c == '"' {
			if j := strings.IndexByte(s[lx.i+1:], c); j >= 0 {
				lx.i += j + 2
				continue
			}
		}
		lx.i++
	}
	lx.n++ // a redirection counts as a word against the limit
	if lx.n <= limits.GcloudMaxWords {
		lx.cur.redirects = append(lx.cur.redirects, diag.SpanOf(start, lx.i))
	}
}

func (lx *lexer) single() {
	lx.begin()
	open := lx.i
	j := strings.IndexByte(lx.s[lx.i+1:], '\'')
	if j < 0 {
		lx.errorf(open, open+1, "gcloud-unclosed-quote", "this single quote is never closed",
			"close the quote, or escape it with a backslash")
		j = len(lx.s) - lx.i - 1
	}
	for k := lx.i + 1; k < lx.i+1+j; k++ {
		lx.add(lx.s[k], k)
	}
	lx.i = min(lx.i+j+2, len(lx.s))
}

func (lx *lexer) double() {
	lx.begin()
	open := lx.i
	s := lx.s
	lx.i++
	for lx.i < len(s) {
		c := s[lx.i]
		switch {
		case c == '"':
			lx.i++
			return
		case c == '\\' && lx.i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[lx.i+1]) >= 0:
			if s[lx.i+1] != '\n' {
				lx.add(s[lx.i+1], lx.i+1)
			}
			lx.i += 2
		case c == '`' && lx.continuation(lx.i) > 0:
			lx.i += lx.continuation(lx.i)
		case c == '$':
			lx.expansion()
		default:
			lx.add(c, lx.i)
			lx.i++
		}
	}
	lx.errorf(open, open+1, "gcloud-unclosed-quote", "this double quote is never closed",
		"close the quote, or escape it with a backslash")
}

// expansion reads $NAME, ${...}, $(...) or PowerShell's $env:NAME and
// keeps it in the word as written. A "$" followed by nothing a shell
// expands is an ordinary character.
func (lx *lexer) expansion() {
	s := lx.s
	start := lx.i
	j := lx.i + 1
	switch {
	case j < len(s) && (s[j] == '{' || s[j] == '('):
		open, close := s[j], byte('}')
		if open == '(' {
			close = ')'
		}
		depth := 0
		for ; j < len(s); j++ {
			if s[j] == open {
				depth++
			} else if s[j] == close {
				depth--
				if depth == 0 {
					j++
					break
				}
			}
		}
		if depth != 0 {
			lx.errorf(start, start+2, "gcloud-unclosed-quote", "this "+s[start:start+2]+" is never closed", "close it with "+string(close))
		}
	case j < len(s) && (isNameByte(s[j]) || strings.IndexByte("@*#?$!", s[j]) >= 0):
		if isNameByte(s[j]) {
			for j < len(s) && (isNameByte(s[j]) || s[j] == ':' && strings.EqualFold(s[start+1:j], "env")) {
				j++
			}
		} else {
			j++
		}
	default:
		lx.add('$', start)
		lx.i++
		return
	}
	lx.begin()
	if lx.w.expansion == "" {
		lx.w.expansion = s[start:j]
	}
	for k := start; k < j; k++ {
		lx.add(s[k], k)
	}
	lx.i = j
}

// backquote reads a bash command substitution `...`.
func (lx *lexer) backquote() {
	start := lx.i
	j := strings.IndexByte(lx.s[start+1:], '`')
	end := len(lx.s)
	if j >= 0 {
		end = start + 1 + j + 1
	}
	lx.begin()
	if lx.w.expansion == "" {
		lx.w.expansion = lx.s[start:end]
	}
	for k := start; k < end; k++ {
		lx.add(lx.s[k], k)
	}
	lx.i = end
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// prompt returns the length of a shell prompt at the start of a command
// as docs show it: "$ ", "% ", "> ", "PS> ", "PS C:\work> ".
func prompt(s string) int {
	for _, p := range []string{"$ ", "% ", "> "} {
		if strings.HasPrefix(s, p) {
			return len(p)
		}
	}
	if strings.HasPrefix(s, "PS") {
		end := strings.IndexAny(s, ">\n")
		if end > 0 && s[end] == '>' && end+1 < len(s) && s[end+1] == ' ' {
			return end + 2
		}
	}
	return 0
}

// angled returns the length of a placeholder such as <topic-id> at the
// start of s, or 0: docs write them where a shell would see redirections.
func angled(s string) int {
	for i := 1; i < len(s) && i < 64; i++ {
		c := s[i]
		if c == '>' {
			if i > 1 {
				return i + 1
			}
			return 0
		}
		if !isNameByte(c) && c != '-' {
			return 0
		}
	}
	return 0
}
