// Command edgebench is the measuring half of scripts/bench-edge: it serves
// the API natively on loopback, and it loads a server with requests and
// reports latency percentiles and throughput as one JSON line.
//
//	edgebench serve -addr 127.0.0.1:0 -ready FILE [-metrics FILE]
//	edgebench load -url URL -body FILE [-n 200] [-warmup 20] [-c 8] [-d 20s] [-max 200000]
//	edgebench mixed -url BASE -body FILE [-c 8] [-hostile 2] [-slow 2] [-d 20s] [-pid PID or NAME=PID,NAME=PID] [-metrics FILE]
//	edgebench cost -url BASE [-n 2] [-cases REGEXP]
//
// mixed is the load test (scripts/load-edge): ordinary
// requests alone, then beside hostile ones from core/playground/hostile.
//
// Every loop is bounded by a count and a duration, and only loopback URLs
// are accepted.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/subplay/subplay/core/httpapi"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: edgebench serve|load|mixed|cost [flags]")
		return 2
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(args[1:], stderr)
	case "load":
		err = load(args[1:], stdout)
	case "mixed":
		err = mixed(args[1:], stdout)
	case "cost":
		err = cost(args[1:], stdout)
	default:
		err = fmt.Errorf("unknown command %q", args[0])
	}
	if err != nil {
		fmt.Fprintln(stderr, "edgebench:", err)
		return 1
	}
	return 0
}

func serve(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	ready := fs.String("ready", "", "file to write the base URL to once listening")
	metricsFile := fs.String("metrics", "", "on each SIGUSR1, append a line of the Go runtime's CPU, collector and scheduler figures to this file (runtime.go)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *metricsFile != "" {
		if err := serveMetrics(*metricsFile); err != nil {
			return err
		}
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return err
	}
	if !isLoopback(host) {
		return fmt.Errorf("-addr must be a loopback address, not %q", *addr)
	}
	// The same server as subplay serve: its time-outs, bounds and memory
	// limit are part of what is measured.
	var readyErr error
	err = httpapi.ListenAndServe(context.Background(), *addr, httpapi.Handler(), func(addr string) {
		base := "http://" + addr
		if *ready != "" {
			readyErr = os.WriteFile(*ready, []byte(base), 0o644)
		}
		fmt.Fprintln(stderr, "edgebench: serving the API natively at", base)
	})
	if readyErr != nil {
		return readyErr
	}
	return err
}

type result struct {
	URL        string  `json:"url"`
	FirstMs    float64 `json:"firstMs"` // the first request, which may start an instance
	P50Ms      float64 `json:"p50Ms"`
	P95Ms      float64 `json:"p95Ms"`
	P99Ms      float64 `json:"p99Ms"`
	Sequential int     `json:"sequential"`
	Conc       int     `json:"concurrency"`
	Seconds    float64 `json:"seconds"`
	Requests   int64   `json:"requests"`
	RPS        float64 `json:"rps"`
	Errors     int64   `json:"errors"`
}

func load(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	target := fs.String("url", "", "the full URL to POST to (loopback only)")
	bodyFile := fs.String("body", "", "the request body (JSON)")
	n := fs.Int("n", 200, "sequential requests measured for the latency percentiles")
	warmup := fs.Int("warmup", 20, "requests sent before measuring")
	conc := fs.Int("c", 8, "concurrent clients for the throughput run")
	dur := fs.Duration("d", 20*time.Second, "duration of the throughput run")
	maxReq := fs.Int64("max", 200_000, "at most this many requests in the throughput run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := loopbackURL(*target); err != nil {
		return err
	}
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		return err
	}
	client := newClient(*conc, 30*time.Second)
	post := func() (time.Duration, error) {
		start := time.Now()
		resp, err := client.Post(*target, "application/json", bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		return time.Since(start), err
	}

	res := result{URL: *target, Sequential: *n, Conc: *conc}
	first, err := post()
	if err != nil {
		return fmt.Errorf("first request: %w", err)
	}
	res.FirstMs = ms(first)
	for i := 0; i < *warmup; i++ {
		if _, err := post(); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}
	lat := make([]time.Duration, 0, *n)
	for i := 0; i < *n; i++ {
		d, err := post()
		if err != nil {
			return fmt.Errorf("latency run: %w", err)
		}
		lat = append(lat, d)
	}
	slices.Sort(lat)
	res.P50Ms, res.P95Ms, res.P99Ms = ms(pct(lat, 50)), ms(pct(lat, 95)), ms(pct(lat, 99))

	var issued, done, errs atomic.Int64
	var firstErr atomic.Value
	deadline := time.Now().Add(*dur)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < *conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A slot is taken before the request is sent, so the clients
			// together never exceed -max.
			for time.Now().Before(deadline) && issued.Add(1) <= *maxReq {
				if _, err := post(); err != nil {
					errs.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
					continue
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	res.Seconds = time.Since(start).Seconds()
	res.Requests, res.Errors = done.Load(), errs.Load()
	res.RPS = float64(res.Requests) / res.Seconds
	if res.Errors > 0 {
		fmt.Fprintf(os.Stderr, "edgebench: %d requests failed, the first with %v\n", res.Errors, firstErr.Load())
	}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		return err
	}
	if res.Requests == 0 {
		return errors.New("no request succeeded in the throughput run")
	}
	return nil
}

// isLoopback says whether host names this machine only.
func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// loopbackURL parses a -url flag, which must point at this machine.
func loopbackURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	if !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("-url must be on loopback, not %q", raw)
	}
	return u, nil
}

// newClient is an HTTP client that keeps a connection per concurrent
// client alive, so the figures measure requests, not TCP handshakes.
func newClient(conc int, timeout time.Duration) *http.Client {
	return &http.Client{Timeout: timeout, Transport: &http.Transport{MaxIdleConnsPerHost: conc * 2}}
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[min(max(i-1, 0), len(sorted)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
