locals {
  subs = [
    {
      name                    = "events"
      push_endpoint           = "https://example.com/events"
      enable_message_ordering = true
    },
  ]
}

module "events" {
  source     = "git::https://github.com/terraform-google-modules/terraform-google-pubsub.git?ref=v5.0.0"
  project_id = "shop-prod"
  topic      = "events"

  push_subscriptions = local.subs
  cloud_storage_subscriptions = [
    { name = "archive", bucket = "events-archive" },
  ]
}

module "other" {
  source = "terraform-aws-modules/sns/aws"
  name   = "unrelated"
}
