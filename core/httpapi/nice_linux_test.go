//go:build linux

package httpapi

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// A costly operation (here a large body) runs on a thread of its own at
// the priority costlyNice says; an ordinary one, and every operation when
// costlyNice is 0, on the runtime's threads as they are. The lowered
// thread ends with its operation: no thread that runs goroutines keeps its
// priority (a thread the runtime made from it would inherit it; Go makes
// new threads from a clean one while the current one is locked).
func TestCostlyOperationsRunLowered(t *testing.T) {
	base := threadNice()
	defer costlyNice.Store(costlyNice.Load())
	for _, tc := range []struct {
		nice int32
		body string
		want int
		what string
	}{
		{limits.HTTPCostlyNice, largeBody, limits.HTTPCostlyNice, "a costly operation"},
		{limits.HTTPCostlyNice, `{"config":{}}`, base, "an ordinary operation"},
		{0, largeBody, base, "a costly operation, none lowered"},
	} {
		costlyNice.Store(tc.nice)
		h, _ := guardedHandler(t, newBlockingRun(), time.Second, time.Minute)
		var seen int
		h.run = func(context.Context, *playground.Op, []byte) ([]byte, error) {
			seen = threadNice()
			time.Sleep(time.Millisecond) // the runtime may start threads meanwhile
			return []byte(`{}`), nil
		}
		for range 20 {
			if rec := post(h, context.Background(), tc.body); rec.Code != http.StatusOK {
				t.Fatalf("%s: status %d, body %s", tc.what, rec.Code, rec.Body)
			}
			if seen != tc.want {
				t.Fatalf("%s ran at nice %d, want %d", tc.what, seen, tc.want)
			}
		}
		waitFree(t, h)
	}
	// Every thread back at base once the lowered ones have ended.
	deadline := time.Now().Add(2 * time.Second)
	for {
		lowered := threadsNot(t, base)
		if lowered == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d threads of the process are not at nice %d after the operations ended", lowered, base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// threadsNot counts the process's threads whose nice is not n
// (/proc/self/task/*/stat, its 19th field), but the main one: Go parks
// it for good, never to run a goroutine again, when a goroutine locked to
// it ends.
func threadsNot(t *testing.T, n int) int {
	t.Helper()
	stats, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil || len(stats) == 0 {
		t.Fatalf("no thread list: %v", err)
	}
	count := 0
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		// The fields after the command's closing parenthesis, from the
		// third (state): nice is the 19th field, the 17th of these.
		rest := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(rest) > 16 && rest[16] != strconv.Itoa(n) && filepath.Base(filepath.Dir(p)) != strconv.Itoa(os.Getpid()) {
			count++
		}
	}
	return count
}

// threadNice is the nice of the calling goroutine's OS thread now (the
// raw getpriority gives 20 - nice).
func threadNice() int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		return -100
	}
	return 20 - p
}
