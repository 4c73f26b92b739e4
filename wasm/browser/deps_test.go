//go:build !js

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBuildsLeaveOutHeavyPackages checks what each build of the module
// links, because that is what its users download: the docs embeds load the
// lean builds only as long as these packages stay out of them.
func TestBuildsLeaveOutHeavyPackages(t *testing.T) {
	tests := []struct {
		name   string
		tags   string
		banned []string // import path prefixes that must not be linked
		needed []string // and some that must
	}{
		{"full", "", []string{"net/http"}, []string{"github.com/google/cel-go/", "github.com/hamba/avro/"}},
		{"lean", "nocel", []string{"net/http", "github.com/google/cel-go/", "google.golang.org/protobuf/"}, []string{"github.com/hamba/avro/"}},
		{"min", "nocel,noavro", []string{"net/http", "github.com/google/cel-go/", "google.golang.org/protobuf/", "github.com/hamba/avro/", "github.com/json-iterator/"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "-tags", tt.tags, ".")
			cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			deps := strings.Fields(string(out))
			has := func(prefix string) bool {
				for _, d := range deps {
					if d == prefix || strings.HasPrefix(d, prefix) {
						return true
					}
				}
				return false
			}
			for _, b := range tt.banned {
				if has(b) {
					t.Errorf("the %s build links %s", tt.name, b)
				}
			}
			for _, n := range tt.needed {
				if !has(n) {
					t.Errorf("the %s build does not link %s; is the operation that needs it gone?", tt.name, n)
				}
			}
		})
	}
}
