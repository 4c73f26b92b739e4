package httpapi

import (
	"context"
	"net/http"
	"os"
	"runtime/debug"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

// TestListenAndServeSetsTheCollector checks that a native server sets the
// process's soft memory limit and the collector's target, as
// core/limits/server.go says, and serves until its context ends.
func TestListenAndServeSetsTheCollector(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set: the server leaves the collector as they say")
	}
	// Both are process-wide: put back what the test binary had.
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(-1)
	defer func() { debug.SetGCPercent(oldPercent); debug.SetMemoryLimit(oldLimit) }()

	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- ListenAndServe(ctx, "127.0.0.1:0", Handler(), func(addr string) { ready <- addr })
	}()
	addr := <-ready
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz: %d, want 200", resp.StatusCode)
	}
	if got := debug.SetGCPercent(100); got != limits.HTTPGCPercent {
		t.Errorf("the collector's target is %d%%, want %d%%", got, limits.HTTPGCPercent)
	}
	if got := debug.SetMemoryLimit(-1); got != limits.HTTPMemoryLimitMB<<20 {
		t.Errorf("the soft memory limit is %d bytes, want %d", got, limits.HTTPMemoryLimitMB<<20)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ListenAndServe after its context ended: %v", err)
	}
}
