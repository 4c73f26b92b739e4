//go:build !noudf && !quickjs

package transform

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/message"
)

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

func (p *Program) runOne(c *compiled, m message.Message) (st Step) {
	if !c.ok {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Error, "udf-not-compiled",
			"this transform could not be prepared (see its code's findings), so the message stops here", "", diag.Span{})}}
	}
	if p.steps >= limits.UDFRequestSteps {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Warning, "udf-request-budget",
			fmt.Sprintf("not run: the request's UDFs already took %d steps together", limits.UDFRequestSteps),
			"send fewer messages at a time", diag.Span{})}}
	}
	input := len(m.Data)
	for k, v := range m.Attributes {
		input += len(k) + len(v)
	}
	if b := budgetFor(p.input + input); p.allocated >= b {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Warning, "udf-request-budget",
			fmt.Sprintf("not run: the request's UDFs already allocated %s together, their budget with this message (%d MiB and %d bytes for each byte of their inputs, at most %d MiB)",
				mib(b), limits.UDFCallAllocBase>>20, limits.UDFCallAllocPerByte, limits.UDFCallAllocBytes>>20),
			"send fewer messages at a time, or keep less in each call", diag.Span{})}}
	}
	if p.late {
		return Step{Outcome: NotRun, Diagnostics: []diag.Diagnostic{finding(diag.Warning, "udf-request-time",
			fmt.Sprintf("not run: an earlier call in this request ran longer than %d s", limits.UDFCallSeconds),
			"look for a regular expression that backtracks (nested quantifiers such as (a+)+ with a lookahead or a backreference)", diag.Span{})}}
	}
	if c.vm == nil {
		// The previous call was stopped half-way: start from the top-level
		// code again, as a fresh instance of the service would. A UDF from
		// the cache starts here the first time: its top-level steps were
		// counted when it was compiled, and it runs them as it did then
		// (with none of the request's steps before it spent, so the
		// request's bound, which it met then, cannot cut it short now).
		var ds []diag.Diagnostic
		if c.lazy {
			saved := p.steps
			p.steps = 0
			ds = p.start(c)
			p.steps, c.lazy = saved, false
		} else {
			ds = p.start(c)
		}
		if len(ds) > 0 {
			return Step{Outcome: Failed, Diagnostics: ds}
		}
	}
	vm := c.vm
	if t, ok := m.Time(); ok {
		vm.SetTimeSource(func() time.Time { return t })
	} else {
		now := p.opts.Now
		vm.SetTimeSource(func() time.Time { return now })
	}
	var notes []diag.Diagnostic
	if !utf8.Valid(m.Data) {
		notes = append(notes, finding(diag.Warning, "udf-data-not-text",
			"the message's data is not UTF-8 text; the UDF sees it with each invalid byte replaced by U+FFFD",
			"the UDF contract passes data as a string; binary payloads do not survive a round trip", diag.Span{}))
	}
	fn := c.fn
	cl := p.begin(c, input)
	defer p.end(cl)
	var ds []diag.Diagnostic
	var out *message.Message
	dropped := false
	func() {
		defer p.recoverCall(c, &ds, "the function")
		msgObj := vm.NewObject()
		_ = msgObj.Set("data", strings.ToValidUTF8(string(m.Data), "\uFFFD"))
		attrs := vm.NewObject()
		keys := make([]string, 0, len(m.Attributes))
		for k := range m.Attributes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			_ = attrs.Set(k, m.Attributes[k])
		}
		_ = msgObj.Set("attributes", attrs)
		meta := vm.NewObject()
		if m.MessageID != "" {
			_ = meta.Set("message_id", m.MessageID)
		}
		if t, ok := m.Time(); ok {
			_ = meta.Set("publish_time", t.UTC().Format("2006-01-02T15:04:05Z"))
		}
		if m.OrderingKey != "" {
			_ = meta.Set("ordering_key", m.OrderingKey)
		}
		// The docs call metadata immutable.
		if _, err := c.freeze(goja.Undefined(), meta); err != nil {
			ds = p.runError(c, err, "the function")
			return
		}
		res, err := fn(goja.Undefined(), msgObj, meta)
		if err != nil {
			ds = p.runError(c, err, "the function")
			return
		}
		if goja.IsNull(res) {
			dropped = true
			return
		}
		out, ds = p.result(vm, res, m)
		// A wrong shape belongs to no line of the code: point at the
		// function's name where the code defines it.
		if i := strings.Index(c.udf.Code, c.udf.FunctionName); i >= 0 {
			for j := range ds {
				if !ds[j].Span.IsValid() {
					ds[j].Span = diag.SpanOf(i, i+len(c.udf.FunctionName))
				}
			}
		}
	}()
	if cl.overtime() {
		// A built-in may have run past the time-out without a step (a
		// backtracking regular expression whose time-out reads as "no
		// match"): say so beside the verdict, which stays as it came.
		notes = append(notes, cl.overtimeFinding("the function"))
		p.late = true
	}
	if dropped && len(ds) == 0 {
		return Step{Outcome: Dropped, Diagnostics: notes}
	}
	if len(ds) > 0 {
		return Step{Outcome: Failed, Diagnostics: append(notes, ds...)}
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

// result checks the shape of what the function returned and makes the
// message it stands for. Reading it may run the UDF's getters, which the
// call's budget still bounds.
func (p *Program) result(vm *goja.Runtime, res goja.Value, in message.Message) (*message.Message, []diag.Diagnostic) {
	shape := func(msg, hint string) (*message.Message, []diag.Diagnostic) {
		return nil, []diag.Diagnostic{finding(diag.Error, "udf-result-shape", msg, hint, diag.Span{})}
	}
	const want = "return the message, {data: \"...\", attributes: {...}}, or null to drop it"
	if goja.IsUndefined(res) {
		return shape("the function returned undefined", want)
	}
	obj, ok := res.(*goja.Object)
	if !ok || isArray(obj) {
		return shape("the function returned "+describe(res)+", not an object", want)
	}
	for _, k := range obj.Keys() {
		if k != "data" && k != "attributes" {
			return shape("the returned object has a key "+diag.Quote(k)+"; only data and attributes are allowed",
				"delete it, or move it into attributes (as a string) or into data")
		}
	}
	data := obj.Get("data")
	if data == nil || goja.IsUndefined(data) {
		return shape("the returned object has no data", "data is required: set it to a string (\"\" for an empty payload)")
	}
	if !isString(data) {
		return shape("data is "+describe(data)+", not a string", "convert it, e.g. with JSON.stringify(...) or String(...)")
	}
	out := &message.Message{Data: []byte(data.String()), MessageID: in.MessageID, PublishTime: in.PublishTime, OrderingKey: in.OrderingKey}
	av := obj.Get("attributes")
	if av == nil || goja.IsUndefined(av) {
		// The docs make attributes optional in the result: an absent one
		// keeps the message's attributes (only an empty one removes them).
		out.Attributes = maps.Clone(in.Attributes)
		return out, nil
	}
	ao, ok := av.(*goja.Object)
	if !ok || isArray(ao) {
		return shape("attributes is "+describe(av)+", not an object of strings", "set attributes to an object such as {key: \"value\"}, or {} to remove them all")
	}
	out.Attributes = map[string]string{}
	for _, k := range ao.Keys() {
		v := ao.Get(k)
		if !isString(v) {
			return shape("attribute "+diag.Quote(k)+" is "+describe(v)+", not a string",
				"attribute values are strings: convert it, e.g. with String(...)")
		}
		out.Attributes[k] = v.String()
	}
	if len(out.Attributes) == 0 {
		out.Attributes = nil
	}
	return out, nil
}

func isString(v goja.Value) bool {
	if _, isObj := v.(*goja.Object); isObj {
		return false
	}
	return v.ExportType() == stringType
}

func isArray(o *goja.Object) bool { return o.ClassName() == "Array" }

// describe names a value's kind for a finding.
func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		switch o.ClassName() {
		case "Array":
			return "an array"
		case "Function":
			return "a function"
		case "String":
			return "a String object"
		}
		return "an object"
	}
	switch v.ExportType().Kind().String() {
	case "int64", "float64":
		return "a number (" + v.String() + ")"
	case "bool":
		return "a boolean (" + v.String() + ")"
	case "string":
		return "a string"
	}
	return "a " + v.ExportType().String()
}
