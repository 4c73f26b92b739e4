package httpapi

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestOpenAPIConformsToSpec validates the document against the OpenAPI 3.1
// specification's schema and compiles each of its schemas as JSON Schema
// 2020-12, with Ajv in Node (wasm/worker/check-openapi.mjs; its packages
// are pinned in wasm/worker/package-lock.json). The suite checks the
// document against the server; this checks it against the standard.
func TestOpenAPIConformsToSpec(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("a js/wasm test cannot start Node")
	}
	script := filepath.Join("..", "..", "wasm", "worker", "check-openapi.mjs")
	modules := filepath.Join("..", "..", "wasm", "worker", "node_modules", "ajv")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(modules); err != nil || serr != nil {
		if os.Getenv("SUBPLAY_REQUIRE_TOOLS") != "" {
			t.Fatalf("node (%v) or wasm/worker/node_modules (%v) is missing; scripts/setup installs them", err, serr)
		}
		t.Skip("node or wasm/worker/node_modules is missing; run scripts/setup")
	}
	b, err := json.Marshal(OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, script, file).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("%s", out)
}
