// Command coldcmp compares cold loads of built playgrounds in one headless
// Chromium, alternating between them load by load, so that a busy machine
// weighs on each alike. For each load it prints the time from navigation
// to the first preview (and with -wait live, to the core's first answer
// drawn, with its compile and Go start), and the CPU time the browser's
// processes spent on it, read from /proc: on a machine shared by many
// processes the wall times mostly measure the wait for a core, while the
// CPU time is the work a change adds or removes.
//
//	go run ./site/tools/coldcmp -dirs dist/site,dist/site-b -n 4 [-wait live]
//
// Each directory is served by `subplay serve`'s handler (httpapi.Site);
// every load is in a fresh browser context, so its cache is cold.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/subplay/subplay/core/httpapi"
)

func main() {
	dirs := flag.String("dirs", "dist/site", "built sites to compare, comma-separated")
	n := flag.Int("n", 3, "loads of each")
	wait := flag.String("wait", "first", "first (the first preview) or live (the core's first answer drawn)")
	hash := flag.String("hash", "", "the address's fragment, e.g. #tab=filter (no build-time preview then)")
	chromium := flag.String("chromium", "/usr/bin/chromium", "")
	flag.Parse()
	var bases []string
	for _, d := range strings.Split(*dirs, ",") {
		site, err := httpapi.Site(d)
		if err != nil {
			fmt.Fprintln(os.Stderr, "coldcmp:", err)
			os.Exit(1)
		}
		addr := make(chan string, 1)
		go func() {
			err := httpapi.ListenAndServe(context.Background(), "127.0.0.1:0", site, func(a string) { addr <- a })
			fmt.Fprintln(os.Stderr, "coldcmp:", err)
			os.Exit(1)
		}()
		bases = append(bases, "http://"+<-addr+"/")
	}
	tmp, err := os.MkdirTemp("", "coldcmp-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "coldcmp:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(tmp)
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(*chromium), chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true), chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(filepath.Join(tmp, "p")), chromedp.WindowSize(1280, 900)}
	actx, c1 := chromedp.NewExecAllocator(context.Background(), opts...)
	defer c1()
	bctx, c2 := chromedp.NewContext(actx)
	defer c2()
	chromedp.Do(bctx)
	dl := strings.Split(*dirs, ",")
	res := map[string][][]float64{}
	expr := `new Promise((res) => { const f = () => window.subplayFirstPreview !== undefined ? res({first: window.subplayFirstPreview, fcp: (performance.getEntriesByName("first-contentful-paint")[0]||{}).startTime||0, built: document.body.dataset.firstPaint || ""}) : setTimeout(f, 10); f(); })`
	if *wait == "live" {
		expr = `new Promise((res) => { const f = () => window.subplayFirstCall ? res({first: window.subplayFirstPreview, live: window.subplayFirstCall.done, fcp: (performance.getEntriesByName("first-contentful-paint")[0]||{}).startTime||0, compile: (window.subplayTiming||{}).compile||0, start: (window.subplayTiming||{}).start||0, ready: (window.subplayTiming||{}).readyAt||0, built: document.body.dataset.firstPaint || ""}) : setTimeout(f, 20); f(); })`
	}
	for i := 0; i < *n; i++ {
		for j, base := range bases {
			ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
			ctx, c3 := context.WithTimeout(ctx, 240*time.Second)
			c0 := cpuSnap(tmp)
			var r map[string]any
			err := chromedp.Do(ctx, chromedp.Navigate(base+*hash))
			if err == nil {
				var raw []byte
				raw, err = chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr, chromedp.EvalAwaitPromise))
				if err == nil {
					err = json.Unmarshal(raw, &r)
				}
			}
			cpu := cpuSince(tmp, c0)
			c3()
			cancel()
			if err != nil {
				fmt.Println(dl[j], err)
				continue
			}
			f := func(k string) float64 { v, _ := r[k].(float64); return v }
			row := []float64{f("first"), f("fcp"), f("live"), f("compile"), f("start"), f("ready"), cpu}
			res[dl[j]] = append(res[dl[j]], row)
			fmt.Printf("%s: first %.0f fcp %.0f live %.0f compile %.0f start %.0f ready %.0f cpu %.0f built %v (load %s)\n", dl[j], row[0], row[1], row[2], row[3], row[4], row[5], row[6], r["built"], loadavg())
		}
	}
	for _, d := range dl {
		var cols [7][]float64
		for _, r := range res[d] {
			for k := range 7 {
				cols[k] = append(cols[k], r[k])
			}
		}
		med := func(xs []float64) float64 {
			if len(xs) == 0 {
				return 0
			}
			slices.Sort(xs)
			return xs[len(xs)/2]
		}
		fmt.Printf("MEDIAN %-20s first %5.0f fcp %5.0f live %5.0f compile %5.0f start %5.0f ready %5.0f cpu %5.0f (n=%d)\n", d, med(cols[0]), med(cols[1]), med(cols[2]), med(cols[3]), med(cols[4]), med(cols[5]), med(cols[6]), len(res[d]))
	}
}

// cpuSnap returns user+system CPU ticks of every process under the browser
// whose command line holds marker (the profile dir), per pid.
func cpuSnap(marker string) map[int]float64 {
	ents, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	ticks := map[int]float64{}
	root := -1
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(st)[strings.LastIndexByte(string(st), ')')+2:])
		pp, _ := strconv.Atoi(f[1])
		u, _ := strconv.ParseFloat(f[11], 64)
		sy, _ := strconv.ParseFloat(f[12], 64)
		parent[pid] = pp
		ticks[pid] = u + sy
		if cl, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); root < 0 && strings.Contains(string(cl), marker) && !strings.Contains(string(cl), "crashpad") && !strings.Contains(string(cl), "--type=") {
			root = pid
		}
	}
	out := map[int]float64{}
	for pid, t := range ticks {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				out[pid] = t
				break
			}
		}
	}
	return out
}

// cpuSince is the CPU ms the browser's processes spent since snapshot s0
// (processes that ended in between are left out).
func cpuSince(marker string, s0 map[int]float64) float64 {
	total := 0.0
	for pid, t := range cpuSnap(marker) {
		total += t - s0[pid]
	}
	return total * 10
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
