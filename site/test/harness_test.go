//go:build browser

package sitetest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The suite shares one server and one browser; each test opens its own tab.
var (
	// baseURL is the site through the recording proxy (served), which sees
	// every request the pages and their workers make; serverURL is
	// `subplay serve` itself, for the benchmarks.
	baseURL    string
	serverURL  string
	browserCtx context.Context
	repoRoot   string
	siteDir    string
	shotDir    string
	served     = &requestLog{}
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	_, file, _, _ := runtime.Caller(0)
	repoRoot = filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	shotDir = filepath.Join(repoRoot, "site", "test", "screenshots")
	required := os.Getenv("SUBPLAY_REQUIRE_TOOLS") != ""
	missing := func(what string) int {
		fmt.Fprintln(os.Stderr, "site/test:", what)
		if required {
			return 1
		}
		fmt.Fprintln(os.Stderr, "site/test: skipping the browser suite (set SUBPLAY_REQUIRE_TOOLS=1 to fail instead)")
		return 0
	}
	siteDir = os.Getenv("SUBPLAY_SITE_DIR")
	if siteDir == "" {
		siteDir = filepath.Join(repoRoot, "dist", "site")
	}
	if _, err := os.Stat(filepath.Join(siteDir, "index.html")); err != nil {
		return missing("the page is not built (" + siteDir + "); run scripts/build-site")
	}
	chromium := os.Getenv("SUBPLAY_CHROMIUM")
	if chromium == "" {
		var err error
		if chromium, err = exec.LookPath("chromium"); err != nil {
			return missing("chromium is not installed (scripts/setup installs Debian's chromium)")
		}
	}
	tmp, err := os.MkdirTemp("", "subplay-site-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(tmp)

	stop, err := startServer(tmp, siteDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "site/test:", err)
		return 1
	}
	defer stop()
	proxy, err := startProxy(serverURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "site/test:", err)
		return 1
	}
	defer proxy.Close()
	baseURL = proxy.URL + "/"

	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserFlags(chromium, filepath.Join(tmp, "profile"))...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		fmt.Fprintln(os.Stderr, "site/test: starting chromium:", err)
		return 1
	}
	browserCtx = ctx
	return m.Run()
}

// browserFlags are the flags the suite starts Chromium with: headless,
// sandbox off (the tests run as root in a container), nothing that talks
// to the network by itself, and a fresh profile.
func browserFlags(exe, profile string) []chromedp.ExecAllocatorOption {
	flags := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 900),
	}
	// SUBPLAY_JS_FLAGS passes V8 flags, for experiments with the
	// benchmarks (e.g. when V8 writes the module's code cache).
	if f := os.Getenv("SUBPLAY_JS_FLAGS"); f != "" {
		flags = append(flags, chromedp.Flag("js-flags", f))
	}
	return flags
}

// startServer builds cmd/subplay and runs `subplay serve` on a free port.
func startServer(tmp, siteDir string) (func(), error) {
	bin := filepath.Join(tmp, "subplay")
	build := exec.Command("go", "build", "-o", bin, "./cmd/subplay")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building subplay: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--dir", siteDir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	}
	line := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		s, _ := r.ReadString('\n')
		line <- s
		io.Copy(io.Discard, r)
	}()
	select {
	case s := <-line:
		m := regexp.MustCompile(`http://[0-9.:]+/`).FindString(s)
		if m == "" {
			stop()
			return nil, fmt.Errorf("subplay serve said %q", s)
		}
		serverURL = m
	case <-time.After(20 * time.Second):
		stop()
		return nil, fmt.Errorf("subplay serve did not start")
	}
	return stop, nil
}

// request is what the proxy saw of one request.
type request struct {
	Method, Path, Query string
	Body                int64 // bytes, -1 when unknown
	Referer             string
}

// requestLog records every request that reaches the site.
type requestLog struct {
	mu   sync.Mutex
	reqs []request
}

func (l *requestLog) add(r request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, r)
}

// mark returns a position in the log, for since.
func (l *requestLog) mark() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.reqs)
}

// since returns the requests made after mark.
func (l *requestLog) since(mark int) []request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.reqs[mark:])
}

// startProxy puts a recording reverse proxy in front of the server. The
// browser's own network events miss what a worker fetches (the modules);
// the proxy sees it all, and the tests check it: what each view downloads,
// and that no request carries anything of what the user typed.
func startProxy(target string) (*httptest.Server, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.add(request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Body: r.ContentLength, Referer: r.Referer()})
		rp.ServeHTTP(w, r)
	})), nil
}

// siteManifest is what site/build.mjs writes into manifest.json.
type siteManifest struct {
	Wasm map[string]struct {
		File string
		Size int
	}
	Sizes         map[string]struct{ Raw, Gzip, Br int }
	Pages         map[string][]string
	PageModules   []string
	StartModules  []string // the builds the page starts with, in order
	WidgetModules map[string]string
}

func readSiteManifest(t testing.TB) siteManifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(siteDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m siteManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// tab is one browser tab with what it logged.
type tab struct {
	t    testing.TB
	ctx  context.Context
	base string // the site's URL: baseURL, or serverURL for benchmarks

	mu       sync.Mutex
	problems []string // console errors, exceptions, CSP reports
	requests []string // URLs requested
}

// newTab opens a tab in a browser context of its own (its own storage, so
// one test's autosaved work never reaches another's page); it closes when
// the test ends. Every console error,
// uncaught exception and browser log error is recorded, and checked at the
// end unless the test calls allowProblems. Everything done in the tab
// must end within 120 s (newTabFor sets another bound).
func newTab(t testing.TB, opts ...chromedp.ContextOption) *tab {
	t.Helper()
	return newTabFor(t, 120*time.Second, opts...)
}

// newTabFor is newTab for a tab that may be used for as long as limit.
func newTabFor(t testing.TB, limit time.Duration, opts ...chromedp.ContextOption) *tab {
	t.Helper()
	if len(opts) == 0 {
		opts = []chromedp.ContextOption{chromedp.WithNewBrowserContext()}
	}
	ctx, cancel := chromedp.NewContext(browserCtx, opts...)
	ctx, cancelTimeout := context.WithTimeout(ctx, limit)
	tb := &tab{t: t, ctx: ctx, base: baseURL}
	err := chromedp.Listen(ctx, func(ev any) {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		switch e := ev.(type) {
		case *cdpruntime.EventConsoleAPICalled:
			if e.Type == cdpruntime.ConsoleAPICalledTypeError || e.Type == cdpruntime.ConsoleAPICalledTypeWarning {
				tb.problems = append(tb.problems, "console."+string(e.Type)+": "+argsText(e.Args))
			}
		case *cdpruntime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			tb.problems = append(tb.problems, "exception: "+msg)
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				tb.problems = append(tb.problems, "log "+string(e.Entry.Source)+": "+e.Entry.Text+" "+e.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			// data: URLs (the editor's icons) are not network requests.
			if !strings.HasPrefix(e.Request.URL, "data:") {
				tb.requests = append(tb.requests, e.Request.URL)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			tb.checkProblems()
		}
		cancelTimeout()
		cancel()
	})
	return tb
}

func argsText(args []*cdpruntime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		if a.Value != nil {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func (tb *tab) checkProblems() {
	tb.t.Helper()
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		tb.t.Errorf("browser reported: %s", p)
	}
}

// takeProblems returns and clears what was logged so far.
func (tb *tab) takeProblems() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	p := tb.problems
	tb.problems = nil
	return p
}

func (tb *tab) requestCount() int {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return len(tb.requests)
}

func (tb *tab) requestsSince(n int) []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return append([]string(nil), tb.requests[n:]...)
}

func (tb *tab) run(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, actions...); err != nil {
		tb.t.Fatal(err)
	}
}

// eval runs a JavaScript expression (awaiting a promise) and decodes its
// value into out (may be nil).
func (tb *tab) eval(expr string, out any) {
	tb.t.Helper()
	raw, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			tb.t.Fatalf("decoding %s: %v", raw, err)
		}
	}
}

// evalStrict is eval without the DevTools exemption from the page's CSP,
// so eval inside the expression meets the policy as page code would.
func (tb *tab) evalStrict(expr string, out any) {
	tb.t.Helper()
	raw, err := chromedp.Run(tb.ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise,
		func(p *cdpruntime.EvaluateParams) { p.AllowUnsafeEvalBlockedByCSP = new(false) }))
	if err != nil {
		tb.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		tb.t.Fatalf("decoding %s: %v", raw, err)
	}
}

// open loads a page of the site and waits until the core answered once.
func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.run(chromedp.Navigate(tb.base+path), chromedp.WaitVisible(chromedp.CSS("body[data-ready][data-rendered]")))
	tb.waitRender(0)
}

// allowClipboard lets the tab's page read and write the clipboard, as a
// visitor's browser does once asked.
func (tb *tab) allowClipboard() {
	tb.t.Helper()
	for _, p := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.Call(tb.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: p}, Setting: browser.PermissionSettingGranted,
			BrowserContextID: chromedp.FromContext(tb.ctx).BrowserContextID,
		}); err != nil {
			tb.t.Fatal(err)
		}
	}
}

// rendered returns the number of the last rendering.
func (tb *tab) rendered() int {
	var n int
	tb.eval(`Number(document.body.dataset.rendered || 0)`, &n)
	return n
}

// waitRender waits until the page has rendered the last job it asked the
// core for, that job is newer than after, and no build is still loading
// (the page asks again once one arrives).
func (tb *tab) waitRender(after int) {
	tb.t.Helper()
	tb.eval(fmt.Sprintf(`new Promise((resolve, reject) => {
		const b = document.body.dataset;
		const done = () => Number(b.rendered || 0) > %d && Number(b.rendered) >= Number(b.requested || 0) && !b.busy;
		if (done()) return resolve(true);
		const timer = setTimeout(() => reject(new Error("no rendering within 40 s")), 40000);
		document.addEventListener("subplay:rendered", function on() {
			if (done()) { clearTimeout(timer); document.removeEventListener("subplay:rendered", on); resolve(true); }
		});
	})`, after), nil)
}

// setConfig replaces the editor's text and waits for the previews.
func (tb *tab) setConfig(text string) {
	tb.t.Helper()
	n := tb.rendered()
	b, _ := json.Marshal(text)
	tb.eval(`window.subplayPage.setConfig(`+string(b)+`), true`, nil)
	tb.waitRender(n)
}

// clickTab selects a preview tab and waits for its rendering.
func (tb *tab) clickTab(name string) {
	tb.t.Helper()
	n := tb.rendered()
	tb.run(chromedp.Click(chromedp.CSS(`#tab-` + name)))
	tb.waitRender(n)
}

func (tb *tab) text(sel string) string {
	tb.t.Helper()
	var s string
	b, _ := json.Marshal(sel)
	tb.eval(`(document.querySelector(`+string(b)+`) || {textContent: ""}).textContent`, &s)
	return s
}

func (tb *tab) screenshot(name string) {
	tb.t.Helper()
	buf, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(shotDir, name+".png"), buf, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// checkRequests checks what a view fetched: every request is a plain GET,
// with no query, body or referrer (nothing of the user's state leaves the
// page), of a file the build lists for the view (allowed, from the
// manifest's pages); and the WebAssembly modules among them are exactly
// the builds named in modules, once each.
func checkRequests(t testing.TB, reqs []request, m siteManifest, allowed []string, modules []string) {
	t.Helper()
	var gotWasm []string
	for _, r := range reqs {
		file := strings.TrimPrefix(r.Path, "/")
		if file == "" {
			file = "index.html"
		}
		if r.Method != http.MethodGet || r.Query != "" || r.Body > 0 || r.Referer != "" {
			t.Errorf("request %+v: want a GET with no query, body or referrer", r)
		}
		if !slices.Contains(allowed, file) {
			t.Errorf("request for %q, which the view does not need (it needs %v)", r.Path, allowed)
		}
		if strings.HasSuffix(file, ".wasm") {
			gotWasm = append(gotWasm, file)
		}
	}
	var want []string
	for _, name := range modules {
		want = append(want, m.Wasm[name].File)
	}
	slices.Sort(gotWasm)
	slices.Sort(want)
	if !slices.Equal(gotWasm, want) {
		t.Errorf("modules fetched %v, want %v (builds %v)", gotWasm, want, modules)
	}
}
