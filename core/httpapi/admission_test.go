package httpapi

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/limits"
	"github.com/subplay/subplay/core/playground"
)

// fakeAdmission admits what refuse does not name, and records what the
// handler told it.
type fakeAdmission struct {
	refuse  string // the operation it refuses
	arrived int
	admits  []string
	done    int
}

type fakeCallKey struct{}

func (a *fakeAdmission) Arrive(context.Context) { a.arrived++ }

func (a *fakeAdmission) Admit(ctx context.Context, op string, size int) (context.Context, func(), bool) {
	a.admits = append(a.admits, op)
	if op == a.refuse {
		return nil, nil, false
	}
	return context.WithValue(ctx, fakeCallKey{}, size), func() { a.done++ }, true
}

func (a *fakeAdmission) Refuses(op string, size int) bool { return op == a.refuse }

// TestAdmissionRunsTheCall: with an admission policy the handler tells it
// of each request, runs an admitted call inline with the context the
// policy gave it (the worker's share finds the call there when it
// resumes: TestResumedReachesTheShare in wasm/worker/admit) and tells it
// when the call has returned; a refused call is answered 503 "busy" with
// a Retry-After and never runs.
func TestAdmissionRunsTheCall(t *testing.T) {
	a := &fakeAdmission{refuse: "schema"}
	h := Handler(WithAdmission(a)).(*handler)
	if h.gate != nil {
		t.Fatal("a handler with an admission policy kept the gate")
	}
	var ran []string
	h.run = func(ctx context.Context, op *playground.Op, body []byte) ([]byte, error) {
		if size, _ := ctx.Value(fakeCallKey{}).(int); size != len(body) {
			t.Errorf("%s ran without the context its admission gave", op.Name)
		}
		if a.done != len(ran) {
			t.Errorf("%s ran after %d calls but %d were told done", op.Name, len(ran), a.done)
		}
		ran = append(ran, op.Name)
		return []byte(`{}`), nil
	}
	for _, op := range []string{"validate", "schema", "validate"} {
		req := httptest.NewRequest(http.MethodPost, "/v1/"+op, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		want := http.StatusOK
		if op == a.refuse {
			want = http.StatusServiceUnavailable
			if code := errorCode(t, rec); code != codeBusy || rec.Header().Get("Retry-After") != "1" {
				t.Errorf("%s refused with %q, Retry-After %q; want busy and 1", op, code, rec.Header().Get("Retry-After"))
			}
		}
		if rec.Code != want {
			t.Errorf("%s: status %d, want %d", op, rec.Code, want)
		}
	}
	if a.arrived != 3 || strings.Join(a.admits, " ") != "validate schema validate" || strings.Join(ran, " ") != "validate validate" || a.done != 2 {
		t.Errorf("arrived %d, asked %v, ran %v, done %d", a.arrived, a.admits, ran, a.done)
	}
}

// TestRefuseAsksTheAdmission: Refuse asks the policy about an operation's
// POST with a declared length within the body limit, and nothing else;
// a handler without a policy never refuses before the body.
func TestRefuseAsksTheAdmission(t *testing.T) {
	a := &fakeAdmission{refuse: "validate"}
	h := Handler(WithAdmission(a))
	tests := []struct {
		name, method, path string
		length             int64
		refused            bool
	}{
		{"refused by the policy", http.MethodPost, "/v1/validate", limits.HTTPLargeBody, true},
		{"admitted by the policy", http.MethodPost, "/v1/schema", limits.HTTPLargeBody, false},
		{"an unknown length", http.MethodPost, "/v1/validate", -1, false},
		{"over the body limit (413 later)", http.MethodPost, "/v1/validate", MaxBody + 1, false},
		{"no operation", http.MethodPost, "/v1/no-such-op", 10, false},
		{"not the API", http.MethodPost, "/healthz", 10, false},
		{"not a POST", http.MethodGet, "/v1/version", 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			req.ContentLength = tc.length
			rec := httptest.NewRecorder()
			if got := Refuse(h, rec, req); got != tc.refused {
				t.Fatalf("Refuse = %v, want %v", got, tc.refused)
			}
			if !tc.refused && rec.Body.Len() != 0 {
				t.Errorf("wrote %q for a request it did not refuse", rec.Body)
			}
			if tc.refused && (rec.Code != http.StatusServiceUnavailable || errorCode(t, rec) != codeBusy) {
				t.Errorf("status %d, body %s; want 503 busy", rec.Code, rec.Body)
			}
		})
	}
	req := httptest.NewRequest(http.MethodPost, "/v1/validate", nil)
	req.ContentLength = limits.HTTPLargeBody
	if Refuse(Handler(), httptest.NewRecorder(), req) {
		t.Error("a handler without a policy refused before the body")
	}
}
