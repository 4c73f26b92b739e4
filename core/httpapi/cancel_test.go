package httpapi

import (
	"bytes"
	"context"
	"errors"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/subplay/subplay/core/playground"
)

// disconnectCtx wraps a request's context and counts the operation's looks
// at Err. At look number at it tells the test (reached), which then
// disconnects the client, and waits until the server has noticed and
// ended the request's context: the operation is then cancelled at an
// exact point of its work, without timing.
type disconnectCtx struct {
	context.Context
	at      int64 // never when negative
	looks   atomic.Int64
	reached chan struct{}
	stuck   atomic.Bool // the server never ended the context
}

func (c *disconnectCtx) Err() error {
	if c.looks.Add(1) == c.at {
		close(c.reached)
		select {
		case <-c.Context.Done():
		case <-time.After(time.Minute): // a bound, so a broken server fails the test instead of hanging it
			c.stuck.Store(true)
		}
	}
	return c.Context.Err()
}

// costlyFilter is a filter request on 3000 messages: the operation looks
// at its context about a hundred times.
func costlyFilter() string {
	msgs := strings.TrimSuffix(strings.Repeat(`{"data":"aGVsbG8=","attributes":{"k":"v"}},`, 3000), ",")
	return `{"filter":"attributes.k = \"v\"","messages":[` + msgs + `]}`
}

// TestClientDisconnectStopsTheOperation: a client that goes away in the
// middle of a costly request over a real connection makes the operation
// stop at its next look at the context, instead of computing an answer
// nobody reads.
func TestClientDisconnectStopsTheOperation(t *testing.T) {
	var logs bytes.Buffer
	h := Handler(WithLogger(log.New(&logs, "", 0))).(*handler)
	ended := make(chan error, 1)
	h.run = func(ctx context.Context, op *playground.Op, body []byte) ([]byte, error) {
		out, err := runOp(ctx, op, body)
		ended <- err
		return out, err
	}
	ctxs := make(chan *disconnectCtx, 1)
	var at atomic.Int64 // read by the server's goroutine
	at.Store(-1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &disconnectCtx{Context: r.Context(), at: at.Load(), reached: make(chan struct{})}
		ctxs <- c
		h.ServeHTTP(w, r.WithContext(c))
	}))
	defer srv.Close()
	body := costlyFilter()

	// The whole call, to count its looks.
	resp, err := http.Post(srv.URL+"/v1/filter", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := <-ended; err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the whole call: status %d, operation error %v", resp.StatusCode, err)
	}
	whole := (<-ctxs).looks.Load()
	if whole < 40 {
		t.Fatalf("the whole call looked at its context %d times; the operation does not check it", whole)
	}

	// The same call, its client gone half-way.
	at.Store(whole / 2)
	cctx, hangUp := context.WithCancel(context.Background())
	defer hangUp()
	req, _ := http.NewRequestWithContext(cctx, http.MethodPost, srv.URL+"/v1/filter", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	c := <-ctxs
	<-c.reached
	hangUp()
	if err := <-answered; !errors.Is(err, context.Canceled) {
		t.Errorf("the client got %v, want its own cancellation", err)
	}
	opErr := <-ended
	if c.stuck.Load() {
		t.Fatal("the server did not end the request's context within a minute of the client leaving")
	}
	var perr *playground.Error
	if !errors.As(opErr, &perr) || perr.Code != codeCancelled {
		t.Fatalf("the operation ended with %v, want the error %q", opErr, codeCancelled)
	}
	// The look that saw the disconnection (number c.at), then
	// RunContext's own last look.
	if looks := c.looks.Load(); looks != c.at+1 {
		t.Errorf("the operation looked %d more times after the client left (of %d in a whole call); it should stop at once", looks-c.at-1, whole)
	}
}
