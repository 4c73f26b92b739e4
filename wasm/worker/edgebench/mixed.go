package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/subplay/subplay/core/playground/hostile"
)

// hostileFailure says whether a hostile request's answer failed: a 5xx
// other than 503 (a failed Go instance, a failed extra worker). A hostile
// request may be refused, with a 4xx or a 503 (busy, timeout), never
// failed; scripts/load-edge and scripts/test-edge both budget this.
func hostileFailure(status int) bool {
	return status >= 500 && status != http.StatusServiceUnavailable
}

// mixedResult is the one JSON line that "edgebench mixed" prints.
type mixedResult struct {
	URL             string         `json:"url"`
	Ordinary        int            `json:"ordinaryClients"`
	Hostile         int            `json:"hostileClients"`
	Slow            int            `json:"slowClients"`
	PhaseSeconds    float64        `json:"phaseSeconds"`
	Unloaded        phase          `json:"unloaded"`
	Loaded          phase          `json:"loaded"`
	Ratio95         float64        `json:"p95Ratio"`
	HostileByStatus map[string]int `json:"hostileByStatus"` // "case status" -> count
	HostileFailed   map[string]int `json:"hostileFailed"`   // the same, for the answers that failed (hostileFailure)
	HostileMaxMs    float64        `json:"hostileMaxMs"`
	SlowEnded       map[string]int `json:"slowEnded"` // how each slow client's connection ended
	// SlowBeside names the hostile cases that were in flight beside the
	// loaded phase's ordinary requests slower than 3 times the unloaded
	// p95 (the budget's line), the most often first: where to look when
	// the ratio is over budget.
	SlowBeside []beside   `json:"slowBeside,omitempty"`
	SlowCount  int        `json:"slowCount"` // ordinary requests over that line
	ServerUp   bool       `json:"serverUp"`  // every process lives and /version answers at the end
	PeakRSSMB  float64    `json:"peakRssMB"` // the sum of the processes' VmHWM, with -pid
	Processes  []procPeak `json:"processes"` // each process of -pid
	// With -metrics: what each phase cost the server's Go runtime and the
	// client (runtime.go), or why there are no such figures (a server that
	// died answers no signal: its death is the result, not an error).
	Runtime      map[string]phaseRuntime `json:"runtime,omitempty"`
	RuntimeError string                  `json:"runtimeError,omitempty"`
}

// procPeak is one server process's peak resident set (VmHWM) at the end
// of the run, and whether that same process still lives: one restarted
// in the meantime has another pid, so it counts as dead.
type procPeak struct {
	Name      string  `json:"name"`
	PID       int     `json:"pid"`
	PeakRSSMB float64 `json:"peakRssMB"`
	// OrdinaryPeakRSSMB is the peak at the end of the first phase, before
	// any hostile request: what the ordinary load alone takes the process
	// to, so that the second phase's growth is what hostile requests add.
	OrdinaryPeakRSSMB float64 `json:"ordinaryPeakRssMB"`
	Alive             bool    `json:"alive"`
}

// beside is one hostile case's share of the slow ordinary requests: how
// many of them one of its requests overlapped, of how many it sent, and
// its longest answer.
type beside struct {
	Case      string  `json:"case"`
	Slow      int     `json:"slow"`
	Requests  int     `json:"requests"`
	LongestMs float64 `json:"longestMs"`
}

// span is one request's time on the client's clock; c is its hostile
// case's index (ordinary requests have none).
type span struct {
	start, end time.Time
	c          int
}

type phase struct {
	Requests  int64   `json:"requests"`
	Status5xx int64   `json:"status5xx"`
	Errors    int64   `json:"errors"` // no answer at all (a refused or broken connection)
	Other     int64   `json:"otherStatus"`
	P50Ms     float64 `json:"p50Ms"`
	P95Ms     float64 `json:"p95Ms"`
	P99Ms     float64 `json:"p99Ms"`
}

// mixed measures what hostile requests cost ordinary ones. Phase one sends
// only ordinary requests (-c minus -hostile clients); phase two sends the
// same plus -hostile clients cycling through every case of the hostile
// corpus and -slow clients that dribble a request body a byte at a time.
// Both phases are bounded by -d and -max.
func mixed(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mixed", flag.ContinueOnError)
	base := fs.String("url", "", "the server's base URL (loopback only)")
	bodyFile := fs.String("body", "", "the ordinary request body, POSTed to -path")
	path := fs.String("path", "/v1/validate", "where the ordinary requests go: an operation of the API")
	conc := fs.Int("c", 8, "concurrent clients in all")
	nHostile := fs.Int("hostile", 2, "of which send hostile requests in the loaded phase")
	nSlow := fs.Int("slow", 2, "slow-body clients beside them in the loaded phase")
	dur := fs.Duration("d", 20*time.Second, "duration of each phase")
	maxReq := fs.Int64("max", 100_000, "at most this many ordinary requests per phase")
	pids := fs.String("pid", "", "the server's processes, for each one's peak RSS and whether it lives: PID, or NAME=PID,NAME=PID (the edge's workerd processes)")
	only := fs.String("cases", "", "send only the hostile cases whose name matches this regular expression")
	metricsFile := fs.String("metrics", "", "the -metrics file of the one server process of -pid (edgebench serve): report what each phase cost its Go runtime")
	if err := fs.Parse(args); err != nil {
		return err
	}
	u, err := loopbackURL(*base)
	if err != nil {
		return err
	}
	procs, err := parsePids(*pids)
	if err != nil {
		return fmt.Errorf("-pid: %w", err)
	}
	if *metricsFile != "" && len(procs) != 1 {
		return fmt.Errorf("-metrics needs -pid to name the one server process")
	}
	if *nHostile < 1 || *nHostile >= *conc {
		return fmt.Errorf("-hostile must be between 1 and -c minus 1")
	}
	if !strings.HasPrefix(*path, "/v1/") {
		return fmt.Errorf("-path %q is not an operation of the API (/v1/...)", *path)
	}
	body, err := os.ReadFile(*bodyFile)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(*only)
	if err != nil {
		return fmt.Errorf("-cases: %w", err)
	}
	var cases []hostile.Case
	for _, c := range hostile.V8Host() {
		if re.MatchString(c.Name) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return fmt.Errorf("no hostile case matches %q", *only)
	}
	bodies := make([][]byte, len(cases))
	for i, c := range cases {
		bodies[i] = c.Body()
	}
	client := newClient(*conc, 2*time.Minute)
	post := func(path string, b []byte) (int, time.Duration, error) {
		start := time.Now()
		resp, err := client.Post(*base+path, "application/json", bytes.NewReader(b))
		if err != nil {
			return 0, time.Since(start), err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, time.Since(start), err
	}
	for i := 0; i < 20; i++ { // warm-up
		if _, _, err := post(*path, body); err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}

	ordinary := *conc - *nHostile
	runOrdinary := func(stop <-chan struct{}, spans *[]span) phase {
		var mu sync.Mutex
		var lat []time.Duration
		var p phase
		var issued atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < ordinary; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for issued.Add(1) <= *maxReq {
					select {
					case <-stop:
						return
					default:
					}
					status, d, err := post(*path, body)
					mu.Lock()
					p.Requests++
					switch {
					case err != nil:
						p.Errors++
					case status >= 500:
						p.Status5xx++
					case status != http.StatusOK:
						p.Other++
					default:
						lat = append(lat, d)
						if spans != nil {
							now := time.Now()
							*spans = append(*spans, span{start: now.Add(-d), end: now, c: -1})
						}
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		slices.Sort(lat)
		p.P50Ms, p.P95Ms, p.P99Ms = ms(pct(lat, 50)), ms(pct(lat, 95)), ms(pct(lat, 99))
		return p
	}

	res := mixedResult{URL: *base, Ordinary: ordinary, Hostile: *nHostile, Slow: *nSlow,
		PhaseSeconds: dur.Seconds(), HostileByStatus: map[string]int{}, HostileFailed: map[string]int{}, SlowEnded: map[string]int{}}

	// The server's and the client's runtime figures at each phase's
	// boundaries, with -metrics.
	var marks []snapshot
	var clientMarks []float64
	mark := func() {
		if *metricsFile == "" || res.RuntimeError != "" {
			return
		}
		s, err := askSnapshot(procs[0].PID, *metricsFile)
		if err != nil {
			res.RuntimeError = err.Error()
			return
		}
		marks, clientMarks = append(marks, s), append(clientMarks, hostile.ProcessCPU().Seconds())
	}
	mark()
	stop := make(chan struct{})
	timer := time.AfterFunc(*dur, func() { close(stop) })
	res.Unloaded = runOrdinary(stop, nil)
	timer.Stop()
	mark()
	for i := range procs {
		kib, _ := peakKiB(procs[i].PID)
		procs[i].OrdinaryPeakRSSMB = float64(kib) / 1024
	}

	stop = make(chan struct{})
	var hmu sync.Mutex
	var bg sync.WaitGroup
	var next atomic.Int64
	var hostileSpans, ordinarySpans []span
	for w := 0; w < *nHostile; w++ {
		bg.Add(1)
		go func() {
			defer bg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				i := int(next.Add(1)-1) % len(cases)
				status, d, err := post("/v1/"+cases[i].Op, bodies[i])
				key := cases[i].Name + " " + strconv.Itoa(status)
				if err != nil {
					key = cases[i].Name + " error"
				}
				hmu.Lock()
				now := time.Now()
				hostileSpans = append(hostileSpans, span{start: now.Add(-d), end: now, c: i})
				res.HostileByStatus[key]++
				if err == nil && hostileFailure(status) {
					res.HostileFailed[key]++
				}
				res.HostileMaxMs = max(res.HostileMaxMs, ms(d))
				hmu.Unlock()
			}
		}()
	}
	for w := 0; w < *nSlow; w++ {
		bg.Add(1)
		go func() {
			defer bg.Done()
			how := slowClient(u.Host, stop)
			hmu.Lock()
			res.SlowEnded[how]++
			hmu.Unlock()
		}()
	}
	timer = time.AfterFunc(*dur, func() { close(stop) })
	res.Loaded = runOrdinary(stop, &ordinarySpans)
	mark()
	bg.Wait()
	res.SlowCount, res.SlowBeside = slowBeside(ordinarySpans, hostileSpans, cases, 3*res.Unloaded.P95Ms)
	if len(marks) == 3 {
		res.Runtime = map[string]phaseRuntime{
			"unloaded": phaseCost(marks[0], marks[1], clientMarks[0], clientMarks[1]),
			"loaded":   phaseCost(marks[1], marks[2], clientMarks[1], clientMarks[2]),
		}
	}
	if res.Unloaded.P95Ms > 0 {
		res.Ratio95 = res.Loaded.P95Ms / res.Unloaded.P95Ms
	}

	res.ServerUp = true
	for _, p := range procs {
		kib, alive := peakKiB(p.PID)
		p.PeakRSSMB, p.Alive = float64(kib)/1024, alive
		res.PeakRSSMB += p.PeakRSSMB
		res.ServerUp = res.ServerUp && alive
		res.Processes = append(res.Processes, p)
	}
	if status, _, err := post("/v1/version", []byte("{}")); err != nil || status != http.StatusOK {
		res.ServerUp = false
	}
	return json.NewEncoder(stdout).Encode(res)
}

// slowBeside counts, for each hostile case, the ordinary requests over
// lineMs that one of its requests overlapped in time, and returns how many
// were over the line and the cases that overlapped any, the most first (at
// most 12). Overlap is not cause: two hostile clients run at once, so each
// slow request has two neighbours, and a case that runs long overlaps
// more; the case's own count and longest answer are there to weigh it.
func slowBeside(ordinary, hostileSpans []span, cases []hostile.Case, lineMs float64) (int, []beside) {
	if lineMs <= 0 {
		return 0, nil
	}
	per := make([]beside, len(cases))
	for i := range per {
		per[i].Case = cases[i].Name
	}
	for _, h := range hostileSpans {
		per[h.c].Requests++
		per[h.c].LongestMs = max(per[h.c].LongestMs, ms(h.end.Sub(h.start)))
	}
	n := 0
	for _, o := range ordinary {
		if ms(o.end.Sub(o.start)) <= lineMs {
			continue
		}
		n++
		seen := map[int]bool{}
		for _, h := range hostileSpans {
			if h.start.Before(o.end) && o.start.Before(h.end) && !seen[h.c] {
				seen[h.c] = true
				per[h.c].Slow++
			}
		}
	}
	var out []beside
	for _, b := range per {
		if b.Slow > 0 {
			out = append(out, b)
		}
	}
	slices.SortStableFunc(out, func(a, b beside) int { return b.Slow - a.Slow })
	return n, out[:min(len(out), 12)]
}

// parsePids reads -pid: empty, one PID (named "server"), or NAME=PID pairs
// separated by commas.
func parsePids(s string) ([]procPeak, error) {
	if s == "" {
		return nil, nil
	}
	var out []procPeak
	for _, part := range strings.Split(s, ",") {
		name, num, named := strings.Cut(part, "=")
		if !named {
			name, num = "server", part
		}
		pid, err := strconv.Atoi(num)
		if err != nil || pid <= 0 || name == "" {
			return nil, fmt.Errorf("want PID or NAME=PID,NAME=PID, not %q", s)
		}
		for _, p := range out {
			if p.Name == name {
				return nil, fmt.Errorf("the name %q is given twice", name)
			}
		}
		out = append(out, procPeak{Name: name, PID: pid})
	}
	if len(out) > 1 && out[0].Name == "server" {
		return nil, fmt.Errorf("name every process when there are several, not %q", s)
	}
	return out, nil
}

// slowClient sends a request whose body arrives a byte every 100 ms, as a
// slow-body attack does, until the server closes the connection or stop.
// It says how the connection ended.
func slowClient(host string, stop <-chan struct{}) string {
	conn, err := net.DialTimeout("tcp", host, 5*time.Second)
	if err != nil {
		return "refused"
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /v1/validate HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"text\":\"", host)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return "still open at the end"
		case <-tick.C:
			conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := conn.Write([]byte(" ")); err != nil {
				return "closed by the server"
			}
			// A server that gives up may answer first (408) and then close.
			conn.SetReadDeadline(time.Now().Add(time.Millisecond))
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
				resp.Body.Close()
				return "answered " + strconv.Itoa(resp.StatusCode)
			} else if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
				return "closed by the server"
			}
		}
	}
}

// peakKiB reads a process's peak resident set (VmHWM) and whether it lives.
func peakKiB(pid int) (int, bool) { return statusKiB(pid, "VmHWM:") }

// rssKiB is the process's resident memory now (VmRSS).
func rssKiB(pid int) (int, bool) { return statusKiB(pid, "VmRSS:") }

func statusKiB(pid int, field string) (int, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n, !strings.Contains(string(b), "State:\tZ")
		}
	}
	return 0, true
}
