//go:build !noudf

package transform

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/jsengine"
	"github.com/subplay/subplay/core/limits"
)

// check finds what is wrong with a UDF's code without running it: its
// size, the harness's reserved name, its syntax (the engine compiles it and
// runs nothing), and a function name the code does not declare. validate
// calls it on every keystroke, so its answers are cached by code and name.
func check(u UDF) ([]diag.Diagnostic, error) {
	key := u.FunctionName + "\x00" + u.Code
	if ds, ok := checks.get(key); ok {
		return ds, nil
	}
	ds, err := checkUncached(u)
	if err != nil {
		return nil, err
	}
	checks.put(key, ds)
	return slices.Clone(ds), nil
}

func checkUncached(u UDF) ([]diag.Diagnostic, error) {
	code := u.Code
	if len(code) > limits.UDFCodeBytes {
		return []diag.Diagnostic{finding(diag.Error, "udf-code-too-large",
			fmt.Sprintf("the code is %d bytes; subplay runs UDFs of at most %d bytes", len(code), limits.UDFCodeBytes),
			"the service documents no size limit; subplay bounds it to keep the preview quick",
			diag.SpanOf(limits.UDFCodeBytes, len(code)))}, nil
	}
	if i := strings.Index(code, reserved); i >= 0 {
		return []diag.Diagnostic{finding(diag.Error, "udf-reserved-name",
			reserved+" is reserved by subplay's harness", "rename it", diag.SpanOf(i, i+len(reserved)))}, nil
	}
	exc, err := checker.compile(code)
	if err != nil {
		return nil, err
	}
	if exc != nil {
		return []diag.Diagnostic{syntaxFinding(code, exc)}, nil
	}
	if isIdent(u.FunctionName) && !declares(code, u.FunctionName) && !mentions(code, u.FunctionName) {
		return []diag.Diagnostic{missing(u.FunctionName, "")}, nil
	}
	if loc := locale.FindStringIndex(code); loc != nil {
		return []diag.Diagnostic{finding(diag.Info, "udf-runtime-undocumented",
			"the service does not document the locale data of its UDF runtime; subplay's engine has no Intl, and toLocaleString, toLocaleDateString and localeCompare work as toString and plain comparison do",
			"for output that must not depend on the runtime, format by hand (toFixed, padStart, getUTC...)", diag.SpanOf(loc[0], loc[1]))}, nil
	}
	return nil, nil
}

// locale finds a use of what the service's runtime leaves undocumented:
// Intl and the locale-sensitive methods (testdata/v8/EXCEPTIONS).
var locale = regexp.MustCompile(`\bIntl\b|\.toLocale\w*\(|\.localeCompare\(`)

func syntaxFinding(code string, e *jsengine.Exception) diag.Diagnostic {
	msg := e.Message
	if e.Name != "SyntaxError" && e.Name != "" {
		msg = e.Name + ": " + msg
	}
	return finding(diag.Error, "udf-syntax", "JavaScript syntax: "+msg, "", syntaxSpan(code, msg, where(code, e.Stack)))
}

// quotedToken is the token a QuickJS-ng syntax message names:
// "Unexpected token ';'", "unexpected token in expression: ')'".
var quotedToken = regexp.MustCompile(`[Uu]nexpected token(?: in expression:)? '(.*)'$`)

// syntaxSpan narrows the place QuickJS-ng gives a syntax error (the start
// of the statement it was reading) to the token its message names: the
// first one from there on, or the end of the code when the message names
// the end of the input (TestSyntaxPositions).
func syntaxSpan(code, msg string, at diag.Span) diag.Span {
	m := quotedToken.FindStringSubmatch(msg)
	if m == nil || !at.IsValid() {
		return at
	}
	if m[1] == "" {
		return diag.SpanOf(len(code), len(code))
	}
	from := at.Start.Offset()
	if i := strings.Index(code[from:], m[1]); i >= 0 {
		return diag.SpanOf(from+i, from+i+len(m[1]))
	}
	return at
}

// declares reports whether the code declares name at its top level (a
// function, class, var, let or const): a script that adds "let NAME" after
// it compiles only when it does not.
func declares(code, name string) bool {
	exc, err := checker.compile(code + "\n;let " + name + ";")
	return err == nil && exc != nil && strings.Contains(exc.Message, "redeclaration")
}

// mentions reports whether the code names name at all: a function made at
// run time (globalThis[NAME] = ..., NAME = function ...) is found only by
// running the code, which validate does not.
func mentions(code, name string) bool {
	re, err := regexp.Compile(`(^|[^\w$])` + regexp.QuoteMeta(name) + `($|[^\w$])`)
	return err == nil && re.MatchString(code)
}

// checker compiles code in one engine kept for that: compiling runs
// nothing, so no state carries from one check to the next.
var checker compiler

type compiler struct {
	sync.Mutex
	rt jsengine.Runtime
}

func (c *compiler) compile(code string) (*jsengine.Exception, error) {
	c.Lock()
	defer c.Unlock()
	if c.rt == nil {
		rt, err := jsengine.Open(jsengine.Limits{MemoryBytes: limits.UDFMemoryBytes, StackBytes: limits.UDFStackBytes})
		if err != nil {
			return nil, err
		}
		c.rt = rt
	}
	exc, err := c.rt.Check(code, udfFile)
	if err != nil {
		c.rt.Close()
		c.rt = nil
	}
	return exc, err
}

// checks is a small LRU of check results, bounded by entries and by the
// bytes of code they hold.
var checks = &checkCache{}

type checkCache struct {
	sync.Mutex
	keys  []string // least recently used first
	diags map[string][]diag.Diagnostic
	bytes int
}

func (c *checkCache) get(key string) ([]diag.Diagnostic, bool) {
	c.Lock()
	defer c.Unlock()
	ds, ok := c.diags[key]
	if !ok {
		return nil, false
	}
	i := slices.Index(c.keys, key)
	c.keys = append(slices.Delete(c.keys, i, i+1), key)
	return slices.Clone(ds), true
}

func (c *checkCache) put(key string, ds []diag.Diagnostic) {
	if len(key) > limits.UDFCacheBytes {
		return
	}
	c.Lock()
	defer c.Unlock()
	if c.diags == nil {
		c.diags = map[string][]diag.Diagnostic{}
	}
	if _, ok := c.diags[key]; ok {
		return
	}
	c.diags[key] = slices.Clone(ds)
	c.keys = append(c.keys, key)
	c.bytes += len(key)
	for len(c.keys) > limits.UDFCacheEntries || c.bytes > limits.UDFCacheBytes {
		old := c.keys[0]
		c.keys = c.keys[1:]
		c.bytes -= len(old)
		delete(c.diags, old)
	}
}
