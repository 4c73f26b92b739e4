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
// makes, the tests that compare what wasm/browser/patch puts in with what
// it replaces (regular expressions, json-iterator, mapstructure).
func TestPatchedModules(t *testing.T) {
	modfile := patchedModFile(t)
	// test is the prefix of the patch's tests: the two patches of
	// hamba/avro each have theirs.
	for _, tt := range []struct{ name, pkg, test string }{
		{"yaml_floats", "go.yaml.in/yaml/v3", "TestSubplay"},
		{"cel_parser", "github.com/google/cel-go/parser", "TestSubplay"},
		{"protobuf_json_token", "google.golang.org/protobuf/internal/encoding/json", "TestSubplay"},
		{"protobuf_structpb", "google.golang.org/protobuf/types/known/structpb", "TestSubplayNoProtoJSON"},
		{"cel_object_json", "github.com/google/cel-go/common/types", "TestSubplayObjectJSON"},
		{"avro_json", "github.com/hamba/avro/v2", "TestSubplayJSON"},
		{"avro_decode", "github.com/hamba/avro/v2", "TestSubplayDecode"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command("go", "test", "-count=1", "-modfile", modfile, "-run", "^"+tt.test, "-v", tt.pkg)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go test in the patched %s: %v\n%s", tt.pkg, err, out)
			}
			// A patch whose test file went missing must not pass quietly.
			if !strings.Contains(string(out), "--- PASS: "+tt.test) {
				t.Fatalf("go test in the patched %s ran no %s test:\n%s", tt.pkg, tt.test, out)
			}
		})
	}
}
