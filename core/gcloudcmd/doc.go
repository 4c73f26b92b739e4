// Package gcloudcmd reads `gcloud pubsub subscriptions create` and
// `update` commands, as people paste them from documentation, READMEs and
// scripts, into the subscription they mean, and writes such commands back.
package gcloudcmd
