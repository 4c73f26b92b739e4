package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// Admission is the admission policy of a server that runs one operation
// at a time on its own thread, where nothing can interrupt a call and
// every request that arrives during it waits for all of it: the
// Cloudflare worker (its policy, the share of time costly work may take,
// is wasm/worker/admit). A Handler given one (WithAdmission) runs each
// operation inline, under the policy's word, in place of the native
// server's bound on operations running at once and its time limit.
//
// The handler calls its methods one request at a time, as the server
// runs them; they must still be safe for concurrent use if the server
// calls the handler from several goroutines.
type Admission interface {
	// Arrive is told of each request as it reaches the handler, before
	// anything about it is known; ctx is the request's context.
	Arrive(ctx context.Context)
	// Admit says whether a call of op on a body of size bytes may run
	// now. If it may, it returns the context the call runs with (derived
	// from ctx) and the function the handler calls once the call has
	// returned; if not, the request is answered 503 "busy".
	Admit(ctx context.Context, op string, size int) (call context.Context, done func(), ok bool)
	// Refuses says, admitting nothing, whether Admit would refuse a call
	// of op on a body of size bytes now.
	Refuses(op string, size int) bool
}

// WithAdmission makes the handler run each operation inline, admitted or
// refused by a (see Admission), instead of in a bounded pool of
// goroutines with a time limit (the default, for a native server).
func WithAdmission(a Admission) Option {
	return func(h *handler) { h.admission, h.gate = a, nil }
}

// Refuse answers r 503 "busy", as the handler h would, if h has an
// Admission that would refuse r now by its declared Content-Length and
// path, and says whether it did. The worker's glue asks before it reads a
// large body, so that a refused one is never read: a stream of refused
// megabyte requests then costs neither the isolate's time nor its memory
// (TestRefuseBeforeTheBody).
func Refuse(h http.Handler, w http.ResponseWriter, r *http.Request) bool {
	hh, ok := h.(*handler)
	if !ok || hh.admission == nil || r.Method != http.MethodPost || r.ContentLength < 0 {
		return false
	}
	op := playground.Lookup(strings.TrimPrefix(r.URL.Path, "/v1/"))
	if op == nil || !strings.HasPrefix(r.URL.Path, "/v1/") || r.ContentLength > MaxBody {
		return false
	}
	hh.admission.Arrive(r.Context())
	if !hh.admission.Refuses(op.Name, int(r.ContentLength)) {
		return false
	}
	setCORS(w.Header())
	w.Header().Set("Retry-After", strconv.Itoa(limits.HTTPRetryAfterSeconds))
	writeError(w, r, http.StatusServiceUnavailable, errServerBusy.Code, errServerBusy.Message)
	return true
}
