package playground

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// countingCtx counts the looks at its Err and reports the context
// cancelled from look number after+1 on (never when after is negative), so
// a test can cancel a call at an exact point of its work without timing.
type countingCtx struct {
	context.Context
	after, n int
}

func (c *countingCtx) Err() error {
	c.n++
	if c.after >= 0 && c.n > c.after {
		return context.Canceled
	}
	return nil
}

// sampleMessages is a JSON array of n small messages.
func sampleMessages(n int) json.RawMessage {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"data":"aGVsbG8=","attributes":{"k":"v"}}`)
	}
	b.WriteByte(']')
	return json.RawMessage(b.String())
}

// costlyCalls are calls whose work grows with their input, one for each
// loop that looks at the context.
func costlyCalls(t *testing.T) []struct {
	name, op string
	body     []byte
} {
	msgs := sampleMessages(3000)
	storageText := `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","maxMessages":"1000"}}`
	avroText := `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","avroConfig":{"writeMetadata":true}}}`
	bqText := `{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","bigqueryConfig":{"table":"p.d.t"}}`
	body := func(req map[string]any) []byte {
		b, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return []struct {
		name, op string
		body     []byte
	}{
		{"filter on messages", "filter", body(map[string]any{"filter": `attributes.k = "v"`, "messages": msgs})},
		{"names of messages", "names", body(map[string]any{"text": storageText, "time": "2026-01-01T00:00:00Z", "uuid": "u", "messages": msgs})},
		{"names of a stream", "names", body(map[string]any{"text": storageText, "time": "2026-01-01T00:00:00Z", "uuid": "u",
			"stream": map[string]any{"rate": 10, "size": 10, "duration": "100000s"}})},
		{"avro file of messages", "schema", body(map[string]any{"text": avroText, "time": "2026-01-01T00:00:00Z", "messages": msgs})},
		{"bigquery rows of messages", "schema", body(map[string]any{"text": bqText, "time": "2026-01-01T00:00:00Z", "messages": msgs,
			"tableSchema": `[{"name":"data","type":"STRING"}]`})},
		{"transform of messages", "transform", body(map[string]any{"text": storageText, "messages": msgs})},
	}
}

// skipNeedsModule skips a test of a call this build answers needs-module
// (the schema operation in a noavro build): it has no work to cancel.
func skipNeedsModule(t *testing.T, op string, body []byte) {
	t.Helper()
	if _, err := Lookup(op).Run(body); errorIs(err, CodeNeedsModule) {
		t.Skipf("this build answers %s with needs-module: %v", op, err)
	}
}

// errorIs says whether err is an *Error with code.
func errorIs(err error, code string) bool {
	e, ok := err.(*Error)
	return ok && e.Code == code
}

// TestCancelledMidCall cancels each costly call half-way through its work
// and checks that it stops at the next look at its context, with the
// error "cancelled" and no answer.
func TestCancelledMidCall(t *testing.T) {
	for _, tc := range costlyCalls(t) {
		t.Run(tc.name, func(t *testing.T) {
			op := Lookup(tc.op)
			skipNeedsModule(t, tc.op, tc.body)
			whole := &countingCtx{Context: context.Background(), after: -1}
			if _, err := op.RunContext(whole, tc.body); err != nil {
				t.Fatalf("uncancelled call failed: %v", err)
			}
			// 3000 messages looked at every 32 make about 94 looks per loop;
			// far fewer means the loop does not look at all.
			if whole.n < 40 {
				t.Fatalf("the whole call looked at its context %d times; its loops do not check it", whole.n)
			}
			half := &countingCtx{Context: context.Background(), after: whole.n / 2}
			out, err := op.RunContext(half, tc.body)
			var perr *Error
			if !errors.As(err, &perr) || perr.Code != CodeCancelled || out != nil {
				t.Fatalf("cancelled call answered %q, %v; want no answer and the error %q", out, err, CodeCancelled)
			}
			// The look that saw the cancel, then RunContext's own last look.
			if half.n != half.after+2 {
				t.Errorf("the call looked at its context %d times after the cancel; it should stop at the first look", half.n-half.after-1)
			}
		})
	}
}

// TestCancelledBeforeCall: every operation, costly or not, answers
// "cancelled" through CallContext when its context is done already.
func TestCancelledBeforeCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			out, ok := CallContext(ctx, name, []byte(`{}`))
			var resp ErrorResponse
			if ok || json.Unmarshal(out, &resp) != nil || resp.Error == nil || resp.Error.Code != CodeCancelled {
				t.Errorf("CallContext(cancelled, %q) = %s, %v; want the error %q", name, out, ok, CodeCancelled)
			}
		})
	}
}

func TestCancelledMessages(t *testing.T) {
	expired, stop := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer stop()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"cancelled", cancelled, "the call was cancelled before it finished"},
		{"past its deadline", expired, "the call passed its deadline before it finished"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Lookup("version").RunContext(tt.ctx, []byte(`{}`))
			var perr *Error
			if !errors.As(err, &perr) || perr.Code != CodeCancelled || !strings.HasPrefix(perr.Message, tt.want) {
				t.Fatalf("error %v; want code %q and a message starting %q", err, CodeCancelled, tt.want)
			}
			if strings.HasSuffix(perr.Message, ".") || perr.Message != strings.ToLower(perr.Message[:1])+perr.Message[1:] {
				t.Errorf("message %q: messages are lowercase without a trailing period", perr.Message)
			}
		})
	}
}

// TestUncancelledCallsAnswerAsCall: the context variant answers what Call
// answers when nothing cancels it.
func TestUncancelledCallsAnswerAsCall(t *testing.T) {
	for _, tc := range costlyCalls(t) {
		t.Run(tc.name, func(t *testing.T) {
			skipNeedsModule(t, tc.op, tc.body)
			want, wok := Call(tc.op, tc.body)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			got, gok := CallContext(ctx, tc.op, tc.body)
			if wok != gok || string(got) != string(want) {
				t.Errorf("CallContext answered differently from Call (ok %v vs %v)", gok, wok)
			}
		})
	}
}
