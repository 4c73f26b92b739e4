// Package httpapi serves the operations of core/playground over HTTP:
// POST /v1/<op> with the same JSON as the WebAssembly bridge and the CLI.
// It is the only package of core/ that imports net/http.
package httpapi

import "net/http"

// Handler returns the API handler. (A placeholder until the edge API lands.)
func Handler() http.Handler {
	return http.NotFoundHandler()
}
