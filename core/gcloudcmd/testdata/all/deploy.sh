#!/bin/sh
set -eu
PROJECT=shop-prod

gcloud pubsub topics create orders --project=shop-prod

gcloud pubsub subscriptions create orders-worker \
  --project=shop-prod --topic=orders --ack-deadline=30

gcloud pubsub subscriptions create orders-audit \
  --project=shop-prod --topic=orders --ack-deadline=5

echo "done"
gcloud pubsub subscriptions update orders-worker --project=shop-prod \
  --ack-deadline=60
