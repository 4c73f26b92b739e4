package playground

import (
	"context"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/stop"
)

// TestBigStepsPause: a large request's call pauses (where a pause is
// installed) after its decoding and before its answer's encoding, which
// make no looks of their own; a small one does not pause for them. The
// call is a validation of a configuration padded with spaces, so that its
// own work makes no looks at all: every pause counted is one of these.
func TestBigStepsPause(t *testing.T) {
	var heavy int
	paused := stop.WithPause(context.Background(), func(_ context.Context, h bool) {
		if h {
			heavy++
		}
	})
	for _, tc := range []struct {
		pad  int
		want int
	}{
		{0, 0},
		{limits.HTTPLargeBody, 2},
	} {
		heavy = 0
		body := `{"config":{"topic":"projects/acme-prod/topics/orders","name":"projects/acme-prod/subscriptions/orders-worker"}` + strings.Repeat(" ", tc.pad) + `}`
		out, ok := CallContext(paused, "validate", []byte(body))
		if !ok || !strings.Contains(string(out), `"valid":true`) {
			t.Fatalf("%d bytes: %s", len(body), out)
		}
		if heavy != tc.want {
			t.Errorf("a request of %d bytes paused %d times for its steps, want %d", len(body), heavy, tc.want)
		}
	}
	// A call cancelled in the pause after its decoding answers nothing.
	ctx, cancel := context.WithCancel(context.Background())
	ctx = stop.WithPause(ctx, func(context.Context, bool) { cancel() })
	body := `{"config":{"topic":"projects/acme-prod/topics/orders","name":"projects/acme-prod/subscriptions/orders-worker"}` + strings.Repeat(" ", limits.HTTPLargeBody) + `}`
	out, ok := CallContext(ctx, "validate", []byte(body))
	if ok || !strings.Contains(string(out), CodeCancelled) {
		t.Errorf("cancelled in its first pause: %v %s", ok, out)
	}
}
