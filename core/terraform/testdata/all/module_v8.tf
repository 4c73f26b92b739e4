module "pubsub" {
  source     = "terraform-google-modules/pubsub/google"
  version    = "~> 8.1"
  project_id = "shop-prod"
  topic      = "orders"

  pull_subscriptions = [
    {
      name            = "worker"
      minimum_backoff = "30s"
    },
    {
      name            = "reports"
      maximum_backoff = "300s"
    },
  ]
  push_subscriptions = [
    {
      name              = "webhook"
      push_endpoint     = "https://example.com/push"
      dead_letter_topic = "projects/shop-prod/topics/dead"
      minimum_backoff   = "20s"
      maximum_backoff   = "60s"
      x-goog-version    = "v1beta1"
    },
  ]
  bigquery_subscriptions = [
    {
      name  = "to-bq"
      table = "shop-prod.sales.orders"
      ack_deadline_seconds = 700
    },
  ]
}
