package limits

// SampleMessages is how many sample messages one request may carry
// (core/message): enough to try a filter or a batching setting on a
// realistic sample, while the per-message results of a response stay a
// few megabytes. The service's own limits on one message (10 MB of data,
// 100 attributes...) are rules, in core/message with their source.
const SampleMessages = 10_000
