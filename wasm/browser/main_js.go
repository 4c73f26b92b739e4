//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/subplay/subplay/core/playground"
)

func main() {
	api := js.Global().Get("Object").New()
	api.Set("version", playground.Version)
	api.Set("call", js.FuncOf(call))
	api.Set("warm", js.FuncOf(func(js.Value, []js.Value) any {
		defer func() { _ = recover() }() // invoke recovers; this is the bridge's own net
		warm()
		return nil
	}))
	js.Global().Set("subplay", api)
	// The worker waits for this hook rather than polling for the global.
	if ready := js.Global().Get("subplayReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // keep the instance alive; returning would end it
}

// call is subplay.call(op, requestJSON) -> {ok, body}.
func call(_ js.Value, args []js.Value) (result any) {
	defer func() {
		if r := recover(); r != nil {
			result = reply(internalError(fmt.Sprintf("the bridge failed: %v", r)), false)
		}
	}()
	if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
		return reply(badRequest("call takes two strings: the operation name and the request JSON"), false)
	}
	body, ok := invoke(args[0].String(), args[1].String())
	return reply(body, ok)
}

func reply(body string, ok bool) js.Value {
	r := js.Global().Get("Object").New()
	r.Set("ok", ok)
	r.Set("body", body)
	return r
}
