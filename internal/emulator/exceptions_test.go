//go:build unix

package emulator

import (
	"regexp"
	"strings"
)

// exception explains a case where the emulator and we part ways. Its
// pattern is a case name where "*" stands for any text.
type exception struct {
	pattern, reason string
	re              *regexp.Regexp
}

func exceptions(list ...[2]string) []*exception {
	var out []*exception
	for _, e := range list {
		re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(e[0]), `\*`, ".*") + "$")
		out = append(out, &exception{pattern: e[0], reason: e[1], re: re})
	}
	return out
}

// stricterCases are the cases the emulator rejects and we accept (or
// reject for another field), each with the reason. Every entry must
// explain at least one case, so the list stays exact.
var stricterCases = exceptions(
	[2]string{"example/exactly-once.json", "its retention is 14 days: the emulator still caps retention at 7 days, the service allows 31 (docs/decisions.md D1)"},
	[2]string{"messageRetentionDuration/at-max", "the emulator still caps retention at 7 days, the service allows 31 (docs/decisions.md D1)"},
	[2]string{"messageRetentionDuration/below-max-fraction", "the emulator still caps retention at 7 days, the service allows 31 (docs/decisions.md D1)"},
	[2]string{"cross/retention-seven-days-and-a-second", "the emulator still caps retention at 7 days, the service allows 31 (docs/decisions.md D1)"},
	[2]string{"messageTransforms/0/compression/*", "the emulator's API predates compression transforms: it rejects the field as unknown"},
	[2]string{"messageTransforms/0/aiInference/*", "the emulator's API predates AI inference transforms: it rejects the field as unknown"},
	[2]string{"cross/tags", "the emulator's API predates tags bound at creation: it rejects the field as unknown"},
	[2]string{"bigtableConfig/*", "the emulator's API predates Bigtable subscriptions: it rejects bigtableConfig as unknown"},
	[2]string{"*/state/output-only-vertex_ai_location_restriction", "an enum value newer than the emulator's API, which rejects the name"},
	[2]string{"cross/backoff-max-below-min", "one rule about two fields: our error sits on minimumBackoff and names maximumBackoff in its message; the emulator names maximumBackoff"},
	[2]string{"cross/topic-not-created", "whether a topic exists is not in the text: subplay checks configurations offline"},
	[2]string{"cross/dead-letter-topic-not-created", "whether a topic exists is not in the text: subplay checks configurations offline"},
)

// laxerCases explain the cases we reject and the emulator accepts: it
// checks less than the service, whose rules ours follow.
var laxerCases = exceptions(
	[2]string{"ackDeadlineSeconds/below-min", "the emulator takes 1 to 9 seconds; the service's minimum is 10"},
	[2]string{"labels/*", "the emulator checks no label rules (count, key and value form) and reads a number as a string"},
	[2]string{"cross/label-*", "the emulator checks no label rules"},
	[2]string{"*/wrong-type-number", "the emulator's JSON reader turns a number into a string; the service's (proto3 JSON) rejects it"},
	[2]string{"*/wrong-type-value", "the emulator's JSON reader turns a number into a string; the service's (proto3 JSON) rejects it"},
	[2]string{"expirationPolicy/ttl/*", "the emulator does not check the ttl (a day at least, and not below the retention)"},
	[2]string{"cross/ttl-*", "the emulator does not check the ttl (a day at least, and not below the retention)"},
	[2]string{"filter/*", "the emulator stores a filter without parsing it or measuring it"},
	[2]string{"cross/filter-*", "the emulator stores a filter without parsing it (mixed AND/OR, syntax errors)"},
	[2]string{"messageTransforms/0/javascriptUdf/*", "the emulator checks none of a JavaScript transform's fields"},
	[2]string{"cross/transform-*", "the emulator checks neither a transform's kind nor unique function names"},
	[2]string{"pushConfig/attributes/*", "the emulator does not check x-goog-version"},
	[2]string{"bigqueryConfig/*", "the emulator checks none of the BigQuery rules (required table, its form, the schema options)"},
	[2]string{"cross/bigquery-*", "the emulator checks none of the BigQuery rules (required table, its form, the schema options), nor that a subscription delivers one way only"},
	[2]string{"cross/both-bigquery-schemas", "the emulator checks none of the BigQuery rules (required table, its form, the schema options)"},
	[2]string{"cloudStorageConfig/*", "the emulator checks none of the Cloud Storage rules (required bucket, names, bounds, formats)"},
	[2]string{"cross/bucket-*", "the emulator checks none of the Cloud Storage rules (required bucket, names, bounds, formats)"},
	[2]string{"cross/suffix-ends-with-slash", "the emulator checks none of the Cloud Storage rules (required bucket, names, bounds, formats)"},
	[2]string{"cross/datetime-format-bad", "the emulator checks none of the Cloud Storage rules (required bucket, names, bounds, formats)"},
	[2]string{"cross/push-endpoint-http", "the emulator takes plain HTTP endpoints; the service wants HTTPS"},
	[2]string{"cross/exactly-once-with-push", "the emulator takes exactly-once delivery with push; the service has it for pull only"},
	[2]string{"cross/push-and-*", "the emulator does not check that a subscription delivers one way only"},
)

// explain returns the first exception of list that matches a case name.
func explain(list []*exception, name string) *exception {
	for _, e := range list {
		if e.re.MatchString(name) {
			return e
		}
	}
	return nil
}
