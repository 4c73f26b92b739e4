//go:build browser

package sitetest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// gatedSite is the site behind a proxy that can hold back the files whose
// path ends in a suffix (the WebAssembly modules, or one of them): the page
// as it is before its core has loaded, for as long as a test needs. hold
// arms the gate, open lets everything through; either may come again.
type gatedSite struct {
	*httptest.Server
	mu   sync.Mutex
	gate chan struct{} // nil: open
}

// newGatedSite is a site holding back every WebAssembly module until open
// is called.
func newGatedSite(t *testing.T) *gatedSite {
	t.Helper()
	return newGatedSiteFor(t, ".wasm")
}

// newGatedSiteFor is newGatedSite holding back only the files whose path
// ends in suffix.
func newGatedSiteFor(t *testing.T, suffix string) *gatedSite {
	t.Helper()
	return serveGated(t, suffix, true, false)
}

// newHoldSite is a site that lets every WebAssembly module through until
// hold is called, and can hold them again after open: a first visit with
// the core, then a reload without it, on one origin (so one localStorage).
// The modules are sent no-store (the worker's fetches ignore the tab's
// cache switch): a reload asks for them again, and the hold holds them.
func newHoldSite(t *testing.T) *gatedSite {
	t.Helper()
	return serveGated(t, ".wasm", false, true)
}

func serveGated(t *testing.T, suffix string, held, noStore bool) *gatedSite {
	t.Helper()
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	if noStore {
		rp.ModifyResponse = func(r *http.Response) error {
			if strings.HasSuffix(r.Request.URL.Path, suffix) {
				r.Header.Set("Cache-Control", "no-store")
			}
			return nil
		}
	}
	g := &gatedSite{}
	if held {
		g.gate = make(chan struct{})
	}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, suffix) {
			g.mu.Lock()
			gate := g.gate
			g.mu.Unlock()
			if gate != nil {
				select {
				case <-gate:
				case <-r.Context().Done():
					return
				}
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		g.open()
		g.Close()
	})
	return g
}

// hold holds back the files from now on, until open.
func (g *gatedSite) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gate == nil {
		g.gate = make(chan struct{})
	}
}

// open lets the held files, and all that follow, through.
func (g *gatedSite) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gate != nil {
		close(g.gate)
		g.gate = nil
	}
}

// waitEditor waits, with the core perhaps held back, until page.js has
// started: its hook is there with the editor.
func waitEditor(tb *tab) {
	tb.t.Helper()
	tb.eval(`new Promise((resolve, reject) => { const t0 = Date.now(); const f = () => window.subplayPage && window.subplayPage.editor ? resolve(true) : Date.now() - t0 > 30000 ? reject(new Error("the page never started")) : setTimeout(f, 20); f(); })`, nil)
}

// coreAnswers asks the loaded core for the calls keyed by the wire key
// (calls.js wireKey) the JavaScript expression key gives, and returns its
// answers in the shape a preview keeps them: what a preview drawn before
// the core is compared with.
func coreAnswers(tb *tab, key string) json.RawMessage {
	tb.t.Helper()
	var live json.RawMessage
	tb.eval(`(async () => {
		const calls = JSON.parse(`+key+`);
		const out = [];
		for (const [op, req] of calls) {
			try { out.push({ok: true, value: await window.subplayPage.call(op, JSON.parse(req))}); }
			catch (e) { out.push({ok: false, value: {error: {code: e.code, message: e.message}}}); }
		}
		return out;
	})()`, &live)
	return live
}
