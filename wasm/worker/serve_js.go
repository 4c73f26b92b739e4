//go:build js && wasm

package main

import (
	"bytes"
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
)

// exposeSync puts these entries on the binding object of the instance's
// first request, for the persistent glue (patch-glue.mjs); h serves, api
// is the API handler inside it (h may wrap it):
//
//	subplayMaxBody                               the body limit, so JS reads no more than it needs
//	subplayLargeBody                             the size from which a body may be costly
//	subplayRefuse(method, url, headers, others) -> {status, headers, body} or null
//	                                             the 503 "busy" a large declared body gets now,
//	                                             asked before the body is read
//	subplayServe(method, url, headers, body, others)  -> {status, headers, body, needsModule}
//
// needsModule is true when this build answered the request with the
// playground's needs-module error: the glue then sends the request to the
// worker built with everything (its service binding), whose answer is the
// one a single worker would give.
//
// The call is synchronous: the handler is pure computation and never waits
// for JavaScript, so it needs none of the promise and stream plumbing of
// syumai's handleRequest, and nothing of it outlives the call. That is what
// lets one instance answer any number of requests (syumai's handleRequest
// closes a channel when its response ends, which ends the instance).
func exposeSync(h, api http.Handler) {
	binding := js.Global().Get("context").Get("binding")
	if binding.Type() != js.TypeObject {
		return
	}
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
		req = req.WithContext(httpapi.WithOthers(req.Context(), args[3].Int()))
		w := &recorder{header: http.Header{}}
		if !httpapi.Refuse(api, w, req) {
			return js.Null()
		}
		return jsResponse(w.status, w.header, w.body.Bytes())
	}))
	binding.Set("subplayServe", js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
		// A panic in a js.FuncOf callback ends the Go program; the handler
		// recovers its own, so this guards only the conversions below.
		defer func() {
			if v := recover(); v != nil {
				fmt.Fprintf(os.Stderr, "subplay worker: panic converting a request: %v\n%s", v, debug.Stack())
				result = jsResponse(http.StatusInternalServerError, http.Header{"Content-Type": {"application/json"}},
					[]byte(`{"error":{"code":"internal","message":"the worker failed while answering this request; the failure was logged"}}`))
			}
		}()
		if len(args) != 5 {
			panic(fmt.Sprintf("subplayServe takes 5 arguments, not %d", len(args)))
		}
		req, err := toRequest(args[0].String(), args[1].String(), args[2], args[3])
		if err != nil {
			panic(err)
		}
		// How many other requests compete for the instance: the handler
		// limits costly work only while some do.
		req = req.WithContext(httpapi.WithOthers(req.Context(), args[4].Int()))
		w := &recorder{header: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status == 0 {
			w.status = http.StatusOK
		}
		res := jsResponse(w.status, w.header, w.body.Bytes())
		if needsModule(w.status, w.body.Bytes()) {
			res.Set("needsModule", true)
		}
		return res
	}))
}

// needsModule says whether an answer is the playground's needs-module
// error (an internal error as HTTP sees it: statusOf knows no such code).
func needsModule(status int, body []byte) bool {
	if status != http.StatusInternalServerError || !bytes.Contains(body, []byte(playground.CodeNeedsModule)) {
		return false
	}
	var e playground.ErrorResponse
	return json.Unmarshal(body, &e) == nil && e.Error != nil && e.Error.Code == playground.CodeNeedsModule
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
