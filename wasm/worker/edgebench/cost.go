package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
	"github.com/subplay/subplay/wasm/worker/memstat"
)

// caseCost is one line of "edgebench cost": what one hostile case costs a
// server that has nothing else to do.
type caseCost struct {
	Name      string  `json:"name"`
	Op        string  `json:"op"`
	BodyBytes int     `json:"bodyBytes"`
	Status    int     `json:"status"`              // 0: no answer
	Ms        float64 `json:"ms"`                  // the fastest of -n tries
	PeakRSSMB float64 `json:"peakRssMB,omitempty"` // the server's peak RSS (VmHWM) after the case, with -pid
	// With -pid: the server's RSS now, split by kind of mapping (smaps.go).
	RSSMB  float64        `json:"rssMB,omitempty"`
	Split  *memSplit      `json:"split,omitempty"`
	Memory *memstat.Stats `json:"memory,omitempty"` // with -memory: the Go instance's, after the case
}

// cost sends every hostile case (or those -cases matches) -n times, one
// request at a time, and prints one JSON line per case: its body size, its
// answer and the fastest time. It shows which cases hold a single-threaded
// server (one isolate in workerd) for long, and for how long, and (with
// -pid) which raise the server's peak memory, and by what kind of memory
// (its mappings, and with -memory the Go instance's own figures).
func cost(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cost", flag.ContinueOnError)
	base := fs.String("url", "", "the server's base URL (loopback only)")
	n := fs.Int("n", 2, "tries per case; the fastest counts")
	pid := fs.Int("pid", 0, "the server's process id, for its peak RSS after each case")
	only := fs.String("cases", "", "send only the hostile cases whose name matches this regular expression")
	first := fs.Bool("start", false, "first print a line for the server before any case (no name, no request): its memory to compare with")
	memURL := fs.String("memory", "", "a worker built with subplay_testhooks (loopback only): its Go instance's memory, GET /__test/memory, after each case")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := loopbackURL(*base); err != nil {
		return err
	}
	if *memURL != "" {
		if _, err := loopbackURL(*memURL); err != nil {
			return err
		}
	}
	re, err := regexp.Compile(*only)
	if err != nil {
		return fmt.Errorf("-cases: %w", err)
	}
	client := newClient(1, 2*time.Minute)
	enc := json.NewEncoder(stdout)
	// measure adds the server's memory after a case to r.
	measure := func(r *caseCost) error {
		if *memURL != "" {
			m, err := readGoMemory(client, *memURL)
			if err != nil {
				return err
			}
			r.Memory = &m
		}
		if *pid > 0 {
			kib, _ := peakKiB(*pid)
			r.PeakRSSMB = float64(kib) / 1024
			kib, _ = rssKiB(*pid)
			r.RSSMB = float64(kib) / 1024
			if sp, err := splitRSS(*pid); err == nil {
				r.Split = &sp
			}
		}
		return nil
	}
	if *first {
		var r caseCost
		if err := measure(&r); err != nil {
			return err
		}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	for _, c := range hostile.V8Host() {
		if !re.MatchString(c.Name) {
			continue
		}
		body := c.Body()
		r := caseCost{Name: c.Name, Op: c.Op, BodyBytes: len(body)}
		for i := 0; i < max(*n, 1); i++ {
			start := time.Now()
			resp, err := client.Post(*base+"/v1/"+c.Op, "application/json", bytes.NewReader(body))
			d := ms(time.Since(start))
			if err != nil {
				r.Status = 0
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			r.Status = resp.StatusCode
			if i == 0 || d < r.Ms {
				r.Ms = d
			}
			if resp.StatusCode == http.StatusServiceUnavailable {
				time.Sleep(time.Second) // a busy answer: let the server recover
			}
		}
		if err := measure(&r); err != nil {
			return err
		}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return nil
}

func readGoMemory(client *http.Client, base string) (memstat.Stats, error) {
	var m memstat.Stats
	resp, err := client.Get(base + "/__test/memory")
	if err != nil {
		return m, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return m, fmt.Errorf("%s/__test/memory answered %s: not a subplay_testhooks build?", base, resp.Status)
	}
	return m, json.NewDecoder(resp.Body).Decode(&m)
}
