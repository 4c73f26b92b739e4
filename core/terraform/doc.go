// Package terraform reads google_pubsub_subscription resources from
// Terraform text into the REST shape the rules check, each finding at the
// attribute or block it is about, and writes subscriptions back as
// Terraform resources.
//
// The reader uses github.com/hashicorp/hcl/v2 and is left out of builds
// tagged nohcl (Supported is then false); Detect and Write need no HCL
// library and are in every build.
package terraform
