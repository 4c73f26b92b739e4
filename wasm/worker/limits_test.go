package main

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/subplay/subplay/core/limits"
)

// The deployed workers' CPU limit is the native server's time limit per
// operation: one bound, whichever server answers.
func TestCPULimitMatches(t *testing.T) {
	for _, file := range []string{"wrangler.jsonc", "wrangler-extra.jsonc"} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`"cpu_ms":\s*(\d+)`).FindSubmatch(b)
			if m == nil {
				t.Fatalf(`%s sets no "limits": {"cpu_ms": ...}`, file)
			}
			if got, _ := strconv.Atoi(string(m[1])); got != limits.HTTPOperationMillis {
				t.Errorf("%s cpu_ms = %d, limits.HTTPOperationMillis = %d", file, got, limits.HTTPOperationMillis)
			}
		})
	}
}
