// Command codecache shows whether Chromium stores the playground's compiled
// WebAssembly in its code cache and uses it on the next visit. It visits a
// built site in a browser profile on disk (an off-the-record context keeps
// no code cache), keeps the first visit open as long as -keep says (a
// person reads the page; V8 writes the cache only once no new optimised
// code was made for 2 s), then visits again -visits times. For each visit
// it prints the page's own timing (fetch, compile, Go start, first call),
// the code cache's events from a Chromium trace (v8.wasm.cachedModule with
// the size written, v8.wasm.moduleCacheHit with the size read,
// v8.wasm.moduleCacheInvalid) and V8's deserialisation time, and what the
// profile's Code Cache/wasm directory holds.
//
//	go run ./site/tools/codecache -dir dist/site-test[,dist/site-b] -keep 10s -visits 3 [-edits 20] [-js-flags 'A;B']
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/subplay/subplay/core/httpapi"
)

func main() {
	dir := flag.String("dir", "dist/site", "the built site; several, comma-separated, start one browser each, visited alternately")
	visits := flag.Int("visits", 3, "visits after the first")
	keep := flag.Duration("keep", 10*time.Second, "how long the first visit stays open after the core's first answer")
	edits := flag.Int("edits", 0, "edits made on the first visit (each waits for its preview)")
	jsFlags := flag.String("js-flags", "", "V8 flags; several sets separated by ';' start one browser each, visited alternately")
	chromium := flag.String("chromium", "/usr/bin/chromium", "")
	flag.Parse()

	// One server per built site.
	bases := map[string]string{}
	for _, d := range strings.Split(*dir, ",") {
		site, err := httpapi.Site(d)
		check(err)
		addr := make(chan string, 1)
		go func() {
			err := httpapi.ListenAndServe(context.Background(), "127.0.0.1:0", site, func(a string) { addr <- a })
			check(err)
		}()
		bases[d] = "http://" + <-addr + "/"
	}
	tmp, err := os.MkdirTemp("", "codecache-")
	check(err)
	defer os.RemoveAll(tmp)

	type browser struct {
		dir, base      string
		flags, profile string
		ctx            context.Context
		runs           []pageTiming
	}
	var browsers []*browser
	var sets [][2]string // (site, V8 flags): a browser each
	for _, d := range strings.Split(*dir, ",") {
		for _, f := range strings.Split(*jsFlags, ";") {
			sets = append(sets, [2]string{d, f})
		}
	}
	for i, set := range sets {
		f := set[1]
		b := &browser{dir: set[0], base: bases[set[0]], flags: f, profile: filepath.Join(tmp, fmt.Sprint("p", i))}
		opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(*chromium), chromedp.Flag("headless", true),
			chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.UserDataDir(b.profile), chromedp.WindowSize(1280, 900)}
		if f != "" {
			opts = append(opts, chromedp.Flag("js-flags", f))
		}
		actx, c1 := chromedp.NewExecAllocator(context.Background(), opts...)
		defer c1()
		// The first tab of the allocator is in the profile's own (on-disk)
		// browser context.
		ctx, c2 := chromedp.NewContext(actx)
		defer c2()
		ctx, c3 := context.WithTimeout(ctx, 20*time.Minute)
		defer c3()
		check(chromedp.Do(ctx))
		b.ctx = ctx
		browsers = append(browsers, b)
	}

	for v := 0; v <= *visits; v++ {
		for _, b := range browsers {
			name := fmt.Sprintf("[%s, js-flags %q] visit %d", b.dir, b.flags, v+1)
			ctx := b.ctx
			events := traced(ctx, func() {
				// Leave the page first, so each visit starts a fresh worker and
				// fetches the module as a returning visitor's page does.
				check(chromedp.Do(ctx, chromedp.Navigate("about:blank")))
				check(chromedp.Do(ctx, chromedp.Navigate(b.base)))
				t := timing(ctx)
				fmt.Printf("%s: first preview %.0f ms, core's first answer %.0f ms: fetch %.0f, compile %.0f, go start %.0f, ready→sent %.0f, first call %.0f, render %.0f (load %s)\n",
					name, t.First, t.Live, t.Fetch, t.Compile, t.Start, t.Sent-t.Ready, t.Worker, t.Live-t.Got, loadavg())
				if v == 0 {
					for i := range *edits {
						edit(ctx, i)
					}
					time.Sleep(*keep)
				} else {
					b.runs = append(b.runs, t)
					time.Sleep(time.Second)
				}
			})
			for _, e := range events {
				fmt.Printf("  trace: %s\n", e)
			}
			fmt.Printf("  %s\n", cacheDir(b.profile))
		}
	}
	for _, b := range browsers {
		med := func(f func(pageTiming) float64) float64 {
			var xs []float64
			for _, r := range b.runs {
				xs = append(xs, f(r))
			}
			if len(xs) == 0 {
				return 0
			}
			slices.Sort(xs)
			return xs[len(xs)/2]
		}
		fmt.Printf("MEDIAN of visits 2-%d [%s, js-flags %q]: first preview %.0f, core's first answer %.0f: fetch %.0f, compile %.0f, go start %.0f, first call %.0f\n",
			*visits+1, b.dir, b.flags, med(func(t pageTiming) float64 { return t.First }), med(func(t pageTiming) float64 { return t.Live }),
			med(func(t pageTiming) float64 { return t.Fetch }), med(func(t pageTiming) float64 { return t.Compile }),
			med(func(t pageTiming) float64 { return t.Start }), med(func(t pageTiming) float64 { return t.Worker }))
	}
}

// pageTiming is the page's own record of its load (loader.js, page.js).
type pageTiming struct {
	First, Live, Fetch, Compile, Start, Ready, Sent, Worker, Got float64
}

func timing(ctx context.Context) pageTiming {
	var t pageTiming
	eval(ctx, `new Promise((res) => { const f = () => window.subplayFirstCall ? res((() => {
		const t = window.subplayTiming || {}, c = window.subplayFirstCall;
		return {First: window.subplayFirstPreview || 0, Live: c.done || 0, Fetch: t.fetch || 0, Compile: t.compile || 0, Start: t.start || 0,
			Ready: t.readyAt || 0, Sent: c.sent || 0, Worker: c.worker || 0, Got: c.received || 0}; })()) : setTimeout(f, 20); f(); })`, &t)
	return t
}

// edit changes the acknowledgement deadline in the editor and waits for
// the preview, as a person's edit does.
func edit(ctx context.Context, i int) {
	eval(ctx, fmt.Sprintf(`new Promise((resolve) => {
		const v = window.subplayPage.editor.view;
		const at = v.state.doc.toString().indexOf("ackDeadlineSeconds");
		if (at < 0) { resolve(false); return; }
		const end = v.state.doc.lineAt(at).to;
		document.addEventListener("subplay:rendered", () => resolve(true), { once: true });
		v.dispatch({changes: {from: at, to: end, insert: "ackDeadlineSeconds: %d"}, userEvent: "input.type"});
	})`, 20+i), nil)
}

// traced runs fn under a Chromium trace and returns, per WebAssembly
// event name (V8's "wasm.*", Blink's "v8.wasm.*"), how often it occurred,
// its total duration, and when it first and last began (ms after the
// first streaming compile in the trace); the code cache's own events are
// listed one by one, with their arguments (the sizes written and read).
func traced(ctx context.Context, fn func()) []string {
	type event struct {
		Name string          `json:"name"`
		Ph   string          `json:"ph"`
		Ts   float64         `json:"ts"`
		Dur  float64         `json:"dur"`
		Args json.RawMessage `json:"args"`
	}
	var mu sync.Mutex
	var evs []event
	done := make(chan struct{})
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	check(chromedp.Listen(lctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			defer mu.Unlock()
			for _, raw := range e.Value {
				var te event
				if json.Unmarshal(raw, &te) == nil && strings.Contains(te.Name, "wasm.") {
					evs = append(evs, te)
				}
			}
		case *tracing.EventTracingComplete:
			close(done)
		}
	}))
	_, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig: &tracing.TraceConfig{IncludedCategories: []string{
			"disabled-by-default-devtools.timeline", "v8.wasm",
		}},
	})
	check(err)
	fn()
	_, err = chromedp.Call(ctx, tracing.End, cdp.Empty{})
	check(err)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		return []string{"the trace did not complete"}
	}
	mu.Lock()
	defer mu.Unlock()
	slices.SortFunc(evs, func(a, b event) int { return int(a.Ts - b.Ts) })
	t0 := 0.0
	for _, e := range evs {
		if e.Name == "v8.wasm.streamFromResponseCallback" {
			t0 = e.Ts
			break
		}
	}
	at := func(ts float64) float64 { return (ts - t0) / 1000 }
	type sum struct {
		n               int
		ms, first, last float64
	}
	sums := map[string]*sum{}
	var out []string
	for _, e := range evs {
		switch e.Name {
		case "v8.wasm.cachedModule", "v8.wasm.moduleCacheHit", "v8.wasm.moduleCacheInvalid", "v8.wasm.moduleCacheInvalidDigest",
			"v8.wasm.streamFromResponseCallback", "v8.wasm.compiledModule":
			out = append(out, fmt.Sprintf("%+8.0f ms %s %s", at(e.Ts), e.Name, e.Args))
		}
		s := sums[e.Name]
		if s == nil {
			s = &sum{first: at(e.Ts)}
			sums[e.Name] = s
		}
		s.n++
		s.ms += e.Dur / 1000
		s.last = at(e.Ts)
	}
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		s := sums[name]
		out = append(out, fmt.Sprintf("%-40s %5d× %8.1f ms, from %+.0f to %+.0f ms", name, s.n, s.ms, s.first, s.last))
	}
	return out
}

// cacheDir says how many files the profile's WebAssembly code cache has
// and their total size.
func cacheDir(profile string) string {
	n, size := 0, int64(0)
	root := filepath.Join(profile, "Default", "Code Cache", "wasm")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n++
				size += fi.Size()
			}
		}
		return nil
	})
	return fmt.Sprintf("Code Cache/wasm: %d files, %d bytes", n, size)
}

// eval runs a JavaScript expression, awaiting a promise, and decodes its
// value into out (may be nil).
func eval(ctx context.Context, expr string, out any) {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
	check(err)
	if out != nil {
		check(json.Unmarshal(raw, out))
	}
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "codecache:", err)
		os.Exit(1)
	}
}
