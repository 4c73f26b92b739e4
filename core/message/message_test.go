package message

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/doc"
)

// summary writes a diagnostic as severity:code@path:line:column.
func summary(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%s@%s:%d:%d", d.Severity, d.Code, d.Path, d.Line, d.Column))
	}
	return out
}

func TestParseShapes(t *testing.T) {
	cases := []struct {
		name, text string
		format     doc.Format
		data       []string // each message's data
		attrs      []string // each message's attributes, as "k=v,k=v" (sorted)
		paths      []string
	}{
		{"array", `[{"data": "aGVsbG8=", "attributes": {"k": "v"}}, {"attributes": {"a": "1", "b": "2"}}]`, "",
			[]string{"hello", ""}, []string{"k=v", "a=1,b=2"}, []string{"/0", "/1"}},
		{"single message", `{"data": "aGk="}`, "", []string{"hi"}, []string{""}, []string{""}},
		{"messages object", `{"messages": [{"text": "plain"}]}`, "", []string{"plain"}, []string{""}, []string{"/messages/0"}},
		{"pull response", `{"receivedMessages": [{"ackId": "x", "message": {"data": "aGk=", "attributes": {"k": "v"}}}]}`, "",
			[]string{"hi"}, []string{"k=v"}, []string{"/receivedMessages/0/message"}},
		{"json payload", `[{"json": {"a": [1, true, null, "s"]}}]`, "", []string{`{"a":[1,true,null,"s"]}`}, []string{""}, []string{"/0"}},
		{"URL-safe and unpadded base64", `[{"data": "-_8"}, {"data": "aGk"}]`, "", []string{"\xfb\xff", "hi"}, []string{"", ""}, []string{"/0", "/1"}},
		{"yaml", "- attributes:\n    lang: en\n  text: hello\n- data: aGk=\n", doc.YAML, []string{"hello", "hi"}, []string{"lang=en", ""}, []string{"/0", "/1"}},
		{"snake_case fields", `[{"message_id": "1", "ordering_key": "o", "publish_time": "2024-05-01T12:00:00Z", "text": "x"}]`, "",
			[]string{"x"}, []string{""}, []string{"/0"}},
		{"null attributes", `[{"text": "x", "attributes": null}]`, "", []string{"x"}, []string{""}, []string{"/0"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, ds := Parse("m", tc.text, tc.format)
			if diag.HasErrors(ds) {
				t.Fatalf("errors: %v", summary(ds))
			}
			if len(d.Messages) != len(tc.data) {
				t.Fatalf("%d messages, want %d", len(d.Messages), len(tc.data))
			}
			for i, m := range d.Messages {
				if string(m.Data) != tc.data[i] {
					t.Errorf("message %d data %q, want %q", i, m.Data, tc.data[i])
				}
				var kv []string
				for k, v := range m.Attributes {
					kv = append(kv, k+"="+v)
				}
				slices.Sort(kv)
				if got := strings.Join(kv, ","); got != tc.attrs[i] {
					t.Errorf("message %d attributes %q, want %q", i, got, tc.attrs[i])
				}
				if d.Path(i) != tc.paths[i] {
					t.Errorf("message %d path %q, want %q", i, d.Path(i), tc.paths[i])
				}
				if d.Node(i) == nil {
					t.Errorf("message %d has no node", i)
				}
			}
			if d.Path(len(d.Messages)) != "" || d.Node(-1) != nil {
				t.Error("out-of-range lookups should be empty")
			}
		})
	}
}

func TestParseSnakeCaseValues(t *testing.T) {
	d, _ := Parse("m", `[{"message_id": "1", "ordering_key": "o", "publish_time": "2024-05-01T12:00:00Z", "text": "x"}]`, "")
	m := d.Messages[0]
	if m.MessageID != "1" || m.OrderingKey != "o" {
		t.Errorf("got %+v", m)
	}
	if tm, ok := m.Time(); !ok || tm.Year() != 2024 {
		t.Errorf("Time() = %v, %v", tm, ok)
	}
	if _, ok := (&Message{}).Time(); ok {
		t.Error("a message without a publish time has no time")
	}
}

func TestParseProblems(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"not base64", "[\n  {\"data\": \"not base64!\"}\n]", []string{"error:message-data-base64@/0/data:2:12"}},
		{"attributes not an object", `[{"text": "x", "attributes": ["k"]}]`, []string{"error:message-field-type@/0/attributes:1:30"}},
		{"attribute not a string", `[{"attributes": {"k": 5, "j": "ok"}}]`, []string{"error:message-field-type@/0/attributes/k:1:23"}},
		{"key with a slash in the path", `[{"attributes": {"a/b": true}}]`, []string{"error:message-field-type@/0/attributes/a~1b:1:25"}},
		{"unknown field", `[{"text": "x", "body": "y"}]`, []string{"warning:message-unknown-field@/0/body:1:16"}},
		{"bad publish time", `[{"text": "x", "publishTime": "yesterday"}]`, []string{"error:message-publish-time@/0/publishTime:1:31"}},
		{"message not an object", `["hello"]`, []string{"error:message-shape@/0:1:2"}},
		{"root not a list", `"hello"`, []string{"error:messages-shape@:1:1"}},
		{"syntax error", `[{"text": }]`, []string{"error:json-syntax@:1:11"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := Parse("m", tc.text, "")
			if got := summary(ds); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseTooManyMessages(t *testing.T) {
	text := "[" + strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, MaxSampleMessages+1), ",") + "]"
	d, ds := Parse("m", text, doc.JSON)
	if len(d.Messages) != MaxSampleMessages {
		t.Errorf("%d messages read, want %d", len(d.Messages), MaxSampleMessages)
	}
	if !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Code == "too-many-messages" }) {
		t.Errorf("want too-many-messages, got %v", summary(ds))
	}
}

// check decodes one message and runs the service-limit checks on it.
func check(t *testing.T, text string) []string {
	t.Helper()
	d, ds := Parse("m", "["+text+"]", doc.JSON)
	if len(d.Messages) != 1 {
		t.Fatalf("decoded %d messages: %v", len(d.Messages), summary(ds))
	}
	cs := Check(&d.Messages[0], d.Node(0), d.Path(0))
	d.Doc.Source.Locate(cs)
	var out []string
	for _, c := range cs {
		out = append(out, c.Code+"@"+c.Path)
	}
	return out
}

func attrsJSON(n int, key func(int) string, value string) string {
	var parts []string
	for i := 0; i < n; i++ {
		parts = append(parts, fmt.Sprintf("%q: %q", key(i), value))
	}
	return `{"attributes": {` + strings.Join(parts, ", ") + `}}`
}

func TestCheckLimits(t *testing.T) {
	numbered := func(i int) string { return fmt.Sprintf("k%d", i) }
	cases := []struct {
		name, text string
		want       []string
	}{
		{"ordinary message", `{"data": "aGk=", "attributes": {"k": "v"}}`, nil},
		{"neither data nor attributes", `{"messageId": "1"}`, []string{"message-empty@/0"}},
		{"empty data and attributes", `{"data": "", "attributes": {}}`, []string{"message-empty@/0"}},
		{"an undecodable attribute still counts", `{"attributes": {"k": 5}}`, nil},
		{"undecodable data still counts", `{"data": "!!"}`, nil},
		{"null data is no data", `{"data": null}`, []string{"message-empty@/0"}},
		{"100 attributes", attrsJSON(100, numbered, "v"), nil},
		{"101 attributes", attrsJSON(101, numbered, "v"), []string{"message-too-many-attributes@/0/attributes"}},
		{"256-byte key", attrsJSON(1, func(int) string { return strings.Repeat("k", 256) }, "v"), nil},
		{"257-byte key", attrsJSON(1, func(int) string { return strings.Repeat("k", 257) }, "v"),
			[]string{"message-attribute-key-too-long@/0/attributes/" + strings.Repeat("k", 257)}},
		{"86 three-byte characters are 258 bytes", attrsJSON(1, func(int) string { return strings.Repeat("み", 86) }, "v"),
			[]string{"message-attribute-key-too-long@/0/attributes/" + strings.Repeat("み", 86)}},
		{"1024-byte value", attrsJSON(1, numbered, strings.Repeat("v", 1024)), nil},
		{"1025-byte value", attrsJSON(1, numbered, strings.Repeat("v", 1025)), []string{"message-attribute-value-too-long@/0/attributes/k0"}},
		{"empty key", `{"attributes": {"": "v"}}`, []string{"message-attribute-key-empty@/0/attributes/"}},
		{"1024-byte ordering key", `{"text": "x", "orderingKey": "` + strings.Repeat("o", 1024) + `"}`, nil},
		{"1025-byte ordering key", `{"text": "x", "ordering_key": "` + strings.Repeat("o", 1025) + `"}`, []string{"message-ordering-key-too-long@/0/orderingKey"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := check(t, tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestCheckSpans checks that limit diagnostics point at what is too large.
func TestCheckSpans(t *testing.T) {
	text := "[{\"attributes\": {\n  \"" + strings.Repeat("k", 257) + "\": \"v\",\n  \"k\": \"" + strings.Repeat("v", 1025) + "\"}}]"
	d, _ := Parse("m", text, doc.JSON)
	cs := Check(&d.Messages[0], d.Node(0), d.Path(0))
	d.Doc.Source.Locate(cs)
	got := summary(cs)
	want := []string{"error:message-attribute-key-too-long@/0/attributes/" + strings.Repeat("k", 257) + ":2:3",
		"error:message-attribute-value-too-long@/0/attributes/k:3:8"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// A message made in code (no decoded node) is checked the same way, in key
// order, with paths and no positions.
func TestCheckWithoutNode(t *testing.T) {
	m := &Message{
		Data:        make([]byte, MaxDataBytes+1),
		Attributes:  map[string]string{"z": strings.Repeat("v", 1025), "": "e", strings.Repeat("k", 257): "v", "bad": "\xff"},
		OrderingKey: strings.Repeat("o", 1025),
	}
	for i := 0; i < MaxAttributes; i++ {
		m.Attributes[fmt.Sprintf("n%03d", i)] = "v"
	}
	var got []string
	for _, d := range Check(m, nil, "/7") {
		if d.Span.IsValid() {
			t.Errorf("%s has a span without a node", d.Code)
		}
		got = append(got, d.Code+"@"+d.Path)
	}
	want := []string{
		"message-data-too-large@/7/data",
		"message-too-many-attributes@/7/attributes",
		"message-attribute-key-empty@/7/attributes/",
		"message-attribute-utf8@/7/attributes/bad",
		"message-attribute-key-too-long@/7/attributes/" + strings.Repeat("k", 257),
		"message-attribute-value-too-long@/7/attributes/z",
		"message-ordering-key-too-long@/7/orderingKey",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	if ds := Check(&Message{Data: make([]byte, MaxDataBytes)}, nil, ""); len(ds) != 0 {
		t.Errorf("10,000,000 bytes of data are allowed, got %v", summary(ds))
	}
}

// FuzzParse checks that no text makes Parse or Check panic, that every
// message has a node and a path, that every span lies in the text, and
// that messages are well-formed and short whatever the input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`[{"data": "aGVsbG8=", "attributes": {"k": "v"}}]`, `{"data": "aGk="}`, `{"messages": [{"text": "plain"}]}`,
		`{"receivedMessages": [{"ackId": "x", "message": {"data": "aGk="}}]}`, `[{"json": {"a": [1, true, null]}}]`,
		"- attributes:\n    lang: en\n  text: hello\n", `[{"attributes": {"k": 5}}]`, `"hello"`, `[{"text": }]`,
		`[{"publishTime": "x", "orderingKey": 1, "colour": 2, "data": "!!"}]`, `[{"attributes": {"": ""}}]`,
		`[{"` + strings.Repeat("k", 2000) + `": 1}]`, "\xff\xfe[\x00", strings.Repeat("[", 200),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ds := Parse("m", text, "")
		for i := range d.Messages {
			if d.Node(i) == nil {
				t.Fatalf("message %d has no node", i)
			}
			ds = append(ds, Check(&d.Messages[i], d.Node(i), d.Path(i))...)
		}
		for _, x := range ds {
			if p := diagtest.Problem(text, x); p != "" {
				t.Fatalf("%s: %s", x.Code, p)
			}
			if len(x.Message)+len(x.Hint) > 1000 {
				t.Fatalf("%s: message %q, hint %d bytes", x.Code, x.Message, len(x.Hint))
			}
		}
	})
}
