package playground

import (
	"context"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
	"github.com/subplay/subplay/core/stop"
)

// outcomeInvalid is the outcome of a sample message with errors of its own
// (undecodable fields, a limit the service enforces on publish), in the
// filter and transform operations and the downstream previews alike. The
// service refuses to publish such a message, so no transform, filter,
// bucket or table ever sees it: it gets no verdict and is never written.
const outcomeInvalid = "invalid"

// invalidReason says so where a reason is shown beside the outcome.
const invalidReason = "no verdict: the service would refuse to publish this message (see its errors)"

// perMessage makes one result per sample message with mk, which gets the
// message's own findings (finished with its service-limit checks) and
// whether any is an error; rest is what belongs to no message. Without
// messages (d nil) results are empty and every finding is in rest. Once
// ctx is done it stops with ctx's error.
func perMessage[R any](ctx context.Context, d *message.Decoded, ds []diag.Diagnostic, mk func(i int, ds []diag.Diagnostic, invalid bool) R) (results []R, rest []diag.Diagnostic, err error) {
	per, rest, err := byMessage(ctx, d, ds)
	if err != nil {
		return nil, nil, err
	}
	results = make([]R, len(per))
	for i := range per {
		results[i] = mk(i, per[i], diag.HasErrors(per[i]))
	}
	return results, rest, nil
}

// byMessage splits findings about sample messages by the message they
// point at, each message's own list finished with its service-limit
// checks (d.Check); rest is what belongs to no message. With no messages
// (d nil) every finding is in rest. Once ctx is done it stops with ctx's
// error.
func byMessage(ctx context.Context, d *message.Decoded, ds []diag.Diagnostic) (per [][]diag.Diagnostic, rest []diag.Diagnostic, err error) {
	if d == nil {
		return nil, ds, nil
	}
	per = make([][]diag.Diagnostic, len(d.Messages))
	for _, x := range ds {
		if i := x.MessageIndex; i != nil && *i < len(per) {
			per[*i] = append(per[*i], x)
			continue
		}
		rest = append(rest, x)
	}
	for i := range per {
		if err := stop.Check(ctx, i); err != nil {
			return nil, nil, err
		}
		per[i] = diag.Finish(append(per[i], d.Check(i)...))
	}
	return per, rest, nil
}

// verdict is the outcome of a filter's match: "delivered", or "acked" by
// the service on the subscriber's behalf.
func verdict(match bool) string {
	if match {
		return "delivered"
	}
	return "acked"
}
