#!/bin/sh
gcloud pubsub subscriptions create orders-worker \
  --project=shop-prod \
  --topic="$TOPIC" \
  --ack-deadline=5
