package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// MaxBody is the largest request body accepted, in bytes. A larger one is
// answered with 413 before more than MaxBody+1 bytes of it are read.
const MaxBody = limits.RequestBytes

// Error codes of the HTTP layer, beside the playground's own
// ("bad-request", "unknown-operation", "cancelled", "internal").
const (
	codeNotFound         = "not-found"
	codeMethodNotAllowed = "method-not-allowed"
	codeMediaType        = "unsupported-media-type"
	codeTooLarge         = "request-too-large"
	codeBadRequest       = "bad-request"
	codeUnknownOp        = "unknown-operation"
	codeInternal         = "internal"
	codeBusy             = "busy"
	codeTimeout          = "timeout"
	codeRequestTimeout   = "request-timeout"
	codeCancelled        = playground.CodeCancelled
)

// Option configures a Handler.
type Option func(*handler)

// WithLogger sends the handler's log (recovered panics and internal
// errors, never request contents) to l instead of standard error.
func WithLogger(l *log.Logger) Option {
	return func(h *handler) { h.log = l }
}

// WithCPUs sizes the bound on running operations for n CPUs instead of
// GOMAXPROCS (limits.HTTPOpsPerCPU per CPU).
func WithCPUs(n int) Option {
	return func(h *handler) {
		if h.gate != nil {
			h.gate = newGate(n)
		}
	}
}

// WithTimeLimits replaces how long a request waits for a free slot and
// how long its operation may run (limits.HTTPQueueWaitMillis and
// limits.HTTPOperationMillis).
func WithTimeLimits(queueWait, operation time.Duration) Option {
	return func(h *handler) { h.queueWait, h.opTimeout = queueWait, operation }
}

// Handler returns the API handler. It keeps no state between requests, so
// one Handler may serve any number of them concurrently.
//
// By default it bounds the operations running at once (the rest wait
// briefly, then get 503 "busy") and the time each may take (503
// "timeout"), and stops waiting for one whose client has gone. The
// operation runs with the request's context, so it stops too, at its
// next check (core/stop), once the client has gone or the handler has
// answered "timeout" and returned (the server then ends the context).
// Given an Admission (WithAdmission), it runs each operation inline
// instead, as the policy admits it: a server with one thread, where a
// timer could not fire while the operation runs anyway (the worker).
func Handler(opts ...Option) http.Handler {
	h := &handler{
		log:       stderrLog,
		run:       runOp,
		queueWait: limits.HTTPQueueWaitMillis * time.Millisecond,
		opTimeout: limits.HTTPOperationMillis * time.Millisecond,
		gate:      defaultGate(),
	}
	for _, o := range opts {
		o(h)
	}
	installPanicHook()
	return h
}

func runOp(ctx context.Context, op *playground.Op, body []byte) ([]byte, error) {
	return op.RunContext(ctx, body)
}

var stderrLog = log.New(os.Stderr, "subplay api: ", log.LstdFlags)

// installPanicHook makes the playground log the stack of a panic it
// recovers inside an operation; the caller gets only a short message.
// The hook is process-wide, so it is set once and only if nobody else (a
// command that embeds the handler, say) has set one.
var installPanicHook = sync.OnceFunc(func() {
	if playground.PanicHook != nil {
		return
	}
	playground.PanicHook = func(op string, value any, stack []byte) {
		stderrLog.Printf("panic in operation %q: %v\n%s", op, value, stack)
	}
})

type handler struct {
	log *log.Logger
	// run runs an operation; tests replace it to reach the paths that real
	// operations never take (a panic, an internal error).
	run func(ctx context.Context, op *playground.Op, body []byte) ([]byte, error)
	// gate bounds the operations running at once; nil when an admission
	// policy runs them inline instead.
	gate *gate
	// admission admits or refuses operations run inline, one at a time
	// (the worker); nil for the gate.
	admission            Admission
	queueWait, opTimeout time.Duration
}

func (h *handler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w := &trackingWriter{ResponseWriter: rw}
	defer func() {
		v := recover()
		if v == nil {
			return
		}
		h.log.Printf("panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
		if !w.wrote {
			writeError(w, r, http.StatusInternalServerError, codeInternal,
				"the server failed while answering this request; the failure was logged")
		}
	}()
	if h.admission != nil {
		h.admission.Arrive(r.Context())
	}
	setCORS(w.Header())
	h.route(w, r)
}

// route answers one request. The checks run from the most to the least
// fundamental (does the route exist, is the method right, is the body
// acceptable), so a request that is wrong in several ways always gets the
// same error.
func (h *handler) route(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	var op *playground.Op
	var methods []string
	switch {
	case path == "/healthz":
		methods = []string{http.MethodGet, http.MethodHead}
	case path == "/v1/openapi.json":
		methods = []string{http.MethodGet, http.MethodHead}
	case strings.HasPrefix(path, "/v1/"):
		name := strings.TrimPrefix(path, "/v1/")
		op = playground.Lookup(name)
		if op == nil {
			writeError(w, r, http.StatusNotFound, codeUnknownOp, fmt.Sprintf(
				"there is no operation %q; the operations are %s", name, strings.Join(playground.Names(), ", ")))
			return
		}
		methods = opMethods(op)
	default:
		writeError(w, r, http.StatusNotFound, codeNotFound, fmt.Sprintf(
			"nothing is served at %q; the API is POST /v1/<operation> (see /v1/openapi.json)", path))
		return
	}

	if r.Method == http.MethodOptions {
		preflight(w, r, methods)
		return
	}
	if !slices.Contains(methods, r.Method) {
		allow := strings.Join(append(methods, http.MethodOptions), ", ")
		w.Header().Set("Allow", allow)
		writeError(w, r, http.StatusMethodNotAllowed, codeMethodNotAllowed,
			fmt.Sprintf("%s is not allowed on %s; use %s", r.Method, path, allow))
		return
	}

	switch {
	case path == "/healthz":
		writeJSON(w, r, http.StatusOK, []byte(`{"status":"ok"}`))
	case path == "/v1/openapi.json":
		writeJSON(w, r, http.StatusOK, openAPIJSON())
	case r.Method == http.MethodPost:
		h.serveOp(w, r, op)
	default: // GET of an operation that takes no input
		h.answer(w, r, op, []byte("{}"))
	}
}

// opMethods says how an operation may be called: always by POST, and also
// by GET when its request has no fields, since then there is nothing to send.
func opMethods(op *playground.Op) []string {
	if op.Request.Kind() == reflect.Struct && op.Request.NumField() == 0 {
		return []string{http.MethodGet, http.MethodHead, http.MethodPost}
	}
	return []string{http.MethodPost}
}

func (h *handler) serveOp(w http.ResponseWriter, r *http.Request, op *playground.Op) {
	if msg := checkMediaType(r.Header.Get("Content-Type")); msg != "" {
		writeError(w, r, http.StatusUnsupportedMediaType, codeMediaType, msg)
		return
	}
	tooLarge := fmt.Sprintf("the request body is larger than %d bytes (%d MiB)", MaxBody, MaxBody>>20)
	// A declared length settles it before anything is read.
	if r.ContentLength > MaxBody {
		writeError(w, r, http.StatusRequestEntityTooLarge, codeTooLarge, tooLarge)
		return
	}
	// The limit is set on the server's own writer: only it can tell the
	// server to drop the connection rather than drain an oversized body.
	raw := w
	if t, ok := w.(*trackingWriter); ok {
		raw = t.ResponseWriter
	}
	body, err := io.ReadAll(http.MaxBytesReader(raw, r.Body, MaxBody))
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			writeError(w, r, http.StatusRequestEntityTooLarge, codeTooLarge, tooLarge)
			return
		}
		var nerr net.Error
		if errors.As(err, &nerr) && nerr.Timeout() {
			// A slow client: the server's read time-out ran out.
			writeError(w, r, http.StatusRequestTimeout, codeRequestTimeout, fmt.Sprintf(
				"the request body did not arrive within %d s", limits.HTTPReadMillis/1000))
			return
		}
		writeError(w, r, http.StatusBadRequest, codeBadRequest, "reading the request body: "+err.Error())
		return
	}
	if at := invalidUTF8(body); at >= 0 {
		writeError(w, r, http.StatusBadRequest, codeBadRequest, fmt.Sprintf(
			"the request body is not valid UTF-8: byte %d (0x%02x) begins no UTF-8 character; JSON must be UTF-8", at, body[at]))
		return
	}
	h.answer(w, r, op, body)
}

// invalidUTF8 returns the offset of the first byte of b that is not part of
// a valid UTF-8 encoding, or -1. The decoder would otherwise replace such
// bytes with U+FFFD and check a text the user never wrote.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

func (h *handler) answer(w http.ResponseWriter, r *http.Request, op *playground.Op, body []byte) {
	var out []byte
	var err error
	switch {
	case h.admission != nil:
		ctx, done, ok := h.admission.Admit(r.Context(), op.Name, len(body))
		if !ok {
			err = errServerBusy
			break
		}
		out, err = h.run(ctx, op, body)
		done()
	default:
		o, ok := h.runGuarded(r.Context(), op, body)
		if !ok {
			return // the client has gone; nobody reads an answer
		}
		if o.panic != nil {
			h.log.Printf("panic serving %s %s: %v\n%s", r.Method, r.URL.Path, o.panic, o.stack)
			writeError(w, r, http.StatusInternalServerError, codeInternal,
				"the server failed while answering this request; the failure was logged")
			return
		}
		out, err = o.out, o.err
	}
	if err == nil {
		writeJSON(w, r, http.StatusOK, out)
		return
	}
	var perr *playground.Error
	if !errors.As(err, &perr) {
		perr = &playground.Error{Code: codeInternal, Message: err.Error()}
	}
	status := statusOf(perr.Code)
	if perr.Code == codeBusy {
		w.Header().Set("Retry-After", strconv.Itoa(limits.HTTPRetryAfterSeconds))
	}
	if status == http.StatusInternalServerError {
		// The message is safe to return (the playground never puts a
		// stack in it); the log keeps the operation for whoever debugs it.
		h.log.Printf("operation %q failed: %s", op.Name, perr.Message)
	}
	writeErrorValue(w, r, status, perr)
}

// statusOf maps a playground error code to its HTTP status. An unknown code
// is treated as a failure of ours, not of the caller.
func statusOf(code string) int {
	switch code {
	case codeBadRequest:
		return http.StatusBadRequest
	case codeUnknownOp:
		return http.StatusNotFound
	case codeBusy, codeTimeout, codeCancelled:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// checkMediaType accepts application/json, with a UTF-8 charset if any
// (JSON has no other encoding). It returns why a type is refused.
func checkMediaType(ct string) string {
	if ct == "" {
		return `the request has no Content-Type; send the body as "application/json"`
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return `the body must be "application/json", not ` + diag.Quote(ct)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return "the body must be UTF-8 JSON, not charset " + diag.Quote(cs)
	}
	return ""
}

// setCORS lets any web page call the API. Nothing is credentialed (no
// cookies, no auth), so "*" exposes nothing a plain HTTP client could not
// already read.
func setCORS(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
}

func preflight(w http.ResponseWriter, r *http.Request, methods []string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", strings.Join(append(methods, http.MethodOptions), ", "))
	h.Set("Access-Control-Allow-Headers", "Content-Type")
	h.Set("Access-Control-Max-Age", "86400")
	h.Set("Allow", strings.Join(append(methods, http.MethodOptions), ", "))
	w.WriteHeader(http.StatusNoContent)
}

func writeJSON(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func writeError(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	writeErrorValue(w, r, status, &playground.Error{Code: code, Message: msg})
}

// writeErrorValue answers e whole: a needs-module refusal keeps its list
// of what the build lacks, as the wasm bridge and the CLI give it.
func writeErrorValue(w http.ResponseWriter, r *http.Request, status int, e *playground.Error) {
	b, err := json.Marshal(playground.ErrorResponse{Error: e})
	if err != nil { // cannot happen for strings, but never answer with nothing
		b = []byte(`{"error":{"code":"internal","message":"encoding an error failed"}}`)
	}
	writeJSON(w, r, status, b)
}

// trackingWriter remembers whether the response has started, so a panic
// after that point is logged without writing a second status line.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *trackingWriter) WriteHeader(status int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the server's writer.
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
