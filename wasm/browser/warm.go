package main

import "strconv"

// warmSteps is how many loop iterations the warming UDF takes: about a
// hundredth of what a call may (limits.UDFCallInterrupts polls, each after
// some 10,000 iterations), a few tens of milliseconds of the worker's time.
const warmSteps = 200_000

// warmRequest is what the page's worker runs once, after it has started
// and been idle for a while (subplay.warm): a UDF whose loop goes through
// what a long UDF goes through (a call, +, a property, a caught
// exception), so that the engine's module is compiled and V8 optimises
// its interpreter loop on its other threads while nobody waits, not while
// a person's first UDF runs. Its answer is thrown away; a build without
// transforms answers it with an error at once.
var warmRequest = `{"config":{"name":"projects/p/subscriptions/s","topic":"projects/p/topics/t","messageTransforms":[{"javascriptUdf":{"functionName":"f","code":` +
	strconv.Quote(`function g(x) { return x + 1 }
function f(m) {
  var n = 0, o = {a: ''};
  for (var i = 0; i < `+strconv.Itoa(warmSteps)+`; i++) {
    try { n = g(n); o.a = 'k' + (n % 7); if (n < 0) throw n } catch (e) {}
  }
  return {data: m.data + o.a, attributes: m.attributes}
}`) + `}}]},"messages":[{"text":"x","attributes":{"k":"v"}}]}`

// warm runs warmRequest.
func warm() { invoke("transform", warmRequest) }
