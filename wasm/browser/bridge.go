package main

import (
	"encoding/json"
	"fmt"

	"github.com/subplay/subplay/core/playground"
)

// invoke runs one operation and returns its JSON response. It never
// panics: playground.Call already recovers inside an operation, and the
// deferred recover here also covers the bridge itself.
func invoke(op, request string) (body string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			body, ok = internalError(fmt.Sprintf("the bridge failed while running %q: %v", op, r)), false
		}
	}()
	out, ok := playground.Call(op, []byte(request))
	return string(out), ok
}

func internalError(msg string) string { return errorBody("internal", msg) }

func badRequest(msg string) string { return errorBody("bad-request", msg) }

func errorBody(code, msg string) string {
	b, _ := json.Marshal(playground.ErrorResponse{Error: &playground.Error{Code: code, Message: msg}})
	return string(b)
}
