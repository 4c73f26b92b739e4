package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestInvoke(t *testing.T) {
	tests := []struct {
		name     string
		op, req  string
		wantOK   bool
		wantCode string // error code when !wantOK
		wantKey  string // a key the response must have when wantOK
	}{
		{name: "version", op: "version", req: `{}`, wantOK: true, wantKey: "operations"},
		{name: "empty request is an empty object", op: "version", req: ``, wantOK: true, wantKey: "version"},
		{name: "unknown operation", op: "nope", req: `{}`, wantCode: "unknown-operation"},
		{name: "malformed json", op: "version", req: `{`, wantCode: "bad-request"},
		{name: "unknown field", op: "version", req: `{"x": 1}`, wantCode: "bad-request"},
		{name: "two values", op: "version", req: `{} {}`, wantCode: "bad-request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, ok := invoke(tt.op, tt.req)
			if ok != tt.wantOK {
				t.Fatalf("invoke(%q, %q) ok = %v, want %v; body %s", tt.op, tt.req, ok, tt.wantOK, body)
			}
			m := decode(t, body)
			if !tt.wantOK {
				e, _ := m["error"].(map[string]any)
				if e == nil || e["code"] != tt.wantCode {
					t.Fatalf("error = %v, want code %q", m["error"], tt.wantCode)
				}
				return
			}
			if _, has := m[tt.wantKey]; !has {
				t.Fatalf("response %s has no %q", body, tt.wantKey)
			}
		})
	}
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		name, body, code string
	}{
		{"internal", internalError(`boom "quoted" <b>`), "internal"},
		{"bad request", badRequest("two strings"), "bad-request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := decode(t, tt.body)
			e, _ := m["error"].(map[string]any)
			if e == nil || e["code"] != tt.code || !strings.Contains(tt.body, "message") {
				t.Fatalf("body %s, want an error with code %q and a message", tt.body, tt.code)
			}
		})
	}
}

func decode(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, body)
	}
	return m
}

// TestWarmRequest: the worker's warming request runs its UDF to the end
// (a warm-up stopped by a budget, or refused, would warm the wrong code).
func TestWarmRequest(t *testing.T) {
	body, ok := invoke("transform", warmRequest)
	if !ok {
		t.Fatalf("warmRequest: %.500s", body)
	}
	var r struct {
		Delivered int `json:"delivered"`
	}
	if err := json.Unmarshal([]byte(body), &r); err != nil || r.Delivered != 1 {
		t.Fatalf("warmRequest delivered %d (%v): %.500s", r.Delivered, err, body)
	}
	// warmSteps calls of g: n ends at warmSteps.
	text := fmt.Sprintf("xk%d", warmSteps%7)
	if !strings.Contains(body, fmt.Sprintf(`"final":{"data":%q,"text":%q`, base64.StdEncoding.EncodeToString([]byte(text)), text)) {
		t.Errorf("warmRequest's UDF did not run its loop to the end: %.500s", body)
	}
}
