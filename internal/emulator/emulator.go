//go:build unix

// Package emulator starts Google's Pub/Sub emulator for tests, and uses it
// as a second oracle for the rules subplay checks: its tests create each
// example and generated configuration (cases_test.go) in it over its REST
// API and hold subplay's verdict against the emulator's (oracle_test.go,
// exceptions_test.go). core/gcloudcmd's live test runs gcloud against it.
// Tests only: it lives under internal/ so that no build links it.
package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Project is the project every case lives in.
const Project = "oracle-project"

// Emulator is one running emulator.
type Emulator struct {
	endpoint string // http://127.0.0.1:PORT/
	client   *http.Client
}

// Endpoint is the emulator's root URL, as gcloud's
// CLOUDSDK_API_ENDPOINT_OVERRIDES_PUBSUB takes it.
func (e *Emulator) Endpoint() string { return e.endpoint }

// Need skips t when gcloud or its Pub/Sub emulator is missing, or fails it
// when SUBPLAY_REQUIRE_TOOLS=1 (CI, scripts/test) says they must be there.
func Need(t testing.TB) {
	t.Helper()
	_, err1 := exec.LookPath("gcloud")
	root, err2 := exec.Command("gcloud", "info", "--format=value(installation.sdk_root)").Output()
	_, err3 := os.Stat(filepath.Join(strings.TrimSpace(string(root)), "platform/pubsub-emulator/bin/cloud-pubsub-emulator"))
	if err := errors.Join(err1, err2, err3); err != nil {
		if os.Getenv("SUBPLAY_REQUIRE_TOOLS") == "1" {
			t.Fatalf("gcloud and the Pub/Sub emulator are required (SUBPLAY_REQUIRE_TOOLS=1): %v", err)
		}
		t.Skipf("SKIPPED: this live comparison needs gcloud and its Pub/Sub emulator: %v", err)
	}
}

// Start starts the emulator on a free loopback port, in a process group of
// its own (its Java child outlives gcloud otherwise), and stops the whole
// group when t ends.
func Start(t testing.TB) *Emulator {
	t.Helper()
	Need(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command("gcloud", "beta", "emulators", "pubsub", "start", "--host-port="+addr, "--quiet")
	cmd.Env = append(os.Environ(), "CLOUDSDK_CONFIG="+t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var logb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logb, &logb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
	deadline := time.Now().Add(90 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the emulator did not listen on %s within 90 s:\n%s", addr, logb.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
	return &Emulator{endpoint: "http://" + addr + "/", client: &http.Client{Timeout: 30 * time.Second}}
}

// Verdict is the emulator's answer to one create: "accepted", or
// "rejected STATUS: message".
type Verdict string

// Accepted reports whether the emulator created the subscription.
func (v Verdict) Accepted() bool { return v == "accepted" }

// put sends one PUT and returns the HTTP status and the error message of
// the answer, if any.
func (e *Emulator) put(ctx context.Context, path string, body []byte) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, e.endpoint+"v1/"+path, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := e.client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return 0, "", err
	}
	if res.StatusCode == http.StatusOK {
		return res.StatusCode, "", nil
	}
	var answer struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil || answer.Error.Status == "" {
		return res.StatusCode, "", fmt.Errorf("PUT %s: HTTP %d with an answer that is no API error: %.200s", path, res.StatusCode, raw)
	}
	return res.StatusCode, answer.Error.Status + ": " + answer.Error.Message, nil
}

// Topic creates projects/PROJECT/topics/ID unless it exists.
func (e *Emulator) Topic(ctx context.Context, name string) error {
	status, msg, err := e.put(ctx, name, nil)
	if err != nil {
		return err
	}
	if status != http.StatusOK && status != http.StatusConflict {
		return fmt.Errorf("creating %s: %s", name, msg)
	}
	return nil
}

// Create creates subscription id of Project with the REST body given (a
// Subscription resource; its name, if any, is replaced by the path's) and
// returns the emulator's verdict.
func (e *Emulator) Create(ctx context.Context, id string, body []byte) (Verdict, error) {
	status, msg, err := e.put(ctx, "projects/"+Project+"/subscriptions/"+id, body)
	if err != nil {
		return "", err
	}
	if status == http.StatusOK {
		return "accepted", nil
	}
	return Verdict("rejected " + msg), nil
}
