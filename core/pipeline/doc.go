// Package pipeline is what a subscription does to sample messages before
// it delivers them: its enabled JavaScript UDFs run in order (core/
// transform), then its filter decides on what they produce (core/filter),
// and each message ends delivered, dropped, failed, acknowledged or
// invalid. The transform operation shows every step; the Cloud Storage
// and BigQuery previews write only what comes through.
//
// core/playground adapts it: it decodes the request, calls Messages, and
// shapes the result into the contract's response types. The rules (the
// order of transforms and filter, the outcome classes, what a step
// changed, where a UDF's finding is in the configuration's text) are
// here; the contract corpus (core/playground/testdata/contract,
// transform-*.txtar and pipeline-*.txtar) holds the answers byte for byte.
package pipeline
