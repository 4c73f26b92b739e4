package avroschema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
)

// parseJSON decodes a JSON text for comparison, failing the test if it is
// not JSON.
func parseJSON(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	return v
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	if g, w := parseJSON(t, got), parseJSON(t, want); !reflect.DeepEqual(g, w) {
		t.Errorf("schema differs\n got: %s\nwant: %s", got, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustTopic(t *testing.T, text string) *Topic {
	t.Helper()
	topic, ds := ParseTopic("topic.avsc", text)
	if diag.HasErrors(ds) {
		t.Fatalf("topic schema rejected:\n%s", diag.Render(topic.Doc.Source, ds))
	}
	return topic
}

const orderSchema = `{
  "type": "record",
  "name": "Order",
  "namespace": "com.example",
  "fields": [
    {"name": "id", "type": "string"},
    {"name": "amount", "type": "double"},
    {"name": "note", "type": ["null", "string"], "default": null}
  ]
}`

func TestOutputSchema(t *testing.T) {
	orderWithMetadata := `{"type":"record","name":"Order","namespace":"com.example","fields":[
	  {"name":"id","type":"string"},{"name":"amount","type":"double"},
	  {"name":"note","type":["null","string"],"default":null},
	  {"name":"subscription_name","type":"string"},
	  {"name":"message_id","type":"string"},
	  {"name":"publish_time","type":{"type":"long","logicalType":"timestamp-micros"}},
	  {"name":"attributes","type":{"type":"map","values":"string"}}]}`
	tests := []struct {
		name  string
		opts  Options
		topic string
		want  string // the expected schema, compared as parsed JSON
		shape Shape
	}{
		{"no metadata is the seed's PubsubMessage", Options{}, "", readFile(t, "testdata/seed_pubsubmessage.avsc"), ShapePlain},
		{"metadata is the seed's PubsubMessageWithMetadata", Options{WriteMetadata: true}, "", readFile(t, "testdata/seed_pubsubmessagewithmetadata.avsc"), ShapeMetadata},
		{"a topic schema given without useTopicSchema is not used", Options{WriteMetadata: true}, orderSchema, readFile(t, "testdata/seed_pubsubmessagewithmetadata.avsc"), ShapeMetadata},
		{"topic schema as it is", Options{UseTopicSchema: true}, orderSchema, orderSchema, ShapeTopic},
		{"topic schema that is not a record, without metadata", Options{UseTopicSchema: true}, `{"type": "array", "items": "long"}`, `{"type":"array","items":"long"}`, ShapeTopic},
		{"topic record extended with the metadata fields", Options{UseTopicSchema: true, WriteMetadata: true}, orderSchema, orderWithMetadata, ShapeTopic},
		{"empty topic record extended", Options{UseTopicSchema: true, WriteMetadata: true}, `{"type":"record","name":"E","fields":[]}`,
			`{"type":"record","name":"E","fields":[` + metadataFieldsJSON + `]}`, ShapeTopic},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var topic *Topic
			if tc.topic != "" {
				topic = mustTopic(t, tc.topic)
			}
			out, ds := OutputSchema(tc.opts, topic)
			if len(ds) > 0 || out == nil {
				t.Fatalf("unexpected diagnostics: %v", ds)
			}
			if out.Shape != tc.shape {
				t.Errorf("shape %d, want %d", out.Shape, tc.shape)
			}
			sameJSON(t, out.JSON, tc.want)
			// The schema hamba/avro encodes with has the same canonical
			// form as the expected text.
			if got, want := out.Schema.String(), mustParse(t, tc.want).String(); got != want {
				t.Errorf("parsed schema %s, want %s", got, want)
			}
		})
	}
}

// TestSeedSchemasAreCurrent checks the copies in testdata against the
// newest product page when the shared folder is beside the checkout.
func TestSeedSchemasAreCurrent(t *testing.T) {
	seeds, _ := filepath.Glob("../../../shared/seeds/003_*.txt")
	if len(seeds) == 0 {
		t.Skip("the shared seeds are not beside this checkout")
	}
	page := readFile(t, seeds[0])
	blocks := regexp.MustCompile("(?s)```\n(\\{.*?\\})\n```").FindAllStringSubmatch(page, -1)
	if len(blocks) != 2 {
		t.Fatalf("found %d schema blocks in %s, want 2", len(blocks), seeds[0])
	}
	sameJSON(t, blocks[0][1], readFile(t, "testdata/seed_pubsubmessage.avsc"))
	sameJSON(t, blocks[1][1], readFile(t, "testdata/seed_pubsubmessagewithmetadata.avsc"))
}

func TestOutputSchemaProblems(t *testing.T) {
	tests := []struct {
		name  string
		opts  Options
		topic string // "" means none given
		want  []string
	}{
		{"useTopicSchema without a topic schema", Options{UseTopicSchema: true}, "", []string{"info avro-topic-schema-needed"}},
		{"metadata needs a record root", Options{UseTopicSchema: true, WriteMetadata: true}, `"string"`,
			[]string{"error avro-topic-root-not-record 1:1"}},
		{"metadata needs a record root (array)", Options{UseTopicSchema: true, WriteMetadata: true}, `{"type":"array","items":"int"}`,
			[]string{"error avro-topic-root-not-record 1:1"}},
		{"each metadata name clashes", Options{UseTopicSchema: true, WriteMetadata: true},
			"{\"type\":\"record\",\"name\":\"R\",\"fields\":[\n" +
				"{\"name\":\"subscription_name\",\"type\":\"string\"},\n" +
				"{\"name\":\"message_id\",\"type\":\"string\"},\n" +
				"{\"name\":\"publish_time\",\"type\":\"long\"},\n" +
				"{\"name\":\"attributes\",\"type\":\"string\"},\n" +
				"{\"name\":\"data\",\"type\":\"string\"}]}",
			[]string{"error avro-metadata-name-clash 2:9", "error avro-metadata-name-clash 3:9",
				"error avro-metadata-name-clash 4:9", "error avro-metadata-name-clash 5:9"}},
		{"no clash without metadata", Options{UseTopicSchema: true},
			`{"type":"record","name":"R","fields":[{"name":"message_id","type":"string"}]}`, nil},
		{"camelCase is no clash for Avro", Options{UseTopicSchema: true, WriteMetadata: true},
			`{"type":"record","name":"R","fields":[{"name":"messageId","type":"string"}]}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var topic *Topic
			if tc.topic != "" {
				topic = mustTopic(t, tc.topic)
			}
			out, ds := OutputSchema(tc.opts, topic)
			checkDiags(t, ds, tc.want)
			if diag.HasErrors(ds) && out != nil {
				t.Error("an output schema came back with errors")
			}
		})
	}
}

// checkDiags compares diagnostics as "severity code [line:col]" strings.
func checkDiags(t *testing.T, ds []diag.Diagnostic, want []string) {
	t.Helper()
	var got []string
	for _, d := range ds {
		s := string(d.Severity) + " " + d.Code
		if d.Line > 0 {
			s += " " + itoa(d.Line) + ":" + itoa(d.Column)
		}
		got = append(got, s)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s\nmessages: %v", strings.Join(got, "\n"), strings.Join(want, "\n"), ds)
	}
}
