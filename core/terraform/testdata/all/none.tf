variable "region" {
  default = "eu"
}

resource "google_storage_bucket" "b" {
  name     = "bucket"
  location = var.region
}
