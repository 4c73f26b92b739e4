package subscription

import (
	"encoding/json"
	"testing"
)

// effectiveJSON decodes in and returns its effective subscription as a
// generic JSON value, failing the test on errors.
func effectiveOf(t *testing.T, in string) (*Effective, map[string]any) {
	t.Helper()
	c := Decode("t", in, "")
	e := c.Effective()
	if e == nil {
		t.Fatalf("no effective settings for %s", in)
	}
	b, err := json.Marshal(e.Subscription)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return e, m
}

// at walks a generic JSON value along a pointer.
func at(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func TestEffectiveDefaults(t *testing.T) {
	type want struct {
		path   []string
		value  any
		origin Origin
	}
	cases := []struct {
		name string
		in   string
		want []want
	}{
		{"pull defaults", base(""), []want{
			{[]string{"ackDeadlineSeconds"}, 10.0, Default},
			{[]string{"messageRetentionDuration"}, "604800s", Default},
			{[]string{"retainAckedMessages"}, false, Default},
			{[]string{"expirationPolicy", "ttl"}, "2678400s", Default},
			{[]string{"enableMessageOrdering"}, false, Default},
			{[]string{"enableExactlyOnceDelivery"}, false, Default},
			{[]string{"detached"}, false, Default},
			{[]string{"filter"}, "", Default},
			{[]string{"topic"}, "projects/my-project/topics/topic-1", Set},
		}},
		{"zero ack means default", base(`"ackDeadlineSeconds": 0`), []want{{[]string{"ackDeadlineSeconds"}, 10.0, Default}}},
		{"set values kept", base(`"ackDeadlineSeconds": 42, "messageRetentionDuration": "3.5s"`), []want{
			{[]string{"ackDeadlineSeconds"}, 42.0, Set},
			{[]string{"messageRetentionDuration"}, "3.500s", Set},
		}},
		{"never expires stays empty", base(`"expirationPolicy": {}`), []want{{[]string{"expirationPolicy", "ttl"}, nil, ""}}},
		{"dead letter attempts", base(`"deadLetterPolicy": {"deadLetterTopic": "projects/my-project/topics/dead"}`), []want{
			{[]string{"deadLetterPolicy", "maxDeliveryAttempts"}, 5.0, Default},
		}},
		{"retry: only max set", base(`"retryPolicy": {"maximumBackoff": "60s"}`), []want{
			{[]string{"retryPolicy", "minimumBackoff"}, "10s", Default},
			{[]string{"retryPolicy", "maximumBackoff"}, "60s", Set},
		}},
		{"retry: only min set", base(`"retryPolicy": {"minimumBackoff": "20s"}`), []want{
			{[]string{"retryPolicy", "maximumBackoff"}, "600s", Default},
		}},
		{"no retry policy stays absent", base(""), []want{{[]string{"retryPolicy"}, nil, ""}}},
		{"push", base(`"pushConfig": {"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "a@b.iam.gserviceaccount.com"}}`), []want{
			{[]string{"pushConfig", "oidcToken", "audience"}, "https://example.com/p", Derived},
			{[]string{"pushConfig", "attributes", "x-goog-version"}, "v1", ""},
			{[]string{"pushConfig", "pubsubWrapper"}, map[string]any{}, Default},
		}},
		{"push no wrapper", base(`"pushConfig": {"pushEndpoint": "https://example.com/p", "noWrapper": {}}`), []want{
			{[]string{"pushConfig", "noWrapper", "writeMetadata"}, false, Default},
			{[]string{"pushConfig", "pubsubWrapper"}, nil, ""},
		}},
		{"bigquery", base(`"bigqueryConfig": {"table": "my-project.d.t", "useTableSchema": true}`), []want{
			{[]string{"bigqueryConfig", "useTopicSchema"}, false, Default},
			{[]string{"bigqueryConfig", "useTableSchema"}, true, Set},
			{[]string{"bigqueryConfig", "writeMetadata"}, false, Default},
			{[]string{"bigqueryConfig", "dropUnknownFields"}, false, Default},
		}},
		{"cloud storage", base(`"cloudStorageConfig": {"bucket": "b-1", "maxBytes": 5000}`), []want{
			{[]string{"cloudStorageConfig", "maxDuration"}, "300s", Default},
			{[]string{"cloudStorageConfig", "textConfig"}, map[string]any{}, Default},
			{[]string{"cloudStorageConfig", "filenameDatetimeFormat"}, Rules().At("/cloudStorageConfig/filenameDatetimeFormat").Default, Default},
			{[]string{"cloudStorageConfig", "maxBytes"}, "5000", Set},
		}},
		{"cloud storage zero limits are unset (D14)", base(`"cloudStorageConfig": {"bucket": "b-1", "maxBytes": "0", "maxMessages": 0}`), []want{
			{[]string{"cloudStorageConfig", "maxBytes"}, nil, ""},
			{[]string{"cloudStorageConfig", "maxMessages"}, nil, ""},
		}},
		{"cloud storage avro", base(`"cloudStorageConfig": {"bucket": "b-1", "avroConfig": {}}`), []want{
			{[]string{"cloudStorageConfig", "avroConfig", "writeMetadata"}, false, Default},
			{[]string{"cloudStorageConfig", "textConfig"}, nil, ""},
		}},
		{"output-only dropped", base(`"state": "ACTIVE"`), []want{{[]string{"state"}, nil, ""}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e, m := effectiveOf(t, tc.in)
			for _, w := range tc.want {
				got := at(m, w.path...)
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(w.value)
				if string(gb) != string(wb) {
					t.Errorf("%v = %s, want %s", w.path, gb, wb)
				}
				p := ""
				for _, s := range w.path {
					p += "/" + s
				}
				if w.origin != "" && e.Origins[p] != w.origin {
					t.Errorf("origin of %s = %q, want %q", p, e.Origins[p], w.origin)
				}
			}
		})
	}
}

func TestEffectiveDoesNotChangeInput(t *testing.T) {
	c := Decode("t", base(`"pushConfig": {"pushEndpoint": "https://example.com/p", "oidcToken": {"serviceAccountEmail": "a@b.iam.gserviceaccount.com"}}, "retryPolicy": {}`), "")
	before, _ := json.Marshal(c.Sub)
	c.Effective()
	after, _ := json.Marshal(c.Sub)
	if string(before) != string(after) {
		t.Errorf("Effective changed the decoded subscription:\n%s\n%s", before, after)
	}
}

func TestEffectiveValue(t *testing.T) {
	e, _ := effectiveOf(t, base(`"labels": {"a/b": "1"}, "messageTransforms": [{"compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}}]`))
	if v, ok := e.Value("/ackDeadlineSeconds"); !ok || *(v.(*Int32)) != 10 {
		t.Errorf("Value(/ackDeadlineSeconds) = %v, %v", v, ok)
	}
	if v, ok := e.Value("/labels/a/b"); ok {
		t.Errorf("a raw slash in a key must not resolve: %v", v)
	}
	if v, ok := e.Value("/messageTransforms/0/disabled"); !ok || *(v.(*bool)) {
		t.Errorf("Value(/messageTransforms/0/disabled) = %v, %v", v, ok)
	}
	if _, ok := e.Value("/retryPolicy/minimumBackoff"); ok {
		t.Error("absent retry policy must have no value")
	}
}

func TestUpdateChecks(t *testing.T) {
	old := base(`"filter": "attributes:a", "labels": {"env": "dev"}`)
	cases := []struct {
		name, in string
		want     []string
	}{
		{"labels may change", base(`"filter": "attributes:a", "labels": {"env": "prod"}, "ackDeadlineSeconds": 30`), nil},
		{"filter changes (D5)", base(`"filter": "attributes:b"`), []string{"error:immutable-field@/filter"}},
		{"filter removed", base(""), []string{"error:immutable-field@/filter"}},
		{"topic changes", `{"name": "projects/my-project/subscriptions/sub-1", "topic": "projects/my-project/topics/other", "filter": "attributes:a"}`,
			[]string{"error:immutable-field@/topic"}},
		{"ordering turned on", base(`"filter": "attributes:a", "enableMessageOrdering": true`), []string{"error:immutable-field@/enableMessageOrdering"}},
		{"renamed", `{"name": "projects/my-project/subscriptions/sub-2", "topic": "projects/my-project/topics/topic-1", "filter": "attributes:a"}`,
			[]string{"error:immutable-field@/name"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := Decode("new", tc.in, "").CheckUpdate(Decode("old", old, ""))
			var got []string
			for _, d := range ds {
				got = append(got, key(d))
				if d.Line == 0 && d.Path != "/filter" {
					t.Errorf("%s has no position", key(d))
				}
			}
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
