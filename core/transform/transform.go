// Package transform runs a subscription's JavaScript user-defined functions
// (single message transforms) on sample messages, offline, with the
// documented contract: function NAME(message, metadata), where message is
// {data: string, attributes: {string: string}} and metadata is
// {message_id, publish_time, ordering_key}; returning null drops the
// message, returning {data, attributes} replaces it, and an empty
// attributes object removes every attribute.
//
// The engine (github.com/dop251/goja, a JavaScript interpreter written in
// Go) is left out of builds tagged noudf: there Available is false and
// Compile reports ErrUnavailable, so a caller can say which build can answer.
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
}

// Options fix what the engine would otherwise take from the machine.
type Options struct {
	// Now is what Date.now() and new Date() return in a UDF when the message
	// has no publish time (with one, they return the publish time).
	Now time.Time
	// Ctx, when set, is the call's context: a UDF's steps look at it
	// (core/stop) as a loop over user input does, so that a UDF that runs
	// long lets the worker's other requests in at its pauses, and one whose
	// caller has gone stops. The answer of such a call is the error
	// "cancelled" (playground.RunContext), never its findings.
	Ctx context.Context
}
