provider "google" {
  project = "shop-prod"
}

resource "google_pubsub_subscription" "orders" {
  name  = "orders"
  topic = "orders"
  expiration_policy { ttl = "" }
}

resource "google_pubsub_subscription" "audit" {
  name                 = "audit"
  topic                = "orders"
  ack_deadline_seconds = 5
  expiration_policy { ttl = "" }
}

resource "google_pubsub_subscription" "per_region" {
  for_each = toset(["eu", "us"])
  name     = "billing-${each.key}"
  topic    = "orders"
  message_retention_duration = "9000000s"
  expiration_policy { ttl = "" }
}
