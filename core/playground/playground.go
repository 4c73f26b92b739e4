// Package playground is the contract every entry point speaks: one function
// per operation, each taking a JSON request and returning a JSON response.
// The WebAssembly bridge (call(op, json)), the HTTP API (POST /v1/<op>) and
// the CLI's --format json all go through Call (the HTTP API through
// CallContext, so that a request whose client has gone stops), so the
// three cannot drift.
//
// Operations register themselves from their own files (validate.go,
// filter.go, names.go, schema.go, ...), each with typed request and
// response structs; the registry keeps those types so the HTTP layer can
// describe every operation in its OpenAPI document.
package playground

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/stop"
)

// Version is the version of subplay, stamped at build time with
// -ldflags "-X github.com/subplay/subplay/core/playground.Version=...".
var Version = "dev"

// Error is the body of a failed call: {"error": {"code": ..., "message": ...}}.
// Codes are stable: "bad-request" (the request JSON is malformed or has the
// wrong shape), "unknown-operation", "cancelled" (the caller's context
// ended before the answer was ready; see CallContext), "internal" (a bug:
// a recovered panic), "needs-module" (this build lacks what the request
// needs; Needs lists what: see CodeNeedsModule).
// Findings about the user's configuration are never an Error: they are
// diagnostics inside a normal response.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Needs, with code "needs-module", names what the build lacks
	// (NeedsCEL, NeedsAvro, NeedsUDF, NeedsHCL), sorted.
	Needs []string `json:"needs,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// ErrorResponse wraps an Error.
type ErrorResponse struct {
	Error *Error `json:"error"`
}

// Op describes one operation.
type Op struct {
	Name     string
	Summary  string
	Request  reflect.Type // the request struct
	Response reflect.Type // the response struct
	run      func(context.Context, []byte) (any, error)
}

var ops = map[string]*Op{}

// register adds an operation that runs briefly whatever its input, so
// never looks at its context; see registerContext.
func register[Req, Resp any](name, summary string, f func(*Req) (*Resp, error)) {
	registerContext(name, summary, func(_ context.Context, req *Req) (*Resp, error) { return f(req) })
}

// registerContext adds an operation. f receives the decoded request and
// the call's context, which its loops over user input check (core/stop);
// an error it returns should be an *Error, or the context's error when it
// stopped early (anything else is reported as internal).
func registerContext[Req, Resp any](name, summary string, f func(context.Context, *Req) (*Resp, error)) {
	if _, dup := ops[name]; dup {
		panic("playground: operation registered twice: " + name)
	}
	ops[name] = &Op{
		Name:     name,
		Summary:  summary,
		Request:  reflect.TypeFor[Req](),
		Response: reflect.TypeFor[Resp](),
		run: func(ctx context.Context, body []byte) (any, error) {
			req := new(Req)
			if err := decodeRequest(body, req); err != nil {
				return nil, err
			}
			if err := bigStep(ctx, body); err != nil {
				return nil, err
			}
			return f(ctx, req)
		},
	}
}

// Ops returns every operation, sorted by name.
func Ops() []*Op {
	out := make([]*Op, 0, len(ops))
	for _, op := range ops {
		out = append(out, op)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the operation called name, or nil.
func Lookup(name string) *Op { return ops[name] }

// Call runs operation op on the JSON request body and returns the JSON
// response and whether it succeeded. It never panics: a panic inside an
// operation is recovered into an "internal" error, because the WebAssembly
// instance that runs this must never exit.
func Call(op string, body []byte) (out []byte, ok bool) {
	return CallContext(context.Background(), op, body)
}

// CallContext is Call for a caller that may stop waiting: once ctx is done
// the operation stops at its next check (core/stop) and the call answers
// the error "cancelled", never part of an answer.
func CallContext(ctx context.Context, op string, body []byte) (out []byte, ok bool) {
	o := ops[op]
	if o == nil {
		return encodeError(&Error{Code: "unknown-operation",
			Message: fmt.Sprintf("there is no operation %s; the operations are %s", diag.Quote(op), strings.Join(Names(), ", "))}), false
	}
	resp, err := o.RunContext(ctx, body)
	if err != nil {
		return encodeError(err), false
	}
	return resp, true
}

// Run runs the operation on a JSON request and returns the JSON response.
func (o *Op) Run(body []byte) (out []byte, err error) {
	return o.RunContext(context.Background(), body)
}

// CodeCancelled is the code of the error a call answers when its context
// ended before the answer was ready.
const CodeCancelled = "cancelled"

// RunContext is Run for a caller that may stop waiting. When ctx is done
// before the answer is ready (at the start, at one of the operation's
// checks, or at the end) the error is an *Error with code CodeCancelled
// and there is no response: an answer cut short is never returned.
func (o *Op) RunContext(ctx context.Context, body []byte) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &Error{Code: "internal", Message: fmt.Sprintf("operation %q failed: %v", o.Name, r)}
			if PanicHook != nil {
				PanicHook(o.Name, r, debug.Stack())
			}
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	resp, err := o.run(ctx, body)
	if err := ctx.Err(); err != nil {
		return nil, cancelled(err)
	}
	if err != nil {
		return nil, err
	}
	if err := bigStep(ctx, body); err != nil {
		return nil, cancelled(err)
	}
	b, err := json.Marshal(resp)
	if err != nil {
		return nil, &Error{Code: "internal", Message: "encoding the response: " + err.Error()}
	}
	return b, nil
}

// bigStep is a look (core/stop) between the steps of a call whose request
// is large (limits.HTTPLargeBody or more): after its decoding and before
// its answer's encoding, which make no looks of their own (encoding/json)
// and grow with the request (10,000 sample messages: 15 ms to decode and
// 10-20 ms to encode natively, several times that in the worker). Where a
// call may pause (the Cloudflare worker) it pauses there, so that the
// decoding, the operation's own work and the encoding hold the isolate
// one at a time, with other requests let in between; elsewhere it only
// looks at ctx. A small request never pauses for it.
func bigStep(ctx context.Context, body []byte) error {
	if len(body) < limits.HTTPLargeBody {
		return nil
	}
	return stop.Heavy(ctx)
}

// cancelled is the error of a call whose context ended with err.
func cancelled(err error) *Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeCancelled, Message: "the call passed its deadline before it finished, so it was stopped and nothing is answered"}
	}
	return &Error{Code: CodeCancelled, Message: "the call was cancelled before it finished (its caller stopped waiting), so nothing is answered"}
}

// PanicHook, when set, is told about every recovered panic with its stack,
// so a server can log it; the caller only ever sees the error.
var PanicHook func(op string, value any, stack []byte)

// Names lists the operation names, sorted.
func Names() []string {
	names := make([]string, 0, len(ops))
	for n := range ops {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func encodeError(err error) []byte {
	e, ok := err.(*Error)
	if !ok {
		e = &Error{Code: "internal", Message: err.Error()}
	}
	b, _ := json.Marshal(ErrorResponse{Error: e})
	return b
}

func decodeRequest(body []byte, v any) error {
	if len(body) > limits.RequestBytes {
		return &Error{Code: "bad-request", Message: fmt.Sprintf("the request is %d bytes; at most %d are accepted", len(body), limits.RequestBytes)}
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Code: "bad-request", Message: "the request is not valid: " + describeJSONError(body, err)}
	}
	if dec.More() {
		return &Error{Code: "bad-request", Message: "the request holds more than one JSON value"}
	}
	return nil
}

// describeJSONError says where in the request a decoding error happened.
func describeJSONError(body []byte, err error) string {
	var off int64 = -1
	switch e := err.(type) {
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
		if e.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", e.Field, jsonKind(e.Type), e.Value)
		}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if off >= 0 {
		line := 1 + strings.Count(string(body[:min(int(off), len(body))]), "\n")
		msg += fmt.Sprintf(" (line %d, byte %d)", line, off)
	}
	return msg
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Float64, reflect.Uint, reflect.Uint32, reflect.Uint64:
		return "a number"
	case reflect.Slice:
		return "an array"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	}
	return t.String()
}
