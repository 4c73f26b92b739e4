// Package transform runs a subscription's JavaScript user-defined functions
// (single message transforms) on sample messages, offline, with the
// documented contract: function NAME(message, metadata), where message is
// {data: string, attributes: {string: string}} and metadata is
// {message_id, publish_time, ordering_key}; returning null drops the
// message, returning {data, attributes} replaces it, and an empty
// attributes object removes every attribute.
//
// The engine is QuickJS-ng, the same WebAssembly binary on every surface
// (core/jsengine), bounded inside the engine by a memory limit, a stack
// limit and a counted interrupt; the contract itself runs inside the
// engine (harness.js), and program.go and check.go are the policy around
// it. It runs natively (wazero) and as js/wasm (wasm/quickjs, which the
// page's and the edge's entries register).
//
// TestAgreesWithV8 holds it to V8 (Node's vm) over the corpus in
// testdata/v8, with every remaining difference listed in EXCEPTIONS.
// Builds tagged noudf leave the engine out: there Available is false and
// Compile reports ErrUnavailable, so a caller can say which build can
// answer.
//
// Every position in a finding is a byte span in the UDF's code string; the
// caller carries it into the user's text (JSON escapes, YAML block scalars).
package transform

import (
	"context"
	"errors"
	"time"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
)

// ErrUnavailable is returned by Compile in a build without the engine.
var ErrUnavailable = errors.New("this build has no JavaScript engine")

// UDF is one enabled JavaScript transform, in the order the subscription
// applies them.
type UDF struct {
	FunctionName string
	Code         string
}

// Outcome is what one transform did to one message.
type Outcome string

const (
	// Changed: the transform returned a message that differs from its input.
	Changed Outcome = "changed"
	// Unchanged: the transform returned the message as it came.
	Unchanged Outcome = "unchanged"
	// Dropped: the transform returned null; later transforms do not run and
	// the message is not delivered.
	Dropped Outcome = "dropped"
	// Failed: the transform threw, returned a wrong shape or ran out of its
	// budget; later transforms do not run and the message is not delivered.
	Failed Outcome = "failed"
	// NotRun: an earlier transform dropped or failed the message, the UDF
	// could not be compiled, or the request's budget was spent.
	NotRun Outcome = "not-run"
)

// Step is the state of a message after one transform.
type Step struct {
	Outcome Outcome
	// Message is the message after the step: the transform's output when it
	// changed or kept it, absent when it dropped or failed it.
	Message *message.Message
	// Diagnostics are the step's findings, positioned in the UDF's code
	// (Span) when they point at a place in it.
	Diagnostics []diag.Diagnostic
	// Console is what the call logged (console.log and its kin), capped
	// (limits.UDFConsoleLines).
	Console []ConsoleLine
}

// ConsoleLine is one console call of a UDF.
type ConsoleLine struct {
	Level string `json:"level"` // log, info, warn, error or debug
	Text  string `json:"text"`
}

// Options fix what the engine would otherwise take from the machine.
type Options struct {
	// Now is what Date.now() and new Date() return in a UDF when the message
	// has no publish time (with one, they return the publish time), and in
	// its top-level code.
	Now time.Time
	// CheckOnly checks the code without running any of it (validate):
	// syntax, size, the function's declaration; Run then runs nothing.
	CheckOnly bool
	// Ctx, when set, is the call's context: once it is done, a running
	// call stops at the engine's next interrupt poll (udf-cancelled) and
	// later ones do not start.
	Ctx context.Context
}
