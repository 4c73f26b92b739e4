package subscription

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// base is a valid pull subscription; cases add fields to it.
func base(fields string) string {
	s := `{"name": "projects/my-project/subscriptions/sub-1", "topic": "projects/my-project/topics/topic-1"`
	if fields != "" {
		s += ", " + fields
	}
	return s + "}"
}

// key renders a diagnostic as "severity:code@path" for comparison.
func key(d diag.Diagnostic) string { return string(d.Severity) + ":" + d.Code + "@" + d.Path }

type ruleCase struct {
	name string
	in   string   // a whole configuration (JSON or YAML)
	want []string // "severity:code@path"; errors and warnings must match exactly, infos listed must appear
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Helper()
			ds := Decode("test", tc.in, "").Validate()
			checkDiags(t, ds, tc.want)
		})
	}
}

func checkDiags(t *testing.T, ds []diag.Diagnostic, want []string) {
	t.Helper()
	got := map[string]bool{}
	var gotSerious []string
	for _, d := range ds {
		got[key(d)] = true
		if d.Severity != diag.Info {
			gotSerious = append(gotSerious, key(d))
		}
	}
	var wantSerious []string
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing %s", w)
		}
		if !strings.HasPrefix(w, "info:") {
			wantSerious = append(wantSerious, w)
		}
	}
	sort.Strings(gotSerious)
	sort.Strings(wantSerious)
	if strings.Join(gotSerious, "\n") != strings.Join(wantSerious, "\n") {
		t.Errorf("errors and warnings:\n got: %v\nwant: %v\nall:\n%s", gotSerious, wantSerious, dump(ds))
	}
}

func dump(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "  %d:%d %s %s: %s (hint: %s)\n", d.Line, d.Column, key(d), d.Code, d.Message, d.Hint)
	}
	return b.String()
}

func TestValidExamplesHaveNoErrorsOrWarnings(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"minimal pull", base(""), nil},
		{"yaml pull", "name: projects/my-project/subscriptions/sub-1\ntopic: projects/my-project/topics/topic-1\n", nil},
	})
}

func TestScalarBounds(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// ackDeadlineSeconds: 10..600, 0 = default.
		{"ack at min", base(`"ackDeadlineSeconds": 10`), nil},
		{"ack below min", base(`"ackDeadlineSeconds": 9`), []string{"error:value-too-small@/ackDeadlineSeconds"}},
		{"ack at max", base(`"ackDeadlineSeconds": 600`), nil},
		{"ack above max", base(`"ackDeadlineSeconds": 601`), []string{"error:value-too-large@/ackDeadlineSeconds"}},
		{"ack zero means default", base(`"ackDeadlineSeconds": 0`), []string{"info:zero-means-default@/ackDeadlineSeconds"}},
		{"ack as string", base(`"ackDeadlineSeconds": "30"`), nil},
		{"ack whole float", base(`"ackDeadlineSeconds": 30.0`), nil},
		{"ack exponent", base(`"ackDeadlineSeconds": 3e1`), nil},
		{"ack fraction", base(`"ackDeadlineSeconds": 30.5`), []string{"error:wrong-type@/ackDeadlineSeconds"}},
		{"ack word", base(`"ackDeadlineSeconds": "abc"`), []string{"error:wrong-type@/ackDeadlineSeconds"}},
		{"ack bool", base(`"ackDeadlineSeconds": true`), []string{"error:wrong-type@/ackDeadlineSeconds"}},
		{"ack beyond int32", base(`"ackDeadlineSeconds": 2147483648`), []string{"error:number-overflow@/ackDeadlineSeconds"}},
		{"ack as duration", base(`"ackDeadlineSeconds": "60s"`), []string{"error:wrong-type@/ackDeadlineSeconds"}},

		// messageRetentionDuration: 600s..2678400s (D1).
		{"retention at min", base(`"messageRetentionDuration": "600s"`), nil},
		{"retention just below min", base(`"messageRetentionDuration": "599.999999999s"`), []string{"error:value-too-small@/messageRetentionDuration"}},
		{"retention at max 31d", base(`"messageRetentionDuration": "2678400s", "expirationPolicy": {}`), nil},
		{"retention just above max", base(`"messageRetentionDuration": "2678401s", "expirationPolicy": {}`), []string{"error:value-too-large@/messageRetentionDuration"}},
		{"retention 32d (E6)", base(`"messageRetentionDuration": "2764800s", "expirationPolicy": {}`), []string{"error:value-too-large@/messageRetentionDuration"}},
		{"retention 5m (E7)", base(`"messageRetentionDuration": "300s"`), []string{"error:value-too-small@/messageRetentionDuration"}},
		{"retention without s (E8)", base(`"messageRetentionDuration": "604800"`), []string{"error:duration-format@/messageRetentionDuration"}},
		{"retention in days", base(`"messageRetentionDuration": "7d"`), []string{"error:duration-format@/messageRetentionDuration"}},
		{"retention as number", base(`"messageRetentionDuration": 604800`), []string{"error:duration-format@/messageRetentionDuration"}},
		{"retention negative", base(`"messageRetentionDuration": "-600s"`), []string{"error:value-too-small@/messageRetentionDuration"}},
		{"retention ten digits of fraction", base(`"messageRetentionDuration": "600.0000000001s"`), []string{"error:duration-format@/messageRetentionDuration"}},
		{"retain acked", base(`"retainAckedMessages": true`), []string{"info:retain-acked-cost@/retainAckedMessages"}},
		{"bool as string", base(`"retainAckedMessages": "true"`), []string{"error:wrong-type@/retainAckedMessages"}},
	})
}

func TestExpiration(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"ttl at min, retention equal (D2)", base(`"expirationPolicy": {"ttl": "86400s"}, "messageRetentionDuration": "86400s"`), nil},
		{"ttl below 1 day (E12)", base(`"expirationPolicy": {"ttl": "3600s"}, "messageRetentionDuration": "600s"`),
			[]string{"error:value-too-small@/expirationPolicy/ttl"}},
		{"ttl below explicit retention", base(`"expirationPolicy": {"ttl": "172800s"}, "messageRetentionDuration": "172801s"`),
			[]string{"error:ttl-below-retention@/expirationPolicy/ttl"}},
		{"ttl below default retention", base(`"expirationPolicy": {"ttl": "86400s"}`),
			[]string{"error:ttl-below-retention@/expirationPolicy/ttl"}},
		{"ttl equal to default retention", base(`"expirationPolicy": {"ttl": "604800s"}`), nil},
		{"never expires", base(`"expirationPolicy": {}`), []string{"info:never-expires@/expirationPolicy"}},
		{"unreadable retention skips ttl check", base(`"expirationPolicy": {"ttl": "86400s"}, "messageRetentionDuration": "1d"`),
			[]string{"error:duration-format@/messageRetentionDuration"}},
	})
}

func TestFilterLength(t *testing.T) {
	at := func(n int) string { return `attributes.k = "` + strings.Repeat("x", n-len(`attributes.k = ""`)) + `"` }
	multi := `attributes.k = "` + strings.Repeat("é", 120) + `"` // 17 + 240 = 257 bytes, 137 characters
	runRuleCases(t, []ruleCase{
		{"256 bytes", base(`"filter": ` + quoteJSON(at(256))), nil},
		{"257 bytes (E13)", base(`"filter": ` + quoteJSON(at(257))), []string{"error:filter-too-long@/filter"}},
		{"multi-byte over 256 bytes", base(`"filter": ` + quoteJSON(multi)), []string{"error:filter-too-long@/filter"}},
		{"empty filter", base(`"filter": ""`), []string{"info:empty-filter@/filter"}},
	})
}

func quoteJSON(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestDeadLetterAndRetry(t *testing.T) {
	dl := func(extra string) string {
		return base(`"deadLetterPolicy": {"deadLetterTopic": "projects/my-project/topics/dead"` + extra + `}`)
	}
	runRuleCases(t, []ruleCase{
		{"attempts default", dl(""), []string{"info:dead-letter-iam@/deadLetterPolicy/deadLetterTopic"}},
		{"attempts 5", dl(`, "maxDeliveryAttempts": 5`), nil},
		{"attempts 4 (E10)", dl(`, "maxDeliveryAttempts": 4`), []string{"error:value-too-small@/deadLetterPolicy/maxDeliveryAttempts"}},
		{"attempts 100", dl(`, "maxDeliveryAttempts": 100`), nil},
		{"attempts 101", dl(`, "maxDeliveryAttempts": 101`), []string{"error:value-too-large@/deadLetterPolicy/maxDeliveryAttempts"}},
		{"attempts 0", dl(`, "maxDeliveryAttempts": 0`), []string{"info:zero-means-default@/deadLetterPolicy/maxDeliveryAttempts"}},
		{"topic missing (E11)", base(`"deadLetterPolicy": {"maxDeliveryAttempts": 10}`), []string{"error:missing-field@/deadLetterPolicy/deadLetterTopic"}},
		{"topic empty (E4)", base(`"deadLetterPolicy": {"deadLetterTopic": ""}`), []string{"error:empty-field@/deadLetterPolicy/deadLetterTopic"}},
		{"topic malformed", base(`"deadLetterPolicy": {"deadLetterTopic": "dead"}`), []string{"error:resource-name@/deadLetterPolicy/deadLetterTopic"}},
		{"same topic", base(`"deadLetterPolicy": {"deadLetterTopic": "projects/my-project/topics/topic-1"}`),
			[]string{"warning:dead-letter-same-topic@/deadLetterPolicy/deadLetterTopic"}},
		{"other project", base(`"deadLetterPolicy": {"deadLetterTopic": "projects/other-project/topics/dead"}`),
			[]string{"info:dead-letter-other-project@/deadLetterPolicy/deadLetterTopic"}},

		{"backoff bounds", base(`"retryPolicy": {"minimumBackoff": "0s", "maximumBackoff": "600s"}`), nil},
		{"min above 600s", base(`"retryPolicy": {"minimumBackoff": "601s", "maximumBackoff": "600s"}`), []string{"error:value-too-large@/retryPolicy/minimumBackoff"}},
		{"max above 600s", base(`"retryPolicy": {"maximumBackoff": "601s"}`), []string{"error:value-too-large@/retryPolicy/maximumBackoff"}},
		// D18: the order is checked with the defaults filled in.
		{"min above max", base(`"retryPolicy": {"minimumBackoff": "60s", "maximumBackoff": "30s"}`), []string{"error:backoff-order@/retryPolicy/minimumBackoff"}},
		{"min equal max", base(`"retryPolicy": {"minimumBackoff": "30s", "maximumBackoff": "30s"}`), nil},
		{"only max, below default min", base(`"retryPolicy": {"maximumBackoff": "5s"}`), []string{"error:backoff-order@/retryPolicy/maximumBackoff"}},
		{"only max, at default min", base(`"retryPolicy": {"maximumBackoff": "10s"}`), nil},
		{"only min", base(`"retryPolicy": {"minimumBackoff": "300s"}`), nil},
		{"backoff without s (E9)", base(`"retryPolicy": {"minimumBackoff": "10", "maximumBackoff": "600"}`),
			[]string{"error:duration-format@/retryPolicy/minimumBackoff", "error:duration-format@/retryPolicy/maximumBackoff"}},
		{"empty retry policy", base(`"retryPolicy": {}`), nil},
	})
}

func TestDeliveryTypes(t *testing.T) {
	push := `"pushConfig": {"pushEndpoint": "https://example.com/push"}`
	runRuleCases(t, []ruleCase{
		{"push", base(push), []string{"info:push-unauthenticated@/pushConfig"}},
		{"push and bigquery (E14)", base(push + `, "bigqueryConfig": {"table": "my-project.ds.t"}`),
			[]string{"error:one-delivery-type@/bigqueryConfig"}},
		{"storage and bigquery", base(`"cloudStorageConfig": {"bucket": "my-bucket"}, "bigqueryConfig": {"table": "my-project.ds.t"}`),
			[]string{"error:one-delivery-type@/cloudStorageConfig"}},
		{"empty pushConfig beside bigquery, as gcloud prints", base(`"pushConfig": {}, "bigqueryConfig": {"table": "my-project.ds.t"}`), nil},
		{"exactly once pull", base(`"enableExactlyOnceDelivery": true`), nil},
		{"exactly once push (D9)", base(push + `, "enableExactlyOnceDelivery": true`), []string{"error:exactly-once-pull-only@/enableExactlyOnceDelivery"}},
		{"exactly once bigquery", base(`"bigqueryConfig": {"table": "my-project.ds.t"}, "enableExactlyOnceDelivery": true`),
			[]string{"error:exactly-once-pull-only@/enableExactlyOnceDelivery"}},
		{"exactly once storage", base(`"cloudStorageConfig": {"bucket": "my-bucket"}, "enableExactlyOnceDelivery": true`),
			[]string{"error:exactly-once-pull-only@/enableExactlyOnceDelivery"}},
		{"detached", base(`"detached": true`), []string{"warning:detached@/detached"}},
	})
}

func TestPush(t *testing.T) {
	pc := func(s string) string { return base(`"pushConfig": {` + s + `}`) }
	runRuleCases(t, []ruleCase{
		{"oidc", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "sa@my-project.iam.gserviceaccount.com"}`),
			[]string{"info:audience-default@/pushConfig/oidcToken", "info:service-account-actas@/pushConfig/oidcToken/serviceAccountEmail"}},
		{"http endpoint", pc(`"pushEndpoint": "http://example.com/p"`), []string{"error:push-endpoint-https@/pushConfig/pushEndpoint"}},
		{"relative endpoint", pc(`"pushEndpoint": "/push"`), []string{"error:push-endpoint-url@/pushConfig/pushEndpoint"}},
		{"localhost endpoint", pc(`"pushEndpoint": "https://localhost:8080/p"`), []string{"warning:push-endpoint-private@/pushConfig/pushEndpoint"}},
		{"private IP endpoint", pc(`"pushEndpoint": "https://10.0.0.7/p"`), []string{"warning:push-endpoint-private@/pushConfig/pushEndpoint"}},
		{"credentials in URL", pc(`"pushEndpoint": "https://u:p@example.com/p"`), []string{"warning:push-endpoint-credentials@/pushConfig/pushEndpoint"}},
		{"both wrappers", pc(`"pushEndpoint": "https://example.com/p", "pubsubWrapper": {}, "noWrapper": {}`), []string{"error:one-wrapper@/pushConfig/noWrapper"}},
		{"version v1beta2", pc(`"pushEndpoint": "https://example.com/p", "attributes": {"x-goog-version": "v1beta2"}`), nil},
		{"version v2", pc(`"pushEndpoint": "https://example.com/p", "attributes": {"x-goog-version": "v2"}`),
			[]string{"error:push-version@/pushConfig/attributes/x-goog-version"}},
		{"other attribute", pc(`"pushEndpoint": "https://example.com/p", "attributes": {"color": "red"}`),
			[]string{"warning:push-attribute@/pushConfig/attributes/color"}},
		// D17: the token's account must be in the subscription's project.
		{"oidc account of another project", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "sa@other-project.iam.gserviceaccount.com"}`),
			[]string{"error:push-account-project@/pushConfig/oidcToken/serviceAccountEmail"}},
		{"oidc App Engine default of another project", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "other-project@appspot.gserviceaccount.com"}`),
			[]string{"error:push-account-project@/pushConfig/oidcToken/serviceAccountEmail"}},
		{"oidc App Engine default of this project", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "my-project@appspot.gserviceaccount.com"}`), nil},
		{"oidc service agent passes", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "service-123@gcp-sa-pubsub.iam.gserviceaccount.com"}`), nil},
		{"oidc compute default passes", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "123-compute@developer.gserviceaccount.com"}`), nil},
		{"oidc without account", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"audience": "x"}`),
			[]string{"warning:oidc-without-account@/pushConfig/oidcToken"}},
		{"account not an email", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "pubsub-push"}`),
			[]string{"error:service-account-email@/pushConfig/oidcToken/serviceAccountEmail"}},
		{"account not a service account", pc(`"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "me@example.com"}`),
			[]string{"warning:service-account-email@/pushConfig/oidcToken/serviceAccountEmail"}},
		{"settings without endpoint (D4, E21)", pc(`"noWrapper": {"writeMetadata": true}`),
			[]string{"warning:push-settings-without-endpoint@/pushConfig"}},
	})
}

func TestBigQuery(t *testing.T) {
	bq := func(s string) string { return base(`"bigqueryConfig": {` + s + `}`) }
	runRuleCases(t, []ruleCase{
		{"plain", bq(`"table": "my-project.dataset_1.orders"`), []string{"info:bigquery-data-column@/bigqueryConfig"}},
		{"colon (D3, E17)", bq(`"table": "my-project:dataset.orders"`), []string{"error:bigquery-table@/bigqueryConfig/table"}},
		{"two parts", bq(`"table": "dataset.orders"`), []string{"error:bigquery-table@/bigqueryConfig/table"}},
		{"dataset with hyphen", bq(`"table": "my-project.data-set.orders"`), []string{"error:bigquery-table@/bigqueryConfig/table"}},
		{"table with slash", bq(`"table": "my-project.dataset.or/ders"`), []string{"error:bigquery-table@/bigqueryConfig/table"}},
		{"unicode table id", bq(`"table": "my-project.dataset.commandes_été 2024"`), nil},
		{"missing table (D4)", bq(`"writeMetadata": true`), []string{"error:missing-field@/bigqueryConfig/table"}},
		{"both schema flags (E16)", bq(`"table": "my-project.d.t", "useTopicSchema": true, "useTableSchema": true`),
			[]string{"error:bigquery-schema-choice@/bigqueryConfig/useTableSchema"}},
		{"drop unknown without schema", bq(`"table": "my-project.d.t", "dropUnknownFields": true`),
			[]string{"warning:drop-unknown-without-schema@/bigqueryConfig/dropUnknownFields"}},
		{"drop unknown with topic schema", bq(`"table": "my-project.d.t", "useTopicSchema": true, "dropUnknownFields": true`), nil},
		{"metadata", bq(`"table": "my-project.d.t", "writeMetadata": true`), []string{"info:bigquery-metadata-columns@/bigqueryConfig/writeMetadata"}},
		{"state is output only", bq(`"table": "my-project.d.t", "state": "ACTIVE"`), []string{"info:output-only@/bigqueryConfig/state"}},
	})
}

func TestCloudStorageBounds(t *testing.T) {
	cs := func(s string) string { return base(`"cloudStorageConfig": {"bucket": "my-bucket"` + s + `}`) }
	runRuleCases(t, []ruleCase{
		{"defaults", cs(""), []string{"info:bucket-prerequisites@/cloudStorageConfig/bucket"}},
		{"missing bucket", base(`"cloudStorageConfig": {}`), []string{"error:missing-field@/cloudStorageConfig/bucket"}},
		{"duration 60s", cs(`, "maxDuration": "60s"`), nil},
		{"duration 59s", cs(`, "maxDuration": "59s"`), []string{"error:value-too-small@/cloudStorageConfig/maxDuration"}},
		{"duration 600s", cs(`, "maxDuration": "600s"`), nil},
		{"duration 601s", cs(`, "maxDuration": "601s"`), []string{"error:value-too-large@/cloudStorageConfig/maxDuration"}},
		{"bytes 1000", cs(`, "maxBytes": "1000"`), nil},
		{"bytes 999", cs(`, "maxBytes": 999`), []string{"error:value-too-small@/cloudStorageConfig/maxBytes"}},
		{"bytes 10 GiB", cs(`, "maxBytes": "10737418240"`), nil},
		{"bytes 10 GiB + 1", cs(`, "maxBytes": "10737418241"`), []string{"error:value-too-large@/cloudStorageConfig/maxBytes"}},
		{"messages 1000", cs(`, "maxMessages": 1000`), nil},
		// D14: plain int64 fields without presence: 0 is unset.
		{"bytes 0 is unset", cs(`, "maxBytes": "0"`), []string{"info:zero-means-default@/cloudStorageConfig/maxBytes"}},
		{"messages 0 is unset", cs(`, "maxMessages": 0`), []string{"info:zero-means-default@/cloudStorageConfig/maxMessages"}},
		{"bytes negative", cs(`, "maxBytes": "-1"`), []string{"error:value-too-small@/cloudStorageConfig/maxBytes"}},
		{"E20", cs(`, "maxDuration": "30s", "maxMessages": "999"`),
			[]string{"error:value-too-small@/cloudStorageConfig/maxDuration", "error:value-too-small@/cloudStorageConfig/maxMessages"}},
		{"text and avro", cs(`, "textConfig": {}, "avroConfig": {}`), []string{"error:one-output-format@/cloudStorageConfig/avroConfig"}},
	})
}

func TestNames(t *testing.T) {
	named := func(name string) string {
		return `{"name": "` + name + `", "topic": "projects/my-project/topics/topic-1"}`
	}
	runRuleCases(t, []ruleCase{
		{"starts with digit (E1)", named("projects/my-project/subscriptions/1abc"), []string{"error:resource-name@/name"}},
		{"goog prefix (E2)", named("projects/my-project/subscriptions/goog-x"), []string{"error:resource-name@/name"}},
		// D16: the reserved prefix is checked case-sensitively.
		{"GOOG prefix is allowed", named("projects/my-project/subscriptions/GOOGsub"), nil},
		{"Goog prefix is allowed", named("projects/my-project/subscriptions/Google-sub"), nil},
		{"two characters (E3)", named("projects/my-project/subscriptions/ab"), []string{"error:resource-name@/name"}},
		{"three characters", named("projects/my-project/subscriptions/abc"), nil},
		{"255 characters", named("projects/my-project/subscriptions/a" + strings.Repeat("b", 254)), nil},
		{"256 characters", named("projects/my-project/subscriptions/a" + strings.Repeat("b", 255)), []string{"error:resource-name@/name"}},
		{"all allowed characters", named("projects/my-project/subscriptions/aZ9-_.~+%"), nil},
		{"space in ID", named("projects/my-project/subscriptions/my sub"), []string{"error:resource-name@/name"}},
		{"short name", named("sub-1"), []string{"error:resource-name@/name"}},
		{"wrong collection", named("projects/my-project/topics/sub-1"), []string{"error:resource-name@/name"}},
		{"project uppercase", named("projects/My-Project/subscriptions/sub-1"), []string{"error:resource-name@/name"}},
		{"project too short", named("projects/abc/subscriptions/sub-1"), []string{"error:resource-name@/name"}},
		{"project trailing hyphen", named("projects/my-project-/subscriptions/sub-1"), []string{"error:resource-name@/name"}},
		{"project number", named("projects/123456789012/subscriptions/sub-1"), nil},
		{"domain-scoped project", named("projects/example.com:my-project/subscriptions/sub-1"), nil},
		{"no name", `{"topic": "projects/my-project/topics/topic-1"}`, []string{"warning:missing-name@/name"}},
		{"no topic", `{"name": "projects/my-project/subscriptions/sub-1"}`, []string{"error:missing-field@/topic"}},
		{"deleted topic", `{"name": "projects/my-project/subscriptions/sub-1", "topic": "_deleted-topic_"}`, []string{"warning:deleted-topic@/topic"}},
		{"topic short name", `{"name": "projects/my-project/subscriptions/sub-1", "topic": "orders"}`, []string{"error:resource-name@/topic"}},
	})
}

func TestLabels(t *testing.T) {
	many := func(n int) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`"k%d": "v"`, i))
		}
		return base(`"labels": {` + strings.Join(parts, ", ") + `}`)
	}
	runRuleCases(t, []ruleCase{
		{"ok", base(`"labels": {"env": "prod", "team_a": "", "ключ": "значение"}`), nil},
		{"uppercase key (E15)", base(`"labels": {"Env": "prod"}`), []string{"error:label-key@/labels/Env"}},
		{"caseless letters (Lo)", base(`"labels": {"日本": "値"}`), nil},
		{"non-ASCII uppercase", base(`"labels": {"équipe": "Été"}`), []string{"error:label-value@/labels/équipe"}},
		{"symbol in key", base(`"labels": {"env.name": "x"}`), []string{"error:label-key@/labels/env.name"}},
		{"63 multi-byte characters", base(`"labels": {"k": "` + strings.Repeat("é", 63) + `"}`), nil},
		{"key starts with digit", base(`"labels": {"1env": "prod"}`), []string{"error:label-key@/labels/1env"}},
		{"key 63 characters", base(`"labels": {"` + "k" + strings.Repeat("x", 62) + `": "v"}`), nil},
		{"key 64 characters", base(`"labels": {"` + "k" + strings.Repeat("x", 63) + `": "v"}`), []string{"error:label-key@/labels/k" + strings.Repeat("x", 63)}},
		{"uppercase value", base(`"labels": {"env": "Prod"}`), []string{"error:label-value@/labels/env"}},
		{"value 64 characters", base(`"labels": {"env": "` + strings.Repeat("v", 64) + `"}`), []string{"error:label-value@/labels/env"}},
		{"number value", base(`"labels": {"env": 1}`), []string{"error:wrong-type@/labels/env"}},
		{"64 labels", many(64), nil},
		{"65 labels", many(65), []string{"error:too-many@/labels"}},
	})
}

func TestTransforms(t *testing.T) {
	udf := func(name, code string) string {
		return `{"javascriptUdf": {"functionName": "` + name + `", "code": "` + code + `"}}`
	}
	tr := func(items ...string) string { return base(`"messageTransforms": [` + strings.Join(items, ", ") + `]`) }
	runRuleCases(t, []ruleCase{
		{"udf", tr(udf("redact", "function redact(message, metadata) { return message; }")), nil},
		{"udf arrow", tr(udf("redact", "const redact = (message, metadata) => message;")), nil},
		{"udf missing code", tr(`{"javascriptUdf": {"functionName": "f"}}`), []string{"error:missing-field@/messageTransforms/0/javascriptUdf/code"}},
		{"udf missing name", tr(`{"javascriptUdf": {"code": "function f(m) {}"}}`), []string{"error:missing-field@/messageTransforms/0/javascriptUdf/functionName"}},
		{"udf code does not define it", tr(udf("redact", "function other(m) { return m; }")), []string{"error:udf-code@/messageTransforms/0/javascriptUdf/code"}},
		{"udf names unique (E22)", tr(udf("f", "function f(m) {}"), udf("f", "function f(m) {}")),
			[]string{"error:udf-name-unique@/messageTransforms/1/javascriptUdf/functionName"}},
		{"no kind", tr(`{"disabled": true}`), []string{"error:transform-kind@/messageTransforms/0"}},
		{"two kinds", tr(`{"javascriptUdf": {"functionName": "f", "code": "function f(m) {}"}, "compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}}`),
			[]string{"error:transform-kind@/messageTransforms/0"}},
		{"compression", tr(`{"compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "DECOMPRESS"}}`), nil},
		{"compression lowercase", tr(`{"compression": {"compressionAlgorithm": "zlib", "compressionMode": "COMPRESS"}}`),
			[]string{"error:enum-value@/messageTransforms/0/compression/compressionAlgorithm"}},
		{"compression missing mode", tr(`{"compression": {"compressionAlgorithm": "ZLIB"}}`),
			[]string{"error:missing-field@/messageTransforms/0/compression/compressionMode"}},
		{"ai endpoint", tr(`{"aiInference": {"endpoint": "projects/p/locations/us-central1/publishers/google/models/gemini"}}`), nil},
		{"ai endpoint malformed", tr(`{"aiInference": {"endpoint": "gemini"}}`), []string{"error:ai-endpoint@/messageTransforms/0/aiInference/endpoint"}},
		{"enabled deprecated", tr(`{"compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}, "enabled": true}`),
			[]string{"warning:deprecated-field@/messageTransforms/0/enabled"}},
		{"six transforms", tr(udf("a", "function a(m){}"), udf("b", "function b(m){}"), udf("c", "function c(m){}"),
			udf("d", "function d(m){}"), udf("e", "function e(m){}"), udf("f", "function f(m){}")), []string{"error:too-many-transforms@/messageTransforms/5"}},
		// D15: only enabled transforms count; enabled: false is a proto3
		// bool without presence, the same as absent, so it disables nothing.
		{"five enabled and a disabled one", tr(udf("a", "function a(m){}"), udf("b", "function b(m){}"), udf("c", "function c(m){}"),
			udf("d", "function d(m){}"), `{"disabled": true, "javascriptUdf": {"functionName": "e", "code": "function e(m){}"}}`, udf("f", "function f(m){}")), nil},
		{"seven enabled: one finding", tr(udf("a", "function a(m){}"), udf("b", "function b(m){}"), udf("c", "function c(m){}"),
			udf("d", "function d(m){}"), udf("e", "function e(m){}"), udf("f", "function f(m){}"), udf("g", "function g(m){}")),
			[]string{"error:too-many-transforms@/messageTransforms/5"}},
		{"enabled false does not disable", tr(udf("a", "function a(m){}"), udf("b", "function b(m){}"), udf("c", "function c(m){}"),
			udf("d", "function d(m){}"), udf("e", "function e(m){}"), `{"enabled": false, "javascriptUdf": {"functionName": "f", "code": "function f(m){}"}}`),
			[]string{"error:too-many-transforms@/messageTransforms/5", "warning:deprecated-field@/messageTransforms/5/enabled"}},
		{"udf async arrow", tr(udf("redact", "let redact = async m => m;")), nil},
		{"udf function expression", tr(udf("redact", "var redact = function (m) { return m; };")), nil},
		{"udf name inside a longer name", tr(udf("redact", "function redact2(m) { return m; } var xredact = (m) => m;")),
			[]string{"error:udf-code@/messageTransforms/0/javascriptUdf/code"}},
		{"udf compared, not assigned", tr(udf("redact", "if (redact == (1)) {}")), []string{"error:udf-code@/messageTransforms/0/javascriptUdf/code"}},
		{"udf functionredact is not a declaration", tr(udf("redact", "functionredact(m)")), []string{"error:udf-code@/messageTransforms/0/javascriptUdf/code"}},
	})
}

func TestDecodingProblems(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// D13: unknown fields are errors at any depth.
		{"unknown field", base(`"ackDeadline": 20`), []string{"error:unknown-field@/ackDeadline"}},
		{"unknown field, one letter short", base(`"ackDeadlineSecond": 20`), []string{"error:unknown-field@/ackDeadlineSecond"}},
		{"unknown nested field", base(`"retryPolicy": {"minimumBackof": "10s"}`), []string{"error:unknown-field@/retryPolicy/minimumBackof"}},
		{"unknown field in a transform", base(`"messageTransforms": [{"compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS", "level": 9}}]`),
			[]string{"error:unknown-field@/messageTransforms/0/compression/level"}},
		{"unknown field deep in bigtable", base(`"bigtableConfig": {"table": "projects/my-project/instances/i/tables/t", "columnFamilyMapping": {"delimitedKey": {"keyFields": ["a"], "separator": "Iw=="}}}`),
			[]string{"error:unknown-field@/bigtableConfig/columnFamilyMapping/delimitedKey/separator"}},
		{"snake case accepted", base(`"ack_deadline_seconds": 20, "dead_letter_policy": {"dead_letter_topic": "projects/my-project/topics/dead", "max_delivery_attempts": 7}`),
			[]string{"info:dead-letter-iam@/deadLetterPolicy/deadLetterTopic"}},
		{"snake and camel together", base(`"ack_deadline_seconds": 20, "ackDeadlineSeconds": 30`), []string{"error:duplicate-key@/ackDeadlineSeconds"}},
		{"duplicate key", base(`"filter": "", "filter": ""`), []string{"error:duplicate-key@", "info:empty-filter@/filter"}},
		{"null is unset", base(`"filter": null, "pushConfig": null`), nil},
		{"output only", base(`"state": "ACTIVE", "topicMessageRetentionDuration": "86400s"`),
			[]string{"info:output-only@/state", "info:output-only@/topicMessageRetentionDuration"}},
		{"wrong object type", base(`"pushConfig": "https://example.com"`), []string{"error:wrong-type@/pushConfig"}},
		{"array not object", `[]`, []string{"error:not-an-object@"}},
		{"malformed json", `{"name": }`, []string{"error:json-syntax@"}},
		{"malformed yaml", "name: x\n  topic: y\n", []string{"error:yaml-syntax@"}},
	})
}

func TestUnknownFieldSuggestions(t *testing.T) {
	cases := []struct{ in, hint string }{
		{base(`"ackDeadline": 20`), `did you mean "ackDeadlineSeconds"?`},
		{base(`"messageRetention": "600s"`), `did you mean "messageRetentionDuration"?`},
		{base(`"fitler": ""`), `did you mean "filter"?`},
		{base(`"maxDuration": "60s"`), `"maxDuration" belongs in cloudStorageConfig`},
		{base(`"pushConfig": {"endpoint": "https://x.example"}`), `did you mean "pushEndpoint"?`},
	}
	for _, tc := range cases {
		ds := Decode("t", tc.in, "").Validate()
		found := false
		for _, d := range ds {
			if d.Code == "unknown-field" {
				found = true
				if d.Hint != tc.hint {
					t.Errorf("%s: hint %q, want %q", tc.in, d.Hint, tc.hint)
				}
			}
		}
		if !found {
			t.Errorf("%s: no unknown-field diagnostic:\n%s", tc.in, dump(ds))
		}
	}
}

func TestDurationHints(t *testing.T) {
	cases := map[string]string{
		"7d":     `write "604800s": the API takes durations as seconds ending in "s"`,
		"10m":    `write "600s": the API takes durations as seconds ending in "s"`,
		"1h30m":  `write "5400s": the API takes durations as seconds ending in "s"`,
		"PT5M":   `write "300s": the API takes durations as seconds ending in "s"`,
		"604800": `write "604800s": durations are strings of seconds ending in "s"`,
		"1.5":    `write "1.5s": durations are strings of seconds ending in "s"`,
		"soon":   `write the duration as seconds ending in "s", e.g. "600s" or "3.5s"`,
	}
	for in, want := range cases {
		if got := durationHint(in); got != want {
			t.Errorf("durationHint(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDurationHuman(t *testing.T) {
	cases := map[string]string{"30s": "30s", "0s": "0s", "60s": "1m", "90s": "1m30s", "3.5s": "3.5s", "604800s": "7d",
		"2678400s": "31d", "86401s": "1d1s", "0.000001s": "0.000001s", "10.250s": "10.25s"}
	for in, want := range cases {
		d, err := ParseDuration(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Human(); got != want {
			t.Errorf("Human(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestDurationParseAndFormat(t *testing.T) {
	cases := []struct {
		in, out string
		ok      bool
	}{
		{"600s", "600s", true}, {"3.5s", "3.500s", true}, {"0.000001s", "0.000001s", true},
		{"1.000000001s", "1.000000001s", true}, {"-1.5s", "-1.500s", true}, {"0s", "0s", true},
		{"315576000000s", "315576000000s", true}, {"315576000001s", "", false},
		{"s", "", false}, {"1.s", "", false}, {".5s", "", false}, {"1e3s", "", false}, {" 1s", "", false}, {"1", "", false},
	}
	for _, tc := range cases {
		d, err := ParseDuration(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("ParseDuration(%q) error %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if tc.ok && d.String() != tc.out {
			t.Errorf("ParseDuration(%q).String() = %q, want %q", tc.in, d.String(), tc.out)
		}
	}
}

func TestBigtable(t *testing.T) {
	bt := func(s string) string {
		return base(`"bigtableConfig": {"table": "projects/my-project/instances/i/tables/t"` + s + `}`)
	}
	key := func(s string) string { return bt(`, "columnFamilyMapping": {"delimitedKey": {` + s + `}}`) }
	runRuleCases(t, []ruleCase{
		{"plain", bt(""), nil},
		{"row key schema", bt(`, "columnFamilyMapping": {"rowKeySchema": {}}`), nil},
		{"delimited key", key(`"keyFields": ["region", "id"], "delimiter": "Iw=="`), nil},
		{"delimiter of 50 bytes", key(`"keyFields": ["a"], "delimiter": "` + base64.StdEncoding.EncodeToString(make([]byte, 50)) + `"`), nil},
		{"delimiter of 51 bytes", key(`"keyFields": ["a"], "delimiter": "` + base64.StdEncoding.EncodeToString(make([]byte, 51)) + `"`),
			[]string{"error:value-too-large@/bigtableConfig/columnFamilyMapping/delimitedKey/delimiter"}},
		{"delimiter empty", key(`"keyFields": ["a"], "delimiter": ""`),
			[]string{"error:value-too-small@/bigtableConfig/columnFamilyMapping/delimitedKey/delimiter"}},
		{"delimiter not base64", key(`"keyFields": ["a"], "delimiter": "#"`),
			[]string{"error:bytes-format@/bigtableConfig/columnFamilyMapping/delimitedKey/delimiter"}},
		{"both key definitions", bt(`, "columnFamilyMapping": {"rowKeySchema": {}, "delimitedKey": {"keyFields": ["a"]}}`),
			[]string{"error:one-key-definition@/bigtableConfig/columnFamilyMapping/delimitedKey"}},
		{"key fields missing", key(`"delimiter": "Iw=="`),
			[]string{"error:missing-field@/bigtableConfig/columnFamilyMapping/delimitedKey/keyFields"}},
		{"key field not a string", key(`"keyFields": [1]`),
			[]string{"error:wrong-type@/bigtableConfig/columnFamilyMapping/delimitedKey/keyFields/0"}},
	})
}
