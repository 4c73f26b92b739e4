package main

import "strconv"

// warmSteps is how many loop iterations the warming UDF takes: a tenth of
// what a call may (limits.UDFCallSteps), some 40-90 ms of the worker's
// time in a browser.
const warmSteps = 5000

// warmRequest is what the page's worker runs once, after it has started
// and been idle for a while (subplay.warm): a UDF whose loop goes through
// what a long UDF's steps go through (the engine's step, +, a property,
// a call, a caught exception), so that V8 optimises that code on its
// other threads while nobody waits, not while a person's first long UDF
// runs (on two cores, with that work beside it, the first looping UDF of
// an instance took 2-3 times as long). Its answer is thrown away; a build
// without transforms answers it with an error at once.
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
