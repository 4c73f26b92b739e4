package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// blockingRun is an operation runner whose large requests block until
// released; started is told each time one begins.
type blockingRun struct {
	started chan struct{}
	release chan struct{}
}

func newBlockingRun() *blockingRun {
	return &blockingRun{started: make(chan struct{}, 16), release: make(chan struct{})}
}

func (b *blockingRun) run(_ context.Context, _ *playground.Op, body []byte) ([]byte, error) {
	if len(body) >= limits.HTTPLargeBody {
		b.started <- struct{}{}
		<-b.release
	}
	return []byte(`{}`), nil
}

var largeBody = `{}` + strings.Repeat(" ", limits.HTTPLargeBody)

func guardedHandler(t *testing.T, b *blockingRun, queueWait, opTime time.Duration) (*handler, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	h := Handler(WithLogger(log.New(&logs, "", 0)), WithCPUs(1), WithTimeLimits(queueWait, opTime)).(*handler)
	h.run = b.run
	return h, &logs
}

func post(h http.Handler, ctx context.Context, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/v1/version", strings.NewReader(body)).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var e playground.ErrorResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == nil {
		t.Fatalf("status %d, not a JSON error: %s", rec.Code, rec.Body)
	}
	return e.Error.Code
}

// With one CPU, large requests have one slot: while it is held, a second
// large request waits, then gets 503 busy with a Retry-After, and a small
// one is still answered.
func TestBusy(t *testing.T) {
	b := newBlockingRun()
	h, _ := guardedHandler(t, b, 20*time.Millisecond, time.Minute)
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- post(h, context.Background(), largeBody) }()
	<-b.started

	rec := post(h, context.Background(), largeBody)
	if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != codeBusy {
		t.Errorf("second large request: status %d, body %s; want 503 busy", rec.Code, rec.Body)
	}
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1", got)
	}
	if rec := post(h, context.Background(), `{}`); rec.Code != http.StatusOK {
		t.Errorf("a small request while the large slot is held: status %d, body %s", rec.Code, rec.Body)
	}
	close(b.release)
	if rec := <-first; rec.Code != http.StatusOK {
		t.Errorf("the first large request: status %d, body %s", rec.Code, rec.Body)
	}
}

// A small request of a class whose recent calls were all costly (a UDF
// stopped by its step budget is a few hundred bytes) takes the large pool
// too: while a large request holds its one slot, it waits and gets 503
// busy, and a small request of an ordinary class is still answered. One
// quick call among the recent ones makes the class ordinary again.
func TestCostlyClass(t *testing.T) {
	b := newBlockingRun()
	h, _ := guardedHandler(t, b, 20*time.Millisecond, time.Minute)
	small := `{"config":{}}`
	for i := 0; i < 4; i++ {
		h.gate.record("version", len(small), limits.HTTPCostlyMillis*time.Millisecond)
	}
	first := make(chan *httptest.ResponseRecorder)
	go func() { first <- post(h, context.Background(), largeBody) }()
	<-b.started

	if rec := post(h, context.Background(), small); rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != codeBusy {
		t.Errorf("a small request of a costly class: status %d, body %s; want 503 busy", rec.Code, rec.Body)
	}
	if rec := post(h, context.Background(), `{"config":{"a":1}}`+strings.Repeat(" ", 20)); rec.Code != http.StatusOK {
		t.Errorf("a small request of another size class: status %d, body %s", rec.Code, rec.Body)
	}
	h.gate.record("version", len(small), time.Millisecond)
	if rec := post(h, context.Background(), small); rec.Code != http.StatusOK {
		t.Errorf("after one quick call of the class: status %d, body %s", rec.Code, rec.Body)
	}
	close(b.release)
	if rec := <-first; rec.Code != http.StatusOK {
		t.Errorf("the large request: status %d, body %s", rec.Code, rec.Body)
	}
	waitFree(t, h)
}

// An operation past its time limit is answered 503 timeout, but keeps its
// slot until it really ends.
func TestTimeout(t *testing.T) {
	b := newBlockingRun()
	h, logs := guardedHandler(t, b, 20*time.Millisecond, 20*time.Millisecond)
	rec := post(h, context.Background(), largeBody)
	if rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != codeTimeout {
		t.Fatalf("status %d, body %s; want 503 timeout", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "time limit") {
		t.Errorf("the time-out was not logged: %q", logs.String())
	}
	if rec := post(h, context.Background(), largeBody); rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != codeBusy {
		t.Errorf("while the timed-out operation still runs: status %d, body %s; want 503 busy", rec.Code, rec.Body)
	}
	close(b.release)
	waitFree(t, h)
}

// A client that goes away gets nothing written; the slot is freed when its
// operation ends, not before.
func TestClientGone(t *testing.T) {
	b := newBlockingRun()
	h, _ := guardedHandler(t, b, time.Minute, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- post(h, ctx, largeBody) }()
	<-b.started
	cancel()
	rec := <-done
	if rec.Body.Len() != 0 {
		t.Errorf("an answer was written for a client that is gone: %s", rec.Body)
	}
	if len(h.gate.large) != 1 {
		t.Errorf("the slot was freed while the operation still runs")
	}
	close(b.release)
	waitFree(t, h)
}

// waitFree waits (boundedly) until every slot is free again.
func waitFree(t *testing.T, h *handler) {
	t.Helper()
	for i := 0; i < 500; i++ {
		if len(h.gate.all) == 0 && len(h.gate.large) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("slots still taken after the operations ended: %d of all, %d large", len(h.gate.all), len(h.gate.large))
}

// A panic inside a guarded operation is recovered in its goroutine and
// answered 500, as inline.
func TestGuardedPanic(t *testing.T) {
	var logs bytes.Buffer
	h := Handler(WithLogger(log.New(&logs, "", 0))).(*handler)
	h.run = func(context.Context, *playground.Op, []byte) ([]byte, error) { panic("boom in a guarded operation") }
	rec := post(h, context.Background(), `{}`)
	if rec.Code != http.StatusInternalServerError || errorCode(t, rec) != codeInternal {
		t.Errorf("status %d, body %s; want 500 internal", rec.Code, rec.Body)
	}
	if !strings.Contains(logs.String(), "boom in a guarded operation") {
		t.Errorf("the panic was not logged: %q", logs.String())
	}
	if strings.Contains(rec.Body.String(), "boom") {
		t.Errorf("the body shows the panic: %s", rec.Body)
	}
	waitFree(t, h)
}

func TestInvalidUTF8(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int
	}{
		{"valid", `{"a":"é"}`, -1},
		{"empty", ``, -1},
		{"lone continuation byte", "{\"a\":\"\x80\"}", 6},
		{"truncated sequence at the end", "{}\xe2\x82", 2},
		{"overlong encoding", "ab\xc0\xaf", 2},
		{"surrogate half", "x\xed\xa0\x80", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := invalidUTF8([]byte(tc.in)); got != tc.want {
				t.Errorf("invalidUTF8(%q) = %d, want %d", tc.in, got, tc.want)
			}
		})
	}
}

// A body that stops arriving is answered 408 once the server's read
// time-out runs out, without the server's addresses in the message.
func TestSlowBody(t *testing.T) {
	h := Handler()
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ReadTimeout = 100 * time.Millisecond
	srv.Start()
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute))
	io.WriteString(conn, "POST /v1/version HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var e playground.ErrorResponse
	if resp.StatusCode != http.StatusRequestTimeout || json.Unmarshal(b, &e) != nil || e.Error == nil || e.Error.Code != codeRequestTimeout {
		t.Fatalf("status %d, body %s; want 408 request-timeout", resp.StatusCode, b)
	}
	if strings.Contains(e.Error.Message, "127.0.0.1") {
		t.Errorf("the message shows an address: %q", e.Error.Message)
	}
}

// The read time-out bounds the request, not the operation: an operation
// that outlasts it is still answered (net/http clears the read deadline
// once the body has been read; this keeps that so).
func TestReadTimeoutSparesTheOperation(t *testing.T) {
	h := Handler().(*handler)
	h.run = func(context.Context, *playground.Op, []byte) ([]byte, error) {
		time.Sleep(500 * time.Millisecond) // five read time-outs
		return []byte(`{}`), nil
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ReadTimeout = 100 * time.Millisecond
	srv.Start()
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/version", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Errorf("status %d, body %s; want 200", resp.StatusCode, b)
	}
}
