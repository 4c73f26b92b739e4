terraform {
  source = "tfr:///terraform-google-modules/pubsub/google?version=8.6.0"
}

inputs = {
  project_id = "shop-prod"
  topic      = "clicks"
  cloud_storage_subscriptions = [
    {
      name          = "clicks-archive"
      bucket        = "clicks"
      output_format = "avro"
      max_duration  = "30s"
      filename_datetime_format = "YYYY-MM-DD/hh_mm_ssZ"
    },
  ]
}
