package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchRepo writes a repository of files holding two subscriptions
// each, in the forms repositories hold them, a quarter each: two
// google_pubsub_subscription resources, a call of Google's pubsub module
// with two entries, a script of two gcloud commands, and two YAML
// documents as gcloud pubsub subscriptions list prints them.
func writeBenchRepo(tb testing.TB, dir string, files int) {
	tb.Helper()
	for i := range files {
		sub := filepath.Join(dir, fmt.Sprintf("team%02d", i%50))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			tb.Fatal(err)
		}
		var name, text string
		switch i % 4 {
		case 0:
			name = fmt.Sprintf("subs%d.tf", i)
			text = fmt.Sprintf(`provider "google" {
  project = "shop-prod"
}

resource "google_pubsub_subscription" "a%[1]d" {
  name                       = "orders-a%[1]d"
  topic                      = "orders"
  ack_deadline_seconds       = 30
  message_retention_duration = "86400s"
  labels = {
    team = "t%[1]d"
  }
  expiration_policy { ttl = "" }
}

resource "google_pubsub_subscription" "b%[1]d" {
  name   = "orders-b%[1]d"
  topic  = "orders"
  filter = "attributes.region = \"eu\""
  push_config {
    push_endpoint = "https://example.com/push/%[1]d"
  }
  retry_policy {
    minimum_backoff = "10s"
    maximum_backoff = "600s"
  }
}
`, i)
		case 1:
			name = fmt.Sprintf("module%d.tf", i)
			text = fmt.Sprintf(`module "pubsub%[1]d" {
  source     = "terraform-google-modules/pubsub/google"
  version    = "~> 8.0"
  project_id = "shop-prod"
  topic      = "events%[1]d"

  pull_subscriptions = [
    {
      name                 = "pull%[1]d"
      ack_deadline_seconds = 20
      maximum_backoff      = "300s"
      minimum_backoff      = "10s"
    },
  ]
  bigquery_subscriptions = [
    {
      name  = "bq%[1]d"
      table = "shop-prod.events.e%[1]d"
    },
  ]
}
`, i)
		case 2:
			name = fmt.Sprintf("deploy%d.sh", i)
			text = fmt.Sprintf(`#!/bin/sh
set -eu
gcloud pubsub subscriptions create worker%[1]d \
  --project=shop-prod --topic=orders --ack-deadline=60 \
  --message-retention-duration=2d --labels=team=t%[1]d

gcloud pubsub subscriptions create archive%[1]d --project=shop-prod --topic=orders \
  --cloud-storage-bucket=shop-archive --cloud-storage-file-prefix=o%[1]d/ \
  --cloud-storage-max-duration=5m
`, i)
		default:
			name = fmt.Sprintf("list%d.yaml", i)
			text = fmt.Sprintf(`---
ackDeadlineSeconds: 10
expirationPolicy:
  ttl: 2678400s
messageRetentionDuration: 604800s
name: projects/shop-prod/subscriptions/listed-a%[1]d
pushConfig: {}
topic: projects/shop-prod/topics/orders
---
ackDeadlineSeconds: 10
name: projects/shop-prod/subscriptions/listed-b%[1]d
pushConfig:
  pushEndpoint: https://example.com/push
topic: projects/shop-prod/topics/orders
`, i)
		}
		if err := os.WriteFile(filepath.Join(sub, name), []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkValidateRepo is subplay validate over a repository of N files
// holding 2N subscriptions, from the walk to the report (text output):
// 1000 files is the budget's case (2 s); 2000 shows the cost is linear.
func BenchmarkValidateRepo(b *testing.B) {
	for _, files := range []int{1000, 2000} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			dir := b.TempDir()
			writeBenchRepo(b, dir, files)
			var out strings.Builder
			code := run([]string{"validate", "-q", dir}, strings.NewReader(""), &out, io.Discard)
			if code == exitUsage || !strings.Contains(out.String(), fmt.Sprintf("%d subscriptions in %d files", 2*files, files)) {
				b.Fatalf("exit %d: %s", code, out.String()[max(0, out.Len()-400):])
			}
			b.ResetTimer()
			for b.Loop() {
				run([]string{"validate", "-q", dir}, strings.NewReader(""), io.Discard, io.Discard)
			}
			b.ReportMetric(float64(2*files), "subscriptions")
		})
	}
}

// TestWriteBenchRepo writes the benchmark's repository into
// $SUBPLAY_BENCH_REPO, for scripts/bench-core to time the built binary
// on it and read its peak memory.
func TestWriteBenchRepo(t *testing.T) {
	dir := os.Getenv("SUBPLAY_BENCH_REPO")
	if dir == "" {
		t.Skip("set SUBPLAY_BENCH_REPO to a directory to write the benchmark's repository there")
	}
	writeBenchRepo(t, dir, 1000)
}
