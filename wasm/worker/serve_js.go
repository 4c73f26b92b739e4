//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"strconv"
	"syscall/js"

	"github.com/subplay/subplay/core/httpapi"
	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
	"github.com/subplay/subplay/wasm/worker/admit"
)

// exposeSync puts these entries on the binding object of the instance's
// first request, for the persistent glue (persistent.mjs); h serves, api
// is the API handler inside it (h may wrap it), share its admission
// policy:
//
//	subplayMaxBody                               the body limit, so JS reads no more than it needs
//	subplayLargeBody                             the size from which a body may be costly
//	subplayRefuse(method, url, headers, others) -> {status, headers, body} or null
//	                                             the 503 "busy" a large declared body gets now,
//	                                             asked before the body is read
//	subplayServe(method, url, headers, body, others, signal, done) -> true
//	                                             answers by calling done({status, headers, body,
//	                                             needsModule, retire, paused}); signal is the request's AbortSignal
//	                                             (or null): its abort cancels the call
//	subplayAlive() -> true                       only while the Go program runs
//	subplayShareState() -> string                the costly-work share's state (admit.Share.State)
//
// It reads two entries the glue may have put there before the instance
// started: subplayPause(wake), queue wake as a JavaScript task (see
// pauser); and subplayShareInit, the share's state as the instance this
// one succeeds left it (admit.Share.Restore), so that a fresh instance
// does not start with a full allowance.
//
// retire is true when the instance's memory has grown past
// limits.WorkerRetireMemoryMB (memory_js.go): the glue then serves the
// next request with a fresh instance.
//
// paused is true when the call reached a pause (pause_js.go): it was long.
//
// needsModule is true when this build answered the request with the
// playground's needs-module error: the glue then sends the request to the
// worker built with everything (its service binding), whose answer is the
// one a single worker would give.
//
// subplayServe returns once the call has started (see pauser): a long
// call lets the isolate's other requests in between its pauses, and its
// client's disconnect stops it. The handler never waits
// for JavaScript, so it needs none of the stream plumbing of syumai's
// handleRequest, and nothing of a call outlives it. That is what lets one
// instance answer any number of requests (syumai's handleRequest closes a
// channel when its response ends, which ends the instance).
func exposeSync(h, api http.Handler, share *admit.Share) {
	binding := js.Global().Get("context").Get("binding")
	if binding.Type() != js.TypeObject {
		return
	}
	if init := binding.Get("subplayShareInit"); init.Type() == js.TypeString {
		if err := share.Restore([]byte(init.String())); err != nil {
			fmt.Fprintf(os.Stderr, "subplay worker: the share's state from the instance before was not taken: %v\n", err)
		}
	}
	binding.Set("subplayShareState", js.FuncOf(func(js.Value, []js.Value) any {
		return string(share.State())
	}))
	binding.Set("subplayMaxBody", httpapi.MaxBody)
	binding.Set("subplayLargeBody", limits.HTTPLargeBody)
	binding.Set("subplayRefuse", js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		defer func() {
			// A request that cannot be judged here is judged with its body.
			if v := recover(); v != nil {
				fmt.Fprintf(os.Stderr, "subplay worker: panic judging a request before its body: %v\n%s", v, debug.Stack())
				result = js.Null()
			}
		}()
		if len(args) != 4 {
			panic(fmt.Sprintf("subplayRefuse takes 4 arguments, not %d", len(args)))
		}
		req, err := toRequest(args[0].String(), args[1].String(), args[2], js.Null())
		if err != nil {
			panic(err)
		}
		req = req.WithContext(admit.WithOthers(req.Context(), args[3].Int()))
		w := &recorder{header: http.Header{}}
		if !httpapi.Refuse(api, w, req) {
			return js.Null()
		}
		return jsResponse(w.status, w.header, w.body.Bytes())
	}))
	// The glue asks whether the program is alive while a call is open.
	binding.Set("subplayAlive", js.FuncOf(func(js.Value, []js.Value) any { return true }))
	pauses := installPause(binding)
	binding.Set("subplayServe", js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		// A panic in a js.FuncOf callback ends the Go program; the handler
		// recovers its own, so this guards only the conversions below.
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(os.Stderr, "subplay worker: panic converting a request: %v\n%s", v, debug.Stack())
				if len(args) == 7 && args[6].Type() == js.TypeFunction {
					args[6].Invoke(internalError())
				}
				result = true
			}
		}()
		if len(args) != 7 {
			panic(fmt.Sprintf("subplayServe takes 7 arguments, not %d", len(args)))
		}
		done := args[6]
		req, err := toRequest(args[0].String(), args[1].String(), args[2], args[3])
		if err != nil {
			panic(err)
		}
		// How many other requests compete for the instance: the handler
		// limits costly work only while some do.
		ctx := admit.WithOthers(req.Context(), args[4].Int())
		ctx, cancel := context.WithCancel(ctx)
		ctx, st := pauses.begin(ctx)
		// The client's disconnect (workerd's request.signal, with the
		// compatibility flag enable_request_signal) cancels the call: its
		// loops stop at their next look, at the latest after the pause
		// that let the abort event in. syumai's own entry gives a request
		// context.Background() and never looks at the signal.
		unlisten := onAbort(args[5], cancel)
		req = req.WithContext(ctx)
		// The call runs in a goroutine so that it can pause (block). Go
		// may run it before this callback returns or at its next entry
		// (the glue's alive check a task later is one), so the glue
		// treats every call as possibly answered later.
		go func() {
			defer cancel()
			res, code := serve(h, req)
			unlisten()
			// The glue lets a request in beside a long call only if its
			// kind of request has not been long lately (persistent.mjs).
			if st.reached {
				res.Set("paused", true)
			}
			pauses.end(st, code)
			done.Invoke(res)
		}()
		return true
	}))
}

// serve answers req with h and returns the response for the glue and the
// answer's error code ("" unless it is an error). A panic here (the
// handler recovers its own, so only a conversion's) would end the Go
// program from a goroutine; it is answered 500 instead.
func serve(h http.Handler, req *http.Request) (res js.Value, code string) {
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(os.Stderr, "subplay worker: panic answering a request: %v\n%s", v, debug.Stack())
			res, code = internalError(), "internal"
		}
	}()
	w := &recorder{header: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	res = jsResponse(w.status, w.header, w.body.Bytes())
	code = errorCode(w.status, w.body.Bytes())
	if code == playground.CodeNeedsModule {
		res.Set("needsModule", true)
	}
	// The glue starts a fresh instance for the next request (memory_js.go).
	if shouldRetire() {
		res.Set("retire", true)
	}
	return res, code
}

// internalError is the answer to a request whose conversion failed.
func internalError() js.Value {
	return jsResponse(http.StatusInternalServerError, http.Header{"Content-Type": {"application/json"}},
		[]byte(`{"error":{"code":"internal","message":"the worker failed while answering this request; the failure was logged"}}`))
}

// onAbort calls cancel once signal (an AbortSignal, or null) aborts, and
// returns the function that stops listening.
func onAbort(signal js.Value, cancel context.CancelFunc) (unlisten func()) {
	if signal.Type() != js.TypeObject {
		return func() {}
	}
	if signal.Get("aborted").Truthy() {
		cancel()
		return func() {}
	}
	f := js.FuncOf(func(js.Value, []js.Value) any {
		cancel()
		return js.Undefined() // an event listener returns nothing
	})
	signal.Call("addEventListener", "abort", f)
	return func() {
		signal.Call("removeEventListener", "abort", f)
		f.Release()
	}
}

// errorCode returns the error code of an answer that is the API's error
// document, "" for any other answer.
func errorCode(status int, body []byte) string {
	if status < 400 || !bytes.Contains(body, []byte(`"code"`)) {
		return ""
	}
	var e playground.ErrorResponse
	if json.Unmarshal(body, &e) != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

// toRequest builds the request the handler sees from what the glue passes:
// the method, the full URL, the headers as [name, value] pairs and the body
// (a Uint8Array, or null when the request has none).
func toRequest(method, url string, headers, body js.Value) (*http.Request, error) {
	var b []byte
	if body.Truthy() {
		b = make([]byte, body.Get("byteLength").Int())
		js.CopyBytesToGo(b, body)
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	for i, n := 0, headers.Length(); i < n; i++ {
		pair := headers.Index(i)
		req.Header.Add(pair.Index(0).String(), pair.Index(1).String())
	}
	// The declared length, as net/http reports it: the handler refuses an
	// oversized body by it before looking at the bytes (which the glue then
	// did not read). Without one the length is unknown (-1).
	req.ContentLength = -1
	if cl := req.Header.Get("Content-Length"); cl != "" {
		if n, err := strconv.ParseInt(cl, 10, 64); err == nil && n >= 0 {
			req.ContentLength = n
		}
	}
	req.Host = req.URL.Host
	req.RemoteAddr = req.Header.Get("Cf-Connecting-Ip")
	return req, nil
}

func jsResponse(status int, header http.Header, body []byte) js.Value {
	res := js.Global().Get("Object").New()
	res.Set("status", status)
	pairs := js.Global().Get("Array").New()
	for k, vs := range header {
		for _, v := range vs {
			pairs.Call("push", js.ValueOf([]any{k, v}))
		}
	}
	res.Set("headers", pairs)
	u8 := js.Global().Get("Uint8Array").New(len(body))
	js.CopyBytesToJS(u8, body)
	res.Set("body", u8)
	return res
}

// recorder is the ResponseWriter of a synchronous call: it keeps the whole
// response, which for this API is a small JSON document.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
