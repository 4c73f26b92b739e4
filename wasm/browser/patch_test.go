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

// TestYAMLPatch runs, in the patched copy of go.yaml.in/yaml/v3, the test
// that compares the matchers of patch/yaml_floats.go.txt with the regular
// expressions they replace.
func TestYAMLPatch(t *testing.T) {
	cmd := exec.Command("go", "test", "-count=1", "-modfile", patchedModFile(t), "go.yaml.in/yaml/v3")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in the patched go.yaml.in/yaml/v3: %v\n%s", err, out)
	}
}
