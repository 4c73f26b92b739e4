package avroschema

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
	"github.com/subplay/subplay/core/message"
)

var sampleTime = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

const subName = "projects/p/subscriptions/archive"

// ocfCase is one sample file: the subscription's options, the messages, and
// the records an independent reader must find in it (in the reader's JSON:
// bytes as {"$bytes": base64}, unions wrapped as {"<branch>": value}).
type ocfCase struct {
	name     string
	opts     Options
	topic    string
	msgs     []message.Message
	records  string
	problems []string // diagnostics for messages left out
}

func ocfCases() []ocfCase {
	ordered := message.Message{Data: []byte("second"), MessageID: "42", PublishTime: "2024-05-01T12:00:01.5Z",
		Attributes: map[string]string{"k": "v"}, OrderingKey: "customer-7"}
	return []ocfCase{
		{
			name:    "data only",
			msgs:    []message.Message{{Data: []byte("hello")}, {Attributes: map[string]string{"only": "attrs"}}},
			records: `[{"data": {"$bytes": "aGVsbG8="}}, {"data": {"$bytes": ""}}]`,
		},
		{
			name: "metadata with ordering key and defaults",
			opts: Options{WriteMetadata: true},
			msgs: []message.Message{{Data: []byte("first")}, ordered},
			records: `[
			 {"subscription_name": "` + subName + `", "message_id": "1", "publish_time": 1714564800000000,
			  "attributes": {}, "data": {"$bytes": "Zmlyc3Q="}},
			 {"subscription_name": "` + subName + `", "message_id": "42", "publish_time": 1714564801500000,
			  "attributes": {"k": "v", "ordering_key": "customer-7"}, "data": {"$bytes": "c2Vjb25k"}}]`,
		},
		{
			name:  "topic schema",
			opts:  Options{UseTopicSchema: true},
			topic: orderSchema,
			msgs: []message.Message{
				{Data: []byte(`{"id": "a1", "amount": 9.5, "note": {"string": "gift"}}`)},
				{Data: []byte(`{"id": "a2", "amount": 1}`)},
				{Data: []byte(`{"id": "a3", "amount": 2, "note": "bare"}`)},
				{Data: []byte(`{"id": 5}`)},
			},
			records: `[{"id": "a1", "amount": 9.5, "note": {"string": "gift"}},
			          {"id": "a2", "amount": 1, "note": null},
			          {"id": "a3", "amount": 2, "note": {"string": "bare"}}]`,
			problems: []string{"error avro-message-mismatch"},
		},
		{
			name:  "topic schema with metadata",
			opts:  Options{UseTopicSchema: true, WriteMetadata: true},
			topic: orderSchema,
			msgs: []message.Message{{Data: []byte(`{"id": "a1", "amount": 3}`), MessageID: "7", PublishTime: "2024-05-01T12:00:00Z",
				OrderingKey: "k1"}},
			records: `[{"id": "a1", "amount": 3, "note": null, "subscription_name": "` + subName + `",
			  "message_id": "7", "publish_time": 1714564800000000, "attributes": {"ordering_key": "k1"}}]`,
		},
		{
			name: "every kind of value",
			opts: Options{UseTopicSchema: true},
			topic: `{"type":"record","name":"All","fields":[
			  {"name":"b","type":"boolean"},{"name":"i","type":"int"},{"name":"l","type":"long"},
			  {"name":"f","type":"float"},{"name":"y","type":"bytes"},
			  {"name":"e","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"]}},
			  {"name":"a","type":{"type":"array","items":"string"}},
			  {"name":"m","type":{"type":"map","values":"long"}},
			  {"name":"x","type":{"type":"fixed","name":"Two","size":2}},
			  {"name":"t","type":{"type":"long","logicalType":"timestamp-micros"}},
			  {"name":"r","type":["null",{"type":"record","name":"Inner","fields":[{"name":"z","type":"int","default":4}]}]}]}`,
			msgs: []message.Message{{Data: []byte(`{"b": true, "i": -3, "l": 4294967296000, "f": 0.5, "y": "\u0000\u00ff",
			  "e": "GREEN", "a": ["p", "q"], "m": {"k": 1}, "x": "ab", "t": 1714564800000000, "r": {"Inner": {}}}`)}},
			records: `[{"b": true, "i": -3, "l": 4294967296000, "f": 0.5, "y": {"$bytes": "AP8="}, "e": "GREEN",
			  "a": ["p", "q"], "m": {"k": 1}, "x": {"$bytes": "YWI="}, "t": 1714564800000000, "r": {"Inner": {"z": 4}}}]`,
		},
	}
}

func encodeCase(t *testing.T, tc ocfCase) (*Output, []byte) {
	t.Helper()
	var topic *Topic
	if tc.topic != "" {
		topic = mustTopic(t, tc.topic)
	}
	out, ds := OutputSchema(tc.opts, topic)
	if out == nil {
		t.Fatalf("no output schema: %v", ds)
	}
	file, ds := out.EncodeOCF(tc.msgs, Sample{Subscription: subName, Now: sampleTime})
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Severity)+" "+d.Code)
	}
	if strings.Join(got, ",") != strings.Join(tc.problems, ",") {
		t.Errorf("problems %v, want %v (%v)", got, tc.problems, ds)
	}
	return out, file
}

// TestOCFStructure reads the container back with a reader written from
// the specification, which also runs under js/wasm where Node cannot be
// started from a test.
func TestOCFStructure(t *testing.T) {
	for _, tc := range ocfCases() {
		t.Run(tc.name, func(t *testing.T) {
			out, file := encodeCase(t, tc)
			meta, recs, err := readOCF(out.Schema, file)
			if err != nil {
				t.Fatal(err)
			}
			if string(meta["avro.codec"]) != "null" || string(meta["avro.schema"]) != out.JSON {
				t.Errorf("header %q", meta)
			}
			var want []any
			if err := json.Unmarshal([]byte(tc.records), &want); err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(want) {
				t.Fatalf("%d records, want %d", len(recs), len(want))
			}
		})
	}
}

func TestOCFIsDeterministic(t *testing.T) {
	tc := ocfCases()[1]
	_, a := encodeCase(t, tc)
	_, b := encodeCase(t, tc)
	if !bytes.Equal(a, b) {
		t.Error("the same input gave different files")
	}
}

func TestOCFBlocks(t *testing.T) {
	out, _ := OutputSchema(Options{WriteMetadata: true}, nil)
	msgs := make([]message.Message, 2500)
	for i := range msgs {
		msgs[i] = message.Message{Data: []byte(fmt.Sprint(i))}
	}
	file, ds := out.EncodeOCF(msgs, Sample{Subscription: subName, Now: sampleTime})
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	_, recs, err := readOCF(out.Schema, file)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2500 {
		t.Fatalf("%d records", len(recs))
	}
	last := recs[2499].(map[string]any)
	if string(last["data"].([]byte)) != "2499" || last["message_id"] != "2500" {
		t.Errorf("last record %v", last)
	}
}

// readOCF decodes a container file: the header's metadata and every record.
func readOCF(s avro.Schema, file []byte) (map[string][]byte, []any, error) {
	r := bytes.NewReader(file)
	magic := make([]byte, 4)
	if _, err := r.Read(magic); err != nil || string(magic) != "Obj\x01" {
		return nil, nil, errors.New("bad magic")
	}
	meta := map[string][]byte{}
	for {
		n, err := binary.ReadVarint(r)
		if err != nil {
			return nil, nil, err
		}
		if n == 0 {
			break
		}
		for range n {
			k, err1 := readBytes(r)
			v, err2 := readBytes(r)
			if err := errors.Join(err1, err2); err != nil {
				return nil, nil, err
			}
			meta[string(k)] = v
		}
	}
	sync := make([]byte, 16)
	if _, err := r.Read(sync); err != nil {
		return nil, nil, err
	}
	var recs []any
	for r.Len() > 0 {
		count, err := binary.ReadVarint(r)
		if err != nil {
			return nil, nil, err
		}
		block, err := readBytes(r)
		if err != nil {
			return nil, nil, err
		}
		dec := avro.NewDecoderForSchema(s, bytes.NewReader(block))
		for range count {
			var v any
			if err := dec.Decode(&v); err != nil {
				return nil, nil, err
			}
			recs = append(recs, v)
		}
		end := make([]byte, 16)
		if _, err := r.Read(end); err != nil || !bytes.Equal(end, sync) {
			return nil, nil, errors.New("sync marker missing after a block")
		}
	}
	return meta, recs, nil
}

func readBytes(r *bytes.Reader) ([]byte, error) {
	n, err := binary.ReadVarint(r)
	if err != nil || n < 0 || n > int64(r.Len()) {
		return nil, errors.New("bad length")
	}
	b := make([]byte, n)
	_, err = r.Read(b)
	return b, err
}

// TestOCFIndependentReader decodes every sample file with avsc (Node) and
// compares the records field by field with what was encoded.
func TestOCFIndependentReader(t *testing.T) {
	reader := requireReader(t)
	for _, tc := range ocfCases() {
		t.Run(tc.name, func(t *testing.T) {
			out, file := encodeCase(t, tc)
			path := filepath.Join(t.TempDir(), "sample.avro")
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", reader, path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdout, err := cmd.Output()
			if err != nil {
				t.Fatalf("avsc could not read the file: %v\n%s", err, stderr.String())
			}
			var got struct {
				Codec   string
				Schema  any
				Records []any
			}
			if err := json.Unmarshal(stdout, &got); err != nil {
				t.Fatalf("reader output: %v\n%s", err, stdout)
			}
			if got.Codec != "null" {
				t.Errorf("codec %q", got.Codec)
			}
			var wantSchema any
			_ = json.Unmarshal([]byte(out.JSON), &wantSchema)
			if fmt.Sprint(canonicalName(got.Schema)) != fmt.Sprint(canonicalName(wantSchema)) {
				t.Errorf("schema %v\nwant %v", got.Schema, wantSchema)
			}
			var want []any
			if err := json.Unmarshal([]byte(tc.records), &want); err != nil {
				t.Fatal(err)
			}
			if len(got.Records) != len(want) {
				t.Fatalf("%d records, want %d: %s", len(got.Records), len(want), stdout)
			}
			for i := range want {
				compareRecord(t, fmt.Sprintf("record %d", i), got.Records[i], want[i])
			}
		})
	}
}

// canonicalName reduces a schema to its record name, for comparison: avsc
// prints names fully qualified.
func canonicalName(s any) any {
	if m, ok := s.(map[string]any); ok {
		name, _ := m["name"].(string)
		if ns, _ := m["namespace"].(string); ns != "" && !strings.Contains(name, ".") {
			name = ns + "." + name
		}
		return name
	}
	return s
}

// compareRecord compares two decoded JSON values field by field, naming
// the first path where they differ.
func compareRecord(t *testing.T, at string, got, want any) {
	t.Helper()
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s: got %v, want an object %v", at, got, want)
			return
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				t.Errorf("%s: unexpected field %q", at, k)
			}
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				t.Errorf("%s: field %q missing", at, k)
				continue
			}
			compareRecord(t, at+"."+k, gv, wv)
		}
	default:
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", at, got, want)
		}
	}
}

// requireReader returns the path of the Node reader script, skipping the
// test when Node or the reader's packages are missing, or failing it when
// SUBPLAY_REQUIRE_TOOLS=1 says scripts/setup installed them.
func requireReader(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no subprocesses under WebAssembly")
	}
	missing := func(what string) {
		if os.Getenv("SUBPLAY_REQUIRE_TOOLS") == "1" {
			t.Fatalf("%s is missing; run scripts/setup", what)
		}
		t.Skipf("%s is missing (scripts/setup installs it)", what)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("node")
	}
	dir, _ := filepath.Abs("testdata/reader")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "avsc")); err != nil {
		missing("the avsc package in " + dir + "/node_modules")
	}
	return filepath.Join(dir, "read.js")
}

func TestDecodeData(t *testing.T) {
	s := mustParse(t, orderSchema)
	binaryRecord, err := avro.Marshal(s, map[string]any{"id": "b", "amount": 2.0, "note": nil})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		data    string
		wantErr string
	}{
		{"json", `{"id":"x","amount":1}`, ""},
		{"binary", string(binaryRecord), ""},
		{"wrong type", `{"id":1,"amount":1}`, `expected a string at /id, found 1`},
		{"unknown field", `{"id":"x","amount":1,"extra":true}`, `has no field "extra"`},
		{"missing field", `{"amount":1}`, `"id" of com.example.Order is missing`},
		{"not json nor binary", `{"id":`, `not valid JSON`},
		{"bad union branch", `{"id":"x","amount":1,"note":{"int":3}}`, `one of null, string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeData(s, []byte(tc.data))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func BenchmarkOutputSchema(b *testing.B) {
	topicText := orderSchema
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"plain", Options{}},
		{"metadata", Options{WriteMetadata: true}},
		{"topic+metadata", Options{UseTopicSchema: true, WriteMetadata: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				var topic *Topic
				if bc.opts.UseTopicSchema {
					var ds []diag.Diagnostic
					topic, ds = ParseTopic("t", topicText)
					if diag.HasErrors(ds) {
						b.Fatal(ds)
					}
				}
				if out, _ := OutputSchema(bc.opts, topic); out == nil {
					b.Fatal("no schema")
				}
			}
		})
	}
}

func BenchmarkOCF10k(b *testing.B) {
	msgs := make([]message.Message, 10_000)
	for i := range msgs {
		msgs[i] = message.Message{
			Data:        []byte(fmt.Sprintf(`{"id":"order-%d","amount":%d.25}`, i, i)),
			Attributes:  map[string]string{"source": "bench", "kind": "order"},
			MessageID:   fmt.Sprint(1_000_000 + i),
			PublishTime: "2024-05-01T12:00:00Z",
			OrderingKey: "k",
		}
	}
	topic, _ := ParseTopic("t", orderSchema)
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"plain", Options{}},
		{"metadata", Options{WriteMetadata: true}},
		{"topic+metadata", Options{UseTopicSchema: true, WriteMetadata: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			out, _ := OutputSchema(bc.opts, topic)
			var size int
			for b.Loop() {
				file, ds := out.EncodeOCF(msgs, Sample{Subscription: subName, Now: sampleTime})
				if len(ds) > 0 {
					b.Fatal(ds[0])
				}
				size = len(file)
			}
			b.ReportMetric(float64(size), "file-bytes")
		})
	}
}

func FuzzDecodeData(f *testing.F) {
	for _, s := range []string{`{"id":"x","amount":1}`, `{"id":"x","amount":1,"note":{"string":"n"}}`, `{"id":"x","amount":1,"note":null}`,
		"\x02x\x00\x00\x00\x00\x00\x00\xf0?\x00", `[`, `{"id":1}`, ``} {
		f.Add([]byte(s))
	}
	topic, _ := ParseTopic("t", orderSchema)
	out, _ := OutputSchema(Options{UseTopicSchema: true, WriteMetadata: true}, topic)
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs := []message.Message{{Data: data}}
		file, ds := out.EncodeOCF(msgs, Sample{Subscription: subName, Now: sampleTime})
		diagtest.Check(t, string(data), ds)
		if _, recs, err := readOCF(out.Schema, file); err != nil || len(recs)+len(ds) != 1 {
			t.Fatalf("records %d, diagnostics %v, read error %v", len(recs), ds, err)
		}
	})
}

// richSchema has every kind of type, defaults and unions of records, for
// FuzzEncodeRich.
const richSchema = `{"type":"record","name":"Rich","namespace":"x","fields":[
{"name":"e","type":{"type":"enum","name":"E","symbols":["A","B","C"]},"default":"B"},
{"name":"m","type":{"type":"map","values":["null","long"]},"default":{}},
{"name":"a","type":{"type":"array","items":{"type":"record","name":"P","fields":[{"name":"k","type":"string"},{"name":"v","type":"double","default":1.5}]}},"default":[]},
{"name":"u","type":["null",{"type":"record","name":"U1","fields":[{"name":"x","type":"int"}]},{"type":"record","name":"U2","fields":[{"name":"y","type":"boolean"},{"name":"z","type":["null","U2"],"default":null}]}],"default":null},
{"name":"f","type":{"type":"fixed","name":"F","size":2},"default":"ab"},
{"name":"b","type":"bytes","default":"\u00ff"},
{"name":"t","type":{"type":"long","logicalType":"timestamp-micros"},"default":0},
{"name":"fl","type":"float","default":0},
{"name":"r","type":{"type":"record","name":"D","fields":[{"name":"s","type":"string","default":"d"}]},"default":{}}
]}`

func FuzzEncodeRich(f *testing.F) {
	for _, s := range []string{`{}`, `{"e":"C","m":{"a":1,"b":null},"a":[{"k":"x"},{"k":"y","v":2}]}`,
		`{"u":{"x":1}}`, `{"u":{"y":true,"z":{"y":false}}}`, `{"u":{"x.U2":{"y":true}}}`, `{"f":"zz","b":"\u0001","t":5,"fl":1e38}`,
		`{"r":{"s":"q"},"e":"D"}`, `{"m":{"a":"no"}}`, `{"u":{"y":1}}`, `{"a":[null]}`, `[1,2]`, `{"t":1.5}`} {
		f.Add([]byte(s))
	}
	// User input a message quotes, each far longer than a message may be:
	// an unknown field, an enum symbol, a number, and keys on a value's
	// path (found by the fuzzer in CI: the unknown field was quoted whole).
	long := strings.Repeat("O", 3000)
	for _, s := range []string{`{"r":{"s` + long + `":1}}`, `{"e":"` + long + `"}`, `{"t":1` + strings.Repeat("0", 3000) + `.5}`,
		`{"m":{"` + long + `":"no"}}`, `{"u":` + strings.Repeat(`{"y":true,"z":`, 40) + `{"y":"` + long + `"}` + strings.Repeat("}", 41)} {
		f.Add([]byte(s))
	}
	topic, ds := ParseTopic("t", richSchema)
	if diag.HasErrors(ds) {
		f.Fatal(ds)
	}
	out, _ := OutputSchema(Options{UseTopicSchema: true}, topic)
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs := []message.Message{{Data: data}}
		file, ds := out.EncodeOCF(msgs, Sample{Subscription: subName, Now: sampleTime})
		diagtest.Check(t, string(data), ds)
		_, recs, err := readOCF(out.Schema, file)
		if err != nil || len(recs)+len(ds) != 1 {
			t.Fatalf("records %d, diagnostics %v, read error %v", len(recs), ds, err)
		}
		if len(file) > 2*len(data)+len(out.JSON)+1024 {
			t.Fatalf("a file of %d bytes from %d bytes of data", len(file), len(data))
		}
	})
}

func TestDecodeBinary(t *testing.T) {
	topic, _ := ParseTopic("t", richSchema)
	s := topic.Schema
	// A value of every field, encoded by our encoder, reads back as the
	// same bytes.
	v, err := DecodeData(s, []byte(`{"e":"C","m":{"a":1,"b":null},"a":[{"k":"x"}],"u":{"y":true,"z":{"y":false}},"f":"zz","b":"\u0001","t":5,"fl":2.5,"r":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := (&encoder{}).encode(&b, s, v); err != nil {
		t.Fatal(err)
	}
	back, err := decodeBinary(s, b.Bytes())
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	var again bytes.Buffer
	if err := (&encoder{}).encode(&again, s, back); err != nil || !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Fatalf("round trip: %v\n% x\n% x", err, b.Bytes(), again.Bytes())
	}
	for _, tc := range []struct{ name, data string }{
		{"a byte too many", b.String() + "\x00"},
		{"cut short", b.String()[:b.Len()-1]},
		{"an array claiming 2^62 items", "\x04\x00\xfe\xff\xff\xff\xff\xff\xff\xff\x7f"},
		{"an enum index out of range", "\x08"},
	} {
		if _, err := decodeBinary(s, []byte(tc.data)); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
