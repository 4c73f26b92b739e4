//go:build !js

package main

import (
	"os/exec"
	"strings"
	"testing"
)

// patchedModFile returns the go.mod scripts/build-wasm builds with: the
// repository's, with replace directives for the patched modules
// (wasm/browser/patch).
func patchedModFile(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("../../scripts/build-wasm", "--modfile").Output()
	if err != nil {
		t.Fatalf("scripts/build-wasm --modfile: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestPatchedModules runs, in each patched copy scripts/build-wasm
// makes, the test that compares the matchers of wasm/browser/patch with
// the regular expressions they replace.
func TestPatchedModules(t *testing.T) {
	modfile := patchedModFile(t)
	for _, tt := range []struct{ name, pkg string }{
		{"yaml_floats", "go.yaml.in/yaml/v3"},
		{"cel_parser", "github.com/google/cel-go/parser"},
		{"protobuf_json_token", "google.golang.org/protobuf/internal/encoding/json"},
		{"avro_json", "github.com/hamba/avro/v2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-count=1", "-modfile", modfile, "-run", "^TestSubplay", "-v", tt.pkg)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go test in the patched %s: %v\n%s", tt.pkg, err, out)
			}
			// A patch whose test file went missing must not pass quietly.
			if !strings.Contains(string(out), "--- PASS: TestSubplay") {
				t.Fatalf("go test in the patched %s ran no TestSubplay test:\n%s", tt.pkg, out)
			}
		})
	}
}
