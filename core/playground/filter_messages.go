package playground

import (
	"context"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/pipeline"
)

// outcomeInvalid is the outcome of a sample message with errors of its own
// (undecodable fields, a limit the service enforces on publish), in the
// filter and transform operations and the downstream previews alike
// (pipeline.Invalid says why).
const outcomeInvalid = pipeline.Invalid

// invalidReason says so where a reason is shown beside the outcome.
const invalidReason = pipeline.InvalidReason

// perMessage makes one result per sample message with mk, which gets the
// message's own findings (finished with its service-limit checks) and
// whether any is an error; rest is what belongs to no message. Without
// messages (d nil) results are empty and every finding is in rest. Once
// ctx is done it stops with ctx's error.
func perMessage[R any](ctx context.Context, d *message.Decoded, ds []diag.Diagnostic, mk func(i int, ds []diag.Diagnostic, invalid bool) R) (results []R, rest []diag.Diagnostic, err error) {
	per, rest, err := pipeline.ByMessage(ctx, d, ds)
	if err != nil {
		return nil, nil, err
	}
	results = make([]R, len(per))
	for i := range per {
		results[i] = mk(i, per[i], diag.HasErrors(per[i]))
	}
	return results, rest, nil
}

// verdict is the outcome of a filter's match: "delivered", or "acked" by
// the service on the subscriber's behalf.
func verdict(match bool) string {
	if match {
		return "delivered"
	}
	return "acked"
}
