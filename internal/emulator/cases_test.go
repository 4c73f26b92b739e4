//go:build unix

package emulator

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/subscription"
	"go.yaml.in/yaml/v3"
)

// A case is one subscription the emulator is asked to create: an example
// of the repository or a value generated from a row of the rule table.
type oracleCase struct {
	name string
	// id is the subscription ID in the URL; path is the JSON pointer of
	// the field the case is about, where our error must point when the
	// emulator's message names no field.
	id, path string
	body     map[string]any
}

const (
	topic     = "projects/" + Project + "/topics/orders"
	deadTopic = "projects/" + Project + "/topics/dead-letter"
)

// skeletons are the smallest valid values of the objects a generated
// value sits in, keyed by generic path ("*" for an array index). A case
// on a required field removes it from its skeleton.
var skeletons = map[string]func() any{
	"":            func() any { return map[string]any{"topic": topic} },
	"/pushConfig": func() any { return map[string]any{"pushEndpoint": "https://example.com/push"} },
	"/pushConfig/oidcToken": func() any {
		return map[string]any{"serviceAccountEmail": "push@" + Project + ".iam.gserviceaccount.com"}
	},
	"/bigqueryConfig":      func() any { return map[string]any{"table": Project + ".dataset.table"} },
	"/cloudStorageConfig":  func() any { return map[string]any{"bucket": "oracle-bucket"} },
	"/bigtableConfig":      func() any { return map[string]any{"table": "projects/" + Project + "/instances/i/tables/t"} },
	"/deadLetterPolicy":    func() any { return map[string]any{"deadLetterTopic": deadTopic} },
	"/messageTransforms":   func() any { return []any{map[string]any{}} },
	"/messageTransforms/*": func() any { return map[string]any{} },
	"/messageTransforms/*/javascriptUdf": func() any {
		return map[string]any{"functionName": "keep", "code": "function keep(message, metadata) { return message; }"}
	},
	"/messageTransforms/*/compression": func() any {
		return map[string]any{"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}
	},
	"/messageTransforms/*/aiInference": func() any {
		return map[string]any{"endpoint": "projects/" + Project + "/locations/us-central1/endpoints/e1"}
	},
	"/bigtableConfig/columnFamilyMapping/delimitedKey": func() any { return map[string]any{"keyFields": []any{"a"}} },
}

var transformKinds = map[string]bool{"javascriptUdf": true, "compression": true, "aiInference": true}

// skeleton is the skeleton of the object at a generic path, {} when it has none.
func skeleton(path string) any {
	if f, ok := skeletons[path]; ok {
		return f()
	}
	return map[string]any{}
}

// set builds the body for a value at a generic path: every object on the
// way gets its skeleton (the first array element for "*"). A nil value
// removes the field instead.
func set(path string, v any) map[string]any {
	root := skeleton("").(map[string]any)
	parts := strings.Split(path, "/")[1:]
	var cur any = root
	at := ""
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if v == nil {
					delete(c, p)
				} else {
					c[p] = v
				}
				return root
			}
			at += "/" + p
			if _, ok := c[p]; !ok {
				c[p] = skeleton(at)
			}
			cur = c[p]
		case []any:
			if last {
				c[0] = v
				return root
			}
			at += "/*"
			cur = c[0]
			// A transform needs a kind; a case about its other fields
			// gets the JavaScript one.
			if at == "/messageTransforms/*" && !transformKinds[parts[i+1]] {
				cur.(map[string]any)["javascriptUdf"] = skeleton(at + "/javascriptUdf")
			}
		}
	}
	return root
}

// parentRequired lists the required children of the object at path.
func requiredUnder(path string) []string {
	var out []string
	for _, f := range subscription.Fields() {
		if f.Required && strings.TrimSuffix(f.Path, "/"+f.Name) == path {
			out = append(out, f.Name)
		}
	}
	return out
}

// generated returns the cases of the rule table: every property at and
// around its bounds, with wrong types, each enum value, and the
// cross-field rules.
func generated(t testing.TB) []oracleCase {
	var cases []oracleCase
	add := func(f *subscription.Field, what string, v any) {
		cases = append(cases, oracleCase{name: caseName(f.Path) + "/" + what, path: concrete(f.Path), body: set(f.Path, v)})
	}
	for _, f := range subscription.Fields() {
		if f.Path == "/name" {
			continue // nameCases: the ID is in the URL
		}
		if f.OutputOnly {
			// The API ignores output-only fields in a request.
			switch {
			case len(f.Enum) > 0:
				for _, e := range f.Enum {
					add(f, "output-only-"+strings.ToLower(e), e)
				}
			case f.Kind == subscription.KindDuration:
				add(f, "output-only", "600s")
			default:
				add(f, "output-only", map[string]any{})
			}
			continue
		}
		if f.Required {
			add(f, "missing", nil)
		}
		switch f.Kind {
		case subscription.KindInt32, subscription.KindInt64:
			lo, hi := bound(f.Min), bound(f.Max)
			if lo != nil {
				add(f, "below-min", *lo-1)
				add(f, "at-min", *lo)
				add(f, "at-min-quoted", strconv.FormatInt(*lo, 10)) // the JSON mapping takes integers as strings too
			}
			if hi != nil {
				add(f, "at-max", *hi)
				add(f, "above-max", *hi+1)
			}
			if f.ZeroMeansDefault {
				add(f, "zero", 0)
			}
			add(f, "negative", -1)
			add(f, "fraction", 10.5)
			add(f, "wrong-type-word", "ten")
			add(f, "wrong-type-bool", true)
		case subscription.KindDuration:
			lo, hi := durBound(f.Min), durBound(f.Max)
			if lo != nil {
				add(f, "below-min", dur(*lo-1))
				add(f, "at-min", dur(*lo))
			}
			if hi != nil {
				add(f, "at-max", dur(*hi))
				add(f, "above-max", dur(*hi+1))
				add(f, "below-max-fraction", strconv.FormatInt(*hi-1, 10)+".5s")
			}
			add(f, "no-unit", "600")
			add(f, "days-unit", "3d")
			add(f, "wrong-type-number", 600)
		case subscription.KindBool:
			add(f, "true", true)
			add(f, "false", false)
			add(f, "wrong-type-string", "yes")
		case subscription.KindString:
			for _, e := range f.Enum {
				add(f, "enum-"+strings.ToLower(e), e)
			}
			if len(f.Enum) > 0 {
				add(f, "enum-lowercase", strings.ToLower(f.Enum[0]))
				add(f, "enum-unknown", "BOGUS")
			}
			if hi := bound(f.Max); hi != nil && f.Path == "/filter" {
				add(f, "at-max", filterOfLength(int(*hi)))
				add(f, "above-max", filterOfLength(int(*hi)+1))
			}
			add(f, "wrong-type-number", 5)
			add(f, "empty", "")
		case subscription.KindMap:
			if hi := bound(f.Max); hi != nil {
				add(f, "at-max", labels(int(*hi)))
				add(f, "above-max", labels(int(*hi)+1))
			}
			for _, e := range f.Enum {
				add(f, "enum-"+e, map[string]any{"x-goog-version": e})
			}
			if len(f.Enum) > 0 {
				add(f, "enum-unknown", map[string]any{"x-goog-version": "v9"})
			}
			add(f, "wrong-type-array", []any{"a"})
			add(f, "wrong-type-value", map[string]any{"a": 1})
		case subscription.KindArray:
			if hi := bound(f.Max); hi != nil && f.Path == "/messageTransforms" {
				add(f, "at-max", transforms(int(*hi), 0))
				add(f, "above-max", transforms(int(*hi)+1, 0))
				add(f, "above-max-one-disabled", transforms(int(*hi)+1, 1))
			}
			add(f, "wrong-type-object", map[string]any{})
		case subscription.KindBytes:
			lo, hi := bound(f.Min), bound(f.Max)
			if lo != nil {
				add(f, "below-min", b64(int(*lo)-1))
				add(f, "at-min", b64(int(*lo)))
			}
			if hi != nil {
				add(f, "at-max", b64(int(*hi)))
				add(f, "above-max", b64(int(*hi)+1))
			}
			add(f, "not-base64", "***")
		case subscription.KindObject:
			add(f, "wrong-type-string", "x")
			add(f, "wrong-type-array", []any{})
			if len(requiredUnder(f.Path)) > 0 {
				add(f, "empty", map[string]any{})
			}
		}
	}
	return append(cases, crossCases()...)
}

// crossCases are the rules between fields, and values the table's columns
// do not describe (formats of names, tables and buckets).
func crossCases() []oracleCase {
	c := func(name, path string, patch map[string]any) oracleCase {
		body := skeleton("").(map[string]any)
		for k, v := range patch {
			body[k] = v
		}
		return oracleCase{name: "cross/" + name, path: path, body: body}
	}
	push := map[string]any{"pushEndpoint": "https://example.com/push"}
	return []oracleCase{
		c("backoff-max-below-min", "/retryPolicy/maximumBackoff", map[string]any{"retryPolicy": map[string]any{"minimumBackoff": "20s", "maximumBackoff": "10s"}}),
		c("backoff-max-equals-min", "/retryPolicy/maximumBackoff", map[string]any{"retryPolicy": map[string]any{"minimumBackoff": "20s", "maximumBackoff": "20s"}}),
		c("backoff-only-max-below-default-min", "/retryPolicy/maximumBackoff", map[string]any{"retryPolicy": map[string]any{"maximumBackoff": "5s"}}),
		c("ttl-below-retention", "/expirationPolicy/ttl", map[string]any{"messageRetentionDuration": "604800s", "expirationPolicy": map[string]any{"ttl": "172800s"}}),
		c("ttl-equals-retention", "/expirationPolicy/ttl", map[string]any{"messageRetentionDuration": "172800s", "expirationPolicy": map[string]any{"ttl": "172800s"}}),
		c("ttl-zero", "/expirationPolicy/ttl", map[string]any{"expirationPolicy": map[string]any{"ttl": "0s"}}),
		c("exactly-once-with-push", "/enableExactlyOnceDelivery", map[string]any{"enableExactlyOnceDelivery": true, "pushConfig": push}),
		c("push-and-bigquery", "/bigqueryConfig", map[string]any{"pushConfig": push, "bigqueryConfig": map[string]any{"table": Project + ".dataset.table"}}),
		c("push-and-storage", "/cloudStorageConfig", map[string]any{"pushConfig": push, "cloudStorageConfig": map[string]any{"bucket": "oracle-bucket"}}),
		c("bigquery-and-storage", "/cloudStorageConfig", map[string]any{"bigqueryConfig": map[string]any{"table": Project + ".dataset.table"}, "cloudStorageConfig": map[string]any{"bucket": "oracle-bucket"}}),
		c("both-wrappers", "/pushConfig", map[string]any{"pushConfig": map[string]any{"pushEndpoint": "https://example.com/push", "pubsubWrapper": map[string]any{}, "noWrapper": map[string]any{}}}),
		c("both-output-formats", "/cloudStorageConfig", map[string]any{"cloudStorageConfig": map[string]any{"bucket": "oracle-bucket", "textConfig": map[string]any{}, "avroConfig": map[string]any{}}}),
		c("both-bigquery-schemas", "/bigqueryConfig", map[string]any{"bigqueryConfig": map[string]any{"table": Project + ".dataset.table", "useTopicSchema": true, "useTableSchema": true}}),
		c("drop-unknown-without-schema", "/bigqueryConfig/dropUnknownFields", map[string]any{"bigqueryConfig": map[string]any{"table": Project + ".dataset.table", "dropUnknownFields": true}}),
		c("bigquery-table-colon", "/bigqueryConfig/table", map[string]any{"bigqueryConfig": map[string]any{"table": Project + ":dataset.table"}}),
		c("bigquery-table-two-parts", "/bigqueryConfig/table", map[string]any{"bigqueryConfig": map[string]any{"table": "dataset.table"}}),
		c("bucket-gs-prefix", "/cloudStorageConfig/bucket", map[string]any{"cloudStorageConfig": map[string]any{"bucket": "gs://oracle-bucket"}}),
		c("bucket-uppercase", "/cloudStorageConfig/bucket", map[string]any{"cloudStorageConfig": map[string]any{"bucket": "Oracle-Bucket"}}),
		c("suffix-ends-with-slash", "/cloudStorageConfig/filenameSuffix", map[string]any{"cloudStorageConfig": map[string]any{"bucket": "oracle-bucket", "filenameSuffix": "out/"}}),
		c("datetime-format-bad", "/cloudStorageConfig/filenameDatetimeFormat", map[string]any{"cloudStorageConfig": map[string]any{"bucket": "oracle-bucket", "filenameDatetimeFormat": "YYYY-QQ"}}),
		c("push-endpoint-http", "/pushConfig/pushEndpoint", map[string]any{"pushConfig": map[string]any{"pushEndpoint": "http://example.com/push"}}),
		c("push-endpoint-not-url", "/pushConfig/pushEndpoint", map[string]any{"pushConfig": map[string]any{"pushEndpoint": "not a url"}}),
		c("push-attributes-other-key", "/pushConfig/attributes", map[string]any{"pushConfig": map[string]any{"pushEndpoint": "https://example.com/push", "attributes": map[string]any{"other": "x"}}}),
		c("label-key-longest", "/labels", map[string]any{"labels": map[string]any{"k" + strings.Repeat("x", labelMax()-1): "a"}}),
		c("tags", "/tags", map[string]any{"tags": map[string]any{"123/environment": "production"}}),
		c("retention-seven-days", "/messageRetentionDuration", map[string]any{"messageRetentionDuration": "604800s"}),
		c("retention-seven-days-and-a-second", "/messageRetentionDuration", map[string]any{"messageRetentionDuration": "604801s"}),
		c("label-key-uppercase", "/labels", map[string]any{"labels": map[string]any{"Team": "a"}}),
		c("label-key-digit-first", "/labels", map[string]any{"labels": map[string]any{"1team": "a"}}),
		c("label-value-uppercase", "/labels", map[string]any{"labels": map[string]any{"team": "A"}}),
		c("label-key-too-long", "/labels", map[string]any{"labels": map[string]any{"k" + strings.Repeat("x", labelMax()): "a"}}),
		c("filter-mixed-and-or", "/filter", map[string]any{"filter": `attributes.a = "1" AND attributes.b = "2" OR attributes.c = "3"`}),
		c("filter-syntax-error", "/filter", map[string]any{"filter": `attributes.a = `}),
		c("filter-ok", "/filter", map[string]any{"filter": `attributes.region = "eu"`}),
		c("topic-short-form", "/topic", map[string]any{"topic": "orders"}),
		c("topic-not-created", "/topic", map[string]any{"topic": "projects/" + Project + "/topics/never-created"}),
		c("topic-other-project", "/topic", map[string]any{"topic": "projects/other-project/topics/orders"}),
		c("dead-letter-topic-short-form", "/deadLetterPolicy/deadLetterTopic", map[string]any{"deadLetterPolicy": map[string]any{"deadLetterTopic": "dead-letter"}}),
		c("dead-letter-topic-not-created", "/deadLetterPolicy/deadLetterTopic", map[string]any{"deadLetterPolicy": map[string]any{"deadLetterTopic": "projects/" + Project + "/topics/never-created"}}),
		c("transform-two-kinds", "/messageTransforms/0", map[string]any{"messageTransforms": []any{map[string]any{"compression": map[string]any{"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}, "javascriptUdf": map[string]any{"functionName": "f", "code": "function f(m, d) { return m; }"}}}}),
		c("transform-no-kind", "/messageTransforms/0", map[string]any{"messageTransforms": []any{map[string]any{}}}),
		c("transform-duplicate-function", "/messageTransforms/1/javascriptUdf/functionName", map[string]any{"messageTransforms": duplicateFunctions()}),
		c("unknown-field", "/bogusField", map[string]any{"bogusField": 1}),
		c("unknown-nested-field", "/pushConfig/bogusField", map[string]any{"pushConfig": map[string]any{"pushEndpoint": "https://example.com/push", "bogusField": 1}}),
		c("snake-case-name", "/ack_deadline_seconds", map[string]any{"ack_deadline_seconds": 20}),
	}
}

var (
	topicRe      = regexp.MustCompile(`^projects/[a-z][-a-z0-9]*/topics/[A-Za-z][-A-Za-z0-9._~+%]*$`)
	idBoundsRe   = regexp.MustCompile(`(\d+) to (\d+) characters`)
	labelBoundRe = regexp.MustCompile(`up to (\d+) characters`)
)

// nameCases put the subscription ID at and around its bounds. The bounds
// are read from the /name row's help, where the rule table states them.
func nameCases(t testing.TB) []oracleCase {
	m := idBoundsRe.FindStringSubmatch(subscription.FieldAt("/name").Help)
	if m == nil {
		t.Fatal("the /name row's help no longer states the ID length")
	}
	lo, _ := strconv.Atoi(m[1])
	hi, _ := strconv.Atoi(m[2])
	ids := []struct{ what, id string }{
		{"below-min", "s" + strings.Repeat("x", lo-2)},
		{"at-min", "s" + strings.Repeat("x", lo-1)},
		{"at-max", "s" + strings.Repeat("x", hi-1)},
		{"above-max", "s" + strings.Repeat("x", hi)},
		{"digit-first", "1orders"},
		{"goog-prefix", "goog-orders"},
		{"punctuation", "orders.v2_x~y+z-"},
	}
	var cases []oracleCase
	for _, x := range ids {
		body := skeleton("").(map[string]any)
		body["name"] = "projects/" + Project + "/subscriptions/" + x.id
		cases = append(cases, oracleCase{name: "name/" + x.what, id: x.id, path: "/name", body: body})
	}
	return cases
}

func labelMax() int {
	m := labelBoundRe.FindStringSubmatch(subscription.FieldAt("/labels").Help)
	n, _ := strconv.Atoi(m[1])
	return n
}

// exampleCases are the example configurations of the repository, each
// under an ID of its own (the name in the file is left out: the examples
// share projects, and the emulator would keep the first).
func exampleCases(t testing.TB) []oracleCase {
	dir := filepath.Join("..", "..", "core", "subscription", "testdata", "examples")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []oracleCase
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		switch filepath.Ext(e.Name()) {
		case ".json":
			err = json.Unmarshal(raw, &body)
		case ".yaml":
			err = yaml.Unmarshal(raw, &body)
		default:
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		delete(body, "name")
		cases = append(cases, oracleCase{name: "example/" + e.Name(), path: "", body: body})
	}
	return cases
}

// allCases is every case, with its subscription ID.
func allCases(t testing.TB) []oracleCase {
	cases := append(exampleCases(t), nameCases(t)...)
	cases = append(cases, generated(t)...)
	seen := map[string]bool{}
	for i := range cases {
		if seen[cases[i].name] {
			t.Fatalf("case %s is generated twice", cases[i].name)
		}
		seen[cases[i].name] = true
		if cases[i].id == "" {
			cases[i].id = "case-" + strconv.Itoa(i)
		}
	}
	return cases
}

// topics are the topics a body names, which the emulator needs to exist.
func (c oracleCase) topics() []string {
	var out []string
	if s, ok := c.body["topic"].(string); ok {
		out = append(out, s)
	}
	if dl, ok := c.body["deadLetterPolicy"].(map[string]any); ok {
		if s, ok := dl["deadLetterTopic"].(string); ok {
			out = append(out, s)
		}
	}
	// A topic a case leaves out on purpose, or names wrongly, is not created.
	return slices.DeleteFunc(out, func(s string) bool { return !topicRe.MatchString(s) || strings.Contains(s, "never-created") })
}

func (c oracleCase) json() []byte {
	b, err := json.Marshal(c.body)
	if err != nil {
		panic(err)
	}
	return b
}

func caseName(path string) string {
	return strings.ReplaceAll(strings.TrimPrefix(path, "/"), "/*/", "/0/")
}

func concrete(path string) string { return strings.ReplaceAll(path, "/*", "/0") }

func bound(s string) *int64 {
	if s == "" {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		panic(err)
	}
	return &v
}

// durBound reads a duration bound in whole seconds.
func durBound(s string) *int64 {
	if s == "" {
		return nil
	}
	d, err := subscription.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return &d.Seconds
}

func dur(sec int64) string { return strconv.FormatInt(sec, 10) + "s" }

// filterOfLength is a valid filter of exactly n bytes.
func filterOfLength(n int) string {
	const head, tail = `attributes.k = "`, `"`
	return head + strings.Repeat("v", n-len(head)-len(tail)) + tail
}

func labels(n int) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m["k"+strconv.Itoa(i)] = "v"
	}
	return m
}

// duplicateFunctions is two JavaScript transforms with the same function name.
func duplicateFunctions() []any {
	ts := transforms(2, 0)
	ts[1] = ts[0]
	return ts
}

// transforms is n JavaScript transforms with distinct function names, the
// first `disabled` of them disabled.
func transforms(n, disabled int) []any {
	out := make([]any, n)
	for i := range n {
		name := "f" + strconv.Itoa(i)
		tr := map[string]any{"javascriptUdf": map[string]any{"functionName": name, "code": "function " + name + "(m, d) { return m; }"}}
		if i < disabled {
			tr["disabled"] = true
		}
		out[i] = tr
	}
	return out
}

func b64(n int) string {
	return base64.StdEncoding.EncodeToString([]byte(strings.Repeat("-", max(n, 0))))
}
