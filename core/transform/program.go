//go:build !noudf

package transform

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/jsengine"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
)

// Available reports whether this build can run UDFs.
const Available = true

// Engine names the engine this build runs UDFs on.
const Engine = "quickjs-ng"

//go:embed harness.js
var harnessTemplate string

var harness = strings.NewReplacer("$LINES", strconv.Itoa(limits.UDFConsoleLines), "$BYTES", strconv.Itoa(limits.UDFConsoleBytes),
	"$WALK", strconv.Itoa(limits.UDFArrayWalk)).Replace(harnessTemplate)

// deadlineScale multiplies the wall-clock bounds (UDFCallMillis,
// UDFRequestMillis), never the counted ones: TestAgreesWithV8 compares
// semantics, and its batch cases must not depend on the machine's load.
var deadlineScale = 1

// The file names the engine gives the code it runs: positions in an
// exception's stack are read for udfFile only.
const (
	udfFile     = "udf.js"
	harnessFile = "subplay-harness.js"
	reserved    = "__subplay"
)

// Program is a list of UDFs checked, and (unless Options.CheckOnly) with
// their top-level code run, ready for messages.
type Program struct {
	// Diagnostics[i] are the findings of UDF i's code: syntax, subplay's
	// limits, a missing function, a throw in its top-level code.
	Diagnostics [][]diag.Diagnostic
	// Console[i] is what UDF i's top-level code logged.
	Console [][]ConsoleLine

	opts     Options
	udfs     []*udf
	spent    int // interrupts of the request's calls so far
	started  time.Time
	timedOut bool
	// stopped: a call of the request was stopped from outside (its count or
	// its time ran out); the request's later messages are not run, so that
	// a hostile UDF costs one call's bound, not one per sample message.
	stopped bool
}

type udf struct {
	src UDF
	ok  bool // checked; its messages can run
	rt  jsengine.Runtime
}

// Compile checks the UDFs and, unless opts.CheckOnly, runs each one's
// top-level code. A UDF that cannot run has findings in Diagnostics[i] and
// leaves every message it meets not run.
func Compile(udfs []UDF, opts Options) (*Program, error) {
	p := &Program{opts: opts, Diagnostics: make([][]diag.Diagnostic, len(udfs)), Console: make([][]ConsoleLine, len(udfs)), started: time.Now()}
	for i, u := range udfs {
		c := &udf{src: u}
		p.udfs = append(p.udfs, c)
		ds, err := check(u)
		if err != nil {
			return nil, err
		}
		p.Diagnostics[i] = ds
		if diag.HasErrors(ds) {
			continue
		}
		c.ok = true
		if !opts.CheckOnly {
			ds, logs := p.start(c)
			p.Diagnostics[i] = append(p.Diagnostics[i], ds...)
			p.Console[i] = logs
			// A transform whose top-level code fails, or that names no
			// function, is not prepared: its messages are not run, and its
			// finding is told once, at the code (TestPatterns).
			c.ok = !diag.HasErrors(ds)
		}
	}
	return p, nil
}

// Close frees the engines the program started.
func (p *Program) Close() {
	for _, c := range p.udfs {
		if c.rt != nil {
			c.rt.Close()
			c.rt = nil
		}
	}
}

func finding(sev diag.Severity, code, msg, hint string, span diag.Span) diag.Diagnostic {
	return diag.Diagnostic{Severity: sev, Code: code, Message: msg, Hint: hint, Span: span}
}

// budget is what the next call may take: its own bound, or what is left of
// the request's when that is less.
func (p *Program) budget(now time.Time) jsengine.Budget {
	n := min(limits.UDFCallInterrupts, limits.UDFRequestInterrupts-p.spent)
	left := time.Duration(limits.UDFRequestMillis)*time.Millisecond*time.Duration(deadlineScale) - time.Since(p.started)
	d := min(time.Duration(limits.UDFCallMillis)*time.Millisecond*time.Duration(deadlineScale), left)
	return jsengine.Budget{Interrupts: max(n, 1), Deadline: max(d, time.Millisecond), Now: now, Done: p.done()}
}

// harnessBudget bounds the harness's own short scripts (starting it,
// reading the top-level code's console, finding the function): they take
// a poll or two, and a getter of the UDF's that one of them meets gets
// no more than these few.
func (p *Program) harnessBudget() jsengine.Budget {
	return jsengine.Budget{Interrupts: 10, Now: p.opts.Now, Done: p.done()}
}

// done is the caller's context's Done channel, or nil without one: the
// engine's interrupt poll looks at it, so a call whose caller has gone
// stops within a poll (TestCancelledCall).
func (p *Program) done() <-chan struct{} {
	if p.opts.Ctx == nil {
		return nil
	}
	return p.opts.Ctx.Done()
}

// start opens c's engine and runs the harness, then the UDF's top-level
// code, then finds its function.
func (p *Program) start(c *udf) ([]diag.Diagnostic, []ConsoleLine) {
	rt, err := jsengine.Open(jsengine.Limits{MemoryBytes: limits.UDFMemoryBytes, StackBytes: limits.UDFStackBytes})
	if err != nil {
		return []diag.Diagnostic{finding(diag.Error, "udf-engine", "the JavaScript engine could not start: "+err.Error(), "this is a bug in subplay, or the page's engine failed to load", diag.Span{})}, nil
	}
	c.rt = rt
	fail := func(ds []diag.Diagnostic) []diag.Diagnostic {
		c.rt.Close()
		c.rt = nil
		return ds
	}
	if res, err := rt.Eval(harness, harnessFile, p.harnessBudget()); err != nil || res.Exception != nil {
		return fail([]diag.Diagnostic{finding(diag.Error, "udf-engine", "subplay's harness did not start in the engine", "this is a bug in subplay", diag.Span{})}), nil
	}
	res, err := rt.Eval(c.src.Code, udfFile, p.budget(p.opts.Now))
	p.spent += res.Interrupts
	if err != nil {
		return fail(p.engineFailed(err)), nil
	}
	if res.Exception != nil {
		return fail([]diag.Diagnostic{p.exception(c, res, "its top-level code")}), nil
	}
	var logs []ConsoleLine
	if out, err := rt.Eval("__subplay.start()", harnessFile, p.harnessBudget()); err == nil && out.Exception == nil {
		var r runResult
		if json.Unmarshal([]byte(out.Value), &r) == nil {
			logs = r.lines()
		}
	}
	name := c.src.FunctionName
	if !isIdent(name) {
		return fail([]diag.Diagnostic{missing(name, "")}), logs
	}
	bound, err := rt.Eval("typeof "+name+" === 'function' ? __subplay.bind("+name+") : typeof "+name, harnessFile, p.harnessBudget())
	if err != nil || bound.Exception != nil {
		return fail([]diag.Diagnostic{missing(name, "")}), logs
	}
	if bound.Value != "ok" {
		return fail([]diag.Diagnostic{missing(name, bound.Value)}), logs
	}
	return nil, logs
}

func missing(name, kind string) diag.Diagnostic {
	if kind != "" && kind != "undefined" {
		return finding(diag.Error, "udf-function-missing", diag.Quote(name)+" is "+article(kind)+", not a function",
			"define it with function "+exampleName(name)+"(message, metadata) { ... }", diag.Span{})
	}
	return finding(diag.Error, "udf-function-missing", "the code defines no function "+diag.Quote(name),
		"functionName must name a function of the code: function "+exampleName(name)+"(message, metadata) { ... }", diag.Span{})
}

func article(kind string) string {
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an " + kind
	}
	return "a " + kind
}

// engineFailed is the finding for an engine that failed outside the UDF's
// code (the instance could not run at all).
func (p *Program) engineFailed(err error) []diag.Diagnostic {
	return []diag.Diagnostic{finding(diag.Error, "udf-engine", "the JavaScript engine failed: "+err.Error(), "this is a bug in subplay", diag.Span{})}
}

// runResult is what the harness hands back for one call.
type runResult struct {
	Data       *string            `json:"data"`
	Attributes *map[string]string `json:"attributes"`
	Drop       bool               `json:"drop"`
	Shape      *struct {
		Message string `json:"message"`
		Hint    string `json:"hint"`
	} `json:"shape"`
	Threw *struct {
		Name    string  `json:"name"`
		Message string  `json:"message"`
		Stack   string  `json:"stack"`
		Value   *string `json:"value"`
	} `json:"threw"`
	Logs    []ConsoleLine `json:"logs"`
	Dropped int           `json:"dropped"`
}

func (r *runResult) lines() []ConsoleLine {
	out := r.Logs
	if r.Dropped > 0 {
		out = append(out, ConsoleLine{Level: "info", Text: fmt.Sprintf("(%d more lines not kept: subplay keeps the first %d of a call)", r.Dropped, limits.UDFConsoleLines)})
	}
	return out
}

// Run applies every UDF in order to m and returns one step per UDF. After
// a drop or a failure the remaining steps are NotRun.
func (p *Program) Run(m message.Message) []Step {
	steps := make([]Step, len(p.udfs))
	cur := m
	stopped := false
	for i, c := range p.udfs {
		if stopped {
			steps[i] = Step{Outcome: NotRun}
			continue
		}
		steps[i] = p.runOne(c, cur)
		switch steps[i].Outcome {
		case Changed, Unchanged:
			cur = *steps[i].Message
		default:
			stopped = true
		}
	}
	return steps
}

func (p *Program) runOne(c *udf, m message.Message) Step {
	if !c.ok || p.opts.CheckOnly {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Error, "udf-not-compiled",
			"this transform could not be prepared (see its code's findings), so the message stops here", "", diag.Span{})}}
	}
	if p.spent >= limits.UDFRequestInterrupts {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Warning, "udf-request-budget",
			fmt.Sprintf("not run: the request's UDFs already spent the %d engine polls a request may take", limits.UDFRequestInterrupts),
			"send fewer messages at a time", diag.Span{})}}
	}
	if p.stopped {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Warning, "udf-request-budget",
			"not run: an earlier call of this request was stopped at subplay's bound",
			"fix the transform the earlier message's finding points at", diag.Span{})}}
	}
	if p.timedOut || time.Since(p.started) >= time.Duration(limits.UDFRequestMillis)*time.Millisecond*time.Duration(deadlineScale) {
		p.timedOut = true
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Warning, "udf-request-time",
			fmt.Sprintf("not run: the request's UDFs already ran for %d ms", limits.UDFRequestMillis),
			"send fewer messages at a time", diag.Span{})}}
	}
	now := p.opts.Now
	if t, ok := m.Time(); ok {
		now = t
	}
	if c.rt == nil {
		// The previous call was stopped half-way, or ran the engine out of
		// memory: start from the top-level code again, as a fresh instance
		// of the service would.
		if ds, _ := p.start(c); len(ds) > 0 {
			return Step{Outcome: Failed, Diagnostics: ds}
		}
	}
	var notes []diag.Diagnostic
	if !utf8.Valid(m.Data) {
		notes = append(notes, finding(diag.Warning, "udf-data-not-text",
			"the message's data is not UTF-8 text; the UDF sees it with each invalid byte replaced by U+FFFD",
			"the UDF contract passes data as a string; binary payloads do not survive a round trip", diag.Span{}))
	}
	input, err := callInput(m)
	if err != nil {
		return Step{Outcome: Failed, Diagnostics: p.engineFailed(err)}
	}
	// The input goes in as JSON text that the harness parses: in an object
	// literal an attribute named __proto__ would set the prototype instead
	// of becoming a key (TestProtoAttribute).
	text, err := json.Marshal(input)
	if err != nil {
		return Step{Outcome: Failed, Diagnostics: p.engineFailed(err)}
	}
	res, err := c.rt.Eval("__subplay.run("+string(text)+")", harnessFile, p.budget(now))
	p.spent += res.Interrupts
	if err != nil {
		c.rt.Close()
		c.rt = nil
		return Step{Outcome: Failed, Diagnostics: p.engineFailed(err)}
	}
	if res.Exception != nil {
		// Only what the UDF cannot catch ends here: a stop, or the engine
		// out of memory while the harness read the result.
		c.rt.Close()
		c.rt = nil
		return Step{Outcome: Failed, Diagnostics: append(notes, p.exception(c, res, "the function"))}
	}
	var r runResult
	if err := json.Unmarshal([]byte(res.Value), &r); err != nil {
		return Step{Outcome: Failed, Diagnostics: append(notes, finding(diag.Error, "udf-engine",
			"the UDF's result could not be read: the code changed a built-in the harness uses", "", diag.Span{}))}
	}
	st := p.outcome(c, m, &r, notes)
	st.Console = r.lines()
	return st
}

// callInput is the message and metadata as the UDF receives them, as a
// JavaScript object literal: metadata's keys in the order the docs list
// them (a UDF that lists them sees that order), attributes sorted.
func callInput(m message.Message) (string, error) {
	data, err := json.Marshal(strings.ToValidUTF8(string(m.Data), "\uFFFD"))
	if err != nil {
		return "", err
	}
	attrs := map[string]string{}
	maps.Copy(attrs, m.Attributes)
	a, err := json.Marshal(attrs)
	if err != nil {
		return "", err
	}
	var meta []string
	for _, kv := range [][2]string{{"message_id", m.MessageID}, {"publish_time", m.PublishTime}, {"ordering_key", m.OrderingKey}} {
		if kv[1] != "" {
			v, _ := json.Marshal(kv[1])
			meta = append(meta, `"`+kv[0]+`":`+string(v))
		}
	}
	return `{"data":` + string(data) + `,"attributes":` + string(a) + `,"metadata":{` + strings.Join(meta, ",") + `}}`, nil
}

func (p *Program) outcome(c *udf, m message.Message, r *runResult, notes []diag.Diagnostic) Step {
	switch {
	case r.Threw != nil:
		if isOutOfMemory(r.Threw.Name, r.Threw.Message) {
			c.rt.Close()
			c.rt = nil
		}
		return Step{Outcome: Failed, Diagnostics: append(notes, p.thrown(c, r.Threw.Name, r.Threw.Message, r.Threw.Stack, r.Threw.Value, "the function"))}
	case r.Drop:
		return Step{Outcome: Dropped, Diagnostics: notes}
	case r.Shape != nil:
		// A wrong shape belongs to no line of the code: point at the
		// function's name where the code defines it.
		span := diag.Span{}
		if i := strings.Index(c.src.Code, c.src.FunctionName); i >= 0 && c.src.FunctionName != "" {
			span = diag.SpanOf(i, i+len(c.src.FunctionName))
		}
		return Step{Outcome: Failed, Diagnostics: append(notes, finding(diag.Error, "udf-result-shape", r.Shape.Message, r.Shape.Hint, span))}
	case r.Data == nil:
		return Step{Outcome: Failed, Diagnostics: append(notes, finding(diag.Error, "udf-engine", "the UDF's result could not be read", "", diag.Span{}))}
	}
	out := &message.Message{Data: []byte(*r.Data), MessageID: m.MessageID, PublishTime: m.PublishTime, OrderingKey: m.OrderingKey}
	if r.Attributes == nil {
		// The docs make attributes optional in the result: an absent one
		// keeps the message's attributes (only an empty one removes them).
		out.Attributes = maps.Clone(m.Attributes)
	} else if len(*r.Attributes) > 0 {
		out.Attributes = *r.Attributes
	}
	o := Unchanged
	if string(out.Data) != string(m.Data) || !maps.Equal(out.Attributes, m.Attributes) {
		o = Changed
	}
	for _, d := range message.Check(out, nil, "") {
		d.Code, d.Message = "udf-result-limit", "the transformed message breaks a limit: "+d.Message
		notes = append(notes, d)
	}
	if diag.HasErrors(notes) {
		return Step{Outcome: Failed, Diagnostics: notes}
	}
	return Step{Outcome: o, Message: out, Diagnostics: notes}
}

func isOutOfMemory(name, msg string) bool {
	return name == "InternalError" && msg == "out of memory"
}

// exception is the finding for an Eval that ended in an exception the UDF
// could not catch (a stop), or one its top-level code threw.
func (p *Program) exception(c *udf, res jsengine.Result, what string) diag.Diagnostic {
	e := res.Exception
	if res.Stop != jsengine.StopNone {
		p.stopped = true
	}
	span := thrownAt(c.src.Code, e.Stack)
	switch res.Stop {
	case jsengine.StopBudget:
		return finding(diag.Error, "udf-budget",
			fmt.Sprintf("%s was stopped after %d engine polls, subplay's bound for one call (about ten million loop iterations)", what, limits.UDFCallInterrupts),
			"look for a loop that never ends, or a regular expression that backtracks (nested quantifiers such as (a+)+)", span)
	case jsengine.StopStack:
		return finding(diag.Error, "udf-budget",
			fmt.Sprintf("%s nested too deeply: the engine's host ran out of stack", what),
			"look for recursion that never ends, or data nested hundreds of levels deep", span)
	case jsengine.StopCancelled:
		return finding(diag.Warning, "udf-cancelled",
			fmt.Sprintf("%s was stopped: the request was cancelled", what), "", span)
	case jsengine.StopHost:
		return finding(diag.Error, "udf-budget",
			fmt.Sprintf("%s stopped the engine: it ran out of what its host gives it", what),
			"look for a value that keeps growing, or recursion that never ends", span)
	case jsengine.StopDeadline:
		return finding(diag.Error, "udf-slow",
			fmt.Sprintf("%s was stopped after %d ms, subplay's time bound for one call", what, limits.UDFCallMillis),
			"look for a value that keeps growing, or a built-in called on a huge array or string", span)
	}
	return p.thrown(c, e.Name, e.Message, e.Stack, nilIfEmpty(e.Value), what)
}

func nilIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// thrown is the finding for a value the UDF threw (or a RangeError or out
// of memory the engine threw in it).
func (p *Program) thrown(c *udf, name, msg, stack string, value *string, what string) diag.Diagnostic {
	span := propertySpan(c.src.Code, msg, thrownAt(c.src.Code, stack))
	if isOutOfMemory(name, msg) {
		return finding(diag.Error, "udf-budget",
			fmt.Sprintf("%s ran out of memory: subplay gives a UDF %d MiB", what, limits.UDFMemoryBytes>>20),
			"look for a value that keeps growing", span)
	}
	text := name + ": " + msg
	if msg == "" {
		text = name
	}
	if value != nil {
		text = *value
	}
	return finding(diag.Error, "udf-exception", what+" threw "+diag.Quote(text),
		"the service does not deliver a message its transform fails on (it goes to the dead-letter topic when one is set)", span)
}

// propertyError is QuickJS-ng's message for a property read or written on
// undefined or null.
var propertyError = regexp.MustCompile(`^cannot (?:read|set) property '([^']*)' of (?:undefined|null)$`)

// propertySpan narrows the place QuickJS-ng gives a property access on
// undefined or null, which is the start of the function it happened in,
// to the access itself when the code from there names that property once
// (m.nothing.x: the ".x"), as V8 points at it (TestPatterns).
func propertySpan(code, msg string, at diag.Span) diag.Span {
	m := propertyError.FindStringSubmatch(msg)
	if m == nil || !at.IsValid() || m[1] == "" {
		return at
	}
	from := at.Start.Offset()
	if from > len(code) {
		return at
	}
	access := regexp.MustCompile(`\.\s*(` + regexp.QuoteMeta(m[1]) + `)\b|\[\s*(['"]` + regexp.QuoteMeta(m[1]) + `['"])\s*\]`)
	found := access.FindAllStringSubmatchIndex(code[from:], 2)
	if len(found) != 1 {
		return at
	}
	g := found[0][2:4]
	if g[0] < 0 {
		g = found[0][4:6]
	}
	return diag.SpanOf(from+g[0], from+g[1])
}

// callee moves a place QuickJS-ng gives inside a call to where V8 puts
// it: an exception thrown by a called built-in is placed at the call's
// first argument (JSON.parse(|x)), V8 places it at the callee's name
// (JSON.|parse(x)); one thrown by a constructor at its name (new |Error),
// V8 at new (TestPatterns, the contract's transform-errors).
func callee(code string, o int) int {
	if o <= 0 || o > len(code) {
		return o
	}
	before := strings.TrimRight(code[:o], " \t\n")
	if strings.HasSuffix(before, "(") {
		name := strings.TrimRight(before[:len(before)-1], " \t")
		i := len(name)
		for i > 0 && isIdentByte(name[i-1]) {
			i--
		}
		if i < len(name) && !keywordBeforeParen[name[i:]] {
			return i
		}
		return o
	}
	if strings.HasSuffix(before, "new") && len(before) < o && (len(before) == 3 || !isIdentByte(before[len(before)-4])) {
		return len(before) - 3
	}
	return o
}

// keywordBeforeParen are the words a "(" follows that are not a callee.
var keywordBeforeParen = map[string]bool{"if": true, "while": true, "for": true, "switch": true, "return": true,
	"typeof": true, "catch": true, "with": true, "await": true, "void": true, "delete": true, "in": true, "of": true}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// frame is one "udf.js:LINE:COLUMN" of an engine's stack.
var frame = regexp.MustCompile(`udf\.js:(\d+)(?::(\d+))?`)

// where is the place in the UDF's code of the innermost frame of its code
// in a stack, as a span of one character.
func where(code, stack string) diag.Span {
	m := frame.FindStringSubmatch(stack)
	if m == nil {
		return diag.Span{}
	}
	line, _ := strconv.Atoi(m[1])
	col := 1
	if m[2] != "" {
		col, _ = strconv.Atoi(m[2])
	}
	return charSpan(code, offsetOf(code, line, col))
}

// thrownAt is where a run-time exception's stack places it in the code,
// moved to where V8 would (callee).
func thrownAt(code, stack string) diag.Span {
	at := where(code, stack)
	if !at.IsValid() {
		return at
	}
	return charSpan(code, callee(code, at.Start.Offset()))
}

// offsetOf is the byte offset of a 1-based line and column, the column
// counted in characters as QuickJS-ng counts it.
func offsetOf(code string, line, col int) int {
	o := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(code[o:], '\n')
		if i < 0 {
			return len(code)
		}
		o += i + 1
	}
	for k := 1; k < col && o < len(code) && code[o] != '\n'; k++ {
		_, n := utf8.DecodeRuneInString(code[o:])
		o += n
	}
	return o
}

// Interrupts is how many times the engine polled in the program's calls so
// far: the request's use of limits.UDFRequestInterrupts.
func (p *Program) Interrupts() int { return p.spent }
