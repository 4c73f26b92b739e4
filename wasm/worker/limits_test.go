package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

// The deployed worker's CPU limit is the native server's time limit per
// operation: one bound, whichever server answers.
func TestCPULimitMatches(t *testing.T) {
	b, err := os.ReadFile("wrangler.jsonc")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`"cpu_ms":\s*(\d+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal(`wrangler.jsonc sets no "limits": {"cpu_ms": ...}`)
	}
	if got, _ := strconv.Atoi(string(m[1])); got != limits.HTTPOperationMillis {
		t.Errorf("wrangler.jsonc cpu_ms = %d, limits.HTTPOperationMillis = %d", got, limits.HTTPOperationMillis)
	}
}
