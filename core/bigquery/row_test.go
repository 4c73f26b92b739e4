package bigquery

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/message"
)

var rowSample = Sample{Subscription: "projects/p/subscriptions/s", Now: time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)}

// packTime and packDateTime encode as CivilTimeEncoder does, for inputs.
func packTime(h, m, s, micros int64) int64 { return (h<<12|m<<6|s)<<20 | micros }
func packDateTime(y, mo, d, h, mi, s, micros int64) int64 {
	return (y<<26|mo<<22|d<<17|h<<12|mi<<6|s)<<20 | micros
}

func TestPreviewTableSchema(t *testing.T) {
	const table = `[
	  {"name":"id","type":"STRING","mode":"REQUIRED"},
	  {"name":"n","type":"NUMERIC"},{"name":"big","type":"BIGNUMERIC"},
	  {"name":"d","type":"DATE"},{"name":"t","type":"TIME"},{"name":"dt","type":"DATETIME"},{"name":"ts","type":"TIMESTAMP"},
	  {"name":"i","type":"INTEGER"},{"name":"f","type":"FLOAT"},{"name":"b","type":"BOOLEAN"},{"name":"j","type":"JSON"},
	  {"name":"raw","type":"BYTES"},{"name":"tags","type":"STRING","mode":"REPEATED"},
	  {"name":"r","type":"RECORD","fields":[{"name":"x","type":"INTEGER"}]}]`
	tests := []struct {
		name    string
		drop    bool
		data    string
		values  string // the row, or "" when the message is not written
		problem string // part of the problem
		dropped []string
		notes   []string
	}{
		{"strings converted", false, `{"id":"a","n":"123.124","big":"-5","d":"2024-05-01","t":"12:30:00.5","dt":"2024-05-01 12:30:00","ts":"2024-05-01T12:30:00Z"}`,
			`{"id":"a","n":"123.124","big":"-5","d":"2024-05-01","t":"12:30:00.5","dt":"2024-05-01 12:30:00","ts":"2024-05-01T12:30:00Z",
			  "i":null,"f":null,"b":null,"j":null,"raw":null,"tags":[],"r":null}`, "", nil, nil},
		{"numbers converted", false, `{"id":"a","n":1.5,"d":19844,"t":` + itoa64(packTime(12, 30, 0, 500000)) + `,"dt":` +
			itoa64(packDateTime(2024, 5, 1, 12, 30, 0, 0)) + `,"ts":1714566600000000}`,
			`{"id":"a","n":1.5,"big":null,"d":"2024-05-01","t":"12:30:00.500000","dt":"2024-05-01T12:30:00.000000","ts":"2024-05-01T12:30:00Z",
			  "i":null,"f":null,"b":null,"j":null,"raw":null,"tags":[],"r":null}`, "", nil, nil},
		{"native types", false, `{"id":"a","i":7,"f":2.5,"b":true,"j":{"k":[1,null]},"raw":"aGk=","tags":["x","y"],"r":{"x":1}}`,
			`{"id":"a","n":null,"big":null,"d":null,"t":null,"dt":null,"ts":null,"i":7,"f":2.5,"b":true,"j":{"k":[1,null]},"raw":"aGk=","tags":["x","y"],"r":{"x":1}}`,
			"", nil, nil},
		{"column names ignore case", false, `{"ID":"a"}`,
			`{"id":"a","n":null,"big":null,"d":null,"t":null,"dt":null,"ts":null,"i":null,"f":null,"b":null,"j":null,"raw":null,"tags":[],"r":null}`, "", nil, nil},
		{"precise number note", false, `{"id":"a","n":12345678901234567.5}`, "ok", "", nil,
			[]string{"/n: a JSON number converted to NUMERIC keeps only double precision (about 15 digits); write it as a string to keep every digit"}},
		{"unreadable numeric string", false, `{"id":"a","n":"AAEC"}`, "ok", "", nil,
			[]string{"/n: the string is not a readable number, so it is read as bytes encoded by BigDecimalByteStringEncoder"}},
		{"unknown field dropped", true, `{"id":"a","extra":1,"r":{"x":1,"y":2}}`, "ok", "", []string{"/extra", "/r/y"}, nil},
		{"unknown field kept in the backlog", false, `{"id":"a","extra":1}`, "", "the field /extra has no column", nil, nil},
		{"required column missing", false, `{"n":"1"}`, "", "no field /id, which the REQUIRED column needs", nil, nil},
		{"required column null", false, `{"id":null}`, "", "/id is null, but its column is REQUIRED", nil, nil},
		{"not JSON", false, `hello`, "", "messages must be JSON", nil, nil},
		{"not an object", false, `[1]`, "", "must be a JSON object, not an array", nil, nil},
		{"bad date string", false, `{"id":"a","d":"01/05/2024"}`, "", `/d is "01/05/2024", but a DATE column takes a string in BigQuery's DATE format`, nil, nil},
		{"bad packed time", false, `{"id":"a","t":` + itoa64(packTime(25, 0, 0, 0)) + `}`, "", "is not a TIME encoded by CivilTimeEncoder", nil, nil},
		{"impossible packed datetime", false, `{"id":"a","dt":` + itoa64(packDateTime(2023, 2, 30, 0, 0, 0, 0)) + `}`, "", "is not a DATETIME", nil, nil},
		{"timestamp out of range", false, `{"id":"a","ts":253402300800000000}`, "", "outside the TIMESTAMP range", nil, nil},
		{"numeric out of range", false, `{"id":"a","n":"1e30"}`, "", "outside the range of NUMERIC", nil, nil},
		{"bignumeric range is wider", false, `{"id":"a","big":"1e30"}`, "ok", "", nil, nil},
		{"integer from a fraction", false, `{"id":"a","i":1.5}`, "", "a whole number", nil, nil},
		{"integer written as 1e3", false, `{"id":"a","i":1e3}`, "ok", "", nil, nil},
		{"string for a boolean", false, `{"id":"a","b":"true"}`, "", "a BOOLEAN column takes true or false", nil, nil},
		{"bad base64", false, `{"id":"a","raw":"%%"}`, "", "a BYTES column takes a base64 string", nil, nil},
		{"single value for REPEATED", false, `{"id":"a","tags":"x"}`, "", "REPEATED and takes an array", nil, nil},
		{"null inside REPEATED", false, `{"id":"a","tags":["x",null]}`, "", "/tags/1 is null", nil, nil},
	}
	tb := mustTable(t, table)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{UseTableSchema: true, DropUnknownFields: tc.drop}
			rows, ds := Preview(opts, tb, []message.Message{{Data: []byte(tc.data)}}, rowSample)
			r := rows[0]
			if tc.values == "" {
				if r.Written || !strings.Contains(r.Problem, tc.problem) || len(ds) != 1 || ds[0].Path != "/messages/0/data" {
					t.Fatalf("row %+v, diagnostics %v; want the problem %q", r, ds, tc.problem)
				}
				return
			}
			if !r.Written || len(ds) != 0 {
				t.Fatalf("not written: %s (%v)", r.Problem, ds)
			}
			if tc.values != "ok" {
				sameJSON(t, string(r.Values), tc.values)
			}
			if !reflect.DeepEqual(r.Dropped, tc.dropped) || !reflect.DeepEqual(r.Notes, tc.notes) {
				t.Errorf("dropped %q notes %q", r.Dropped, r.Notes)
			}
		})
	}
}

func TestPreviewDataColumn(t *testing.T) {
	msg := message.Message{Data: []byte(`{"a":1}`), MessageID: "9", PublishTime: "2024-05-01T12:00:00.25Z",
		Attributes: map[string]string{"k": "v"}, OrderingKey: "o"}
	tests := []struct {
		name   string
		opts   Options
		table  string
		msg    message.Message
		values string
	}{
		{"STRING", Options{}, `[{"name":"data","type":"STRING"}]`, msg, `{"data":"{\"a\":1}"}`},
		{"BYTES", Options{}, `[{"name":"data","type":"BYTES"}]`, msg, `{"data":"eyJhIjoxfQ=="}`},
		{"JSON", Options{}, `[{"name":"data","type":"JSON"}]`, msg, `{"data":{"a":1}}`},
		{"JSON column refuses text", Options{}, `[{"name":"data","type":"JSON"}]`, message.Message{Data: []byte("hi")}, ""},
		{"STRING column refuses binary", Options{}, `[{"name":"data","type":"STRING"}]`, message.Message{Data: []byte{0xff}}, ""},
		{"metadata", Options{WriteMetadata: true}, `[{"name":"data","type":"STRING"},{"name":"subscription_name","type":"STRING"},
		  {"name":"message_id","type":"STRING"},{"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"JSON"}]`, msg,
			`{"data":"{\"a\":1}","subscription_name":"projects/p/subscriptions/s","message_id":"9","publish_time":"2024-05-01T12:00:00.25Z",
			  "attributes":{"k":"v","ordering_key":"o"}}`},
		{"metadata defaults and attributes as STRING", Options{WriteMetadata: true}, `[{"name":"data","type":"BYTES"},
		  {"name":"message_id","type":"STRING"},{"name":"publish_time","type":"TIMESTAMP"},{"name":"attributes","type":"STRING"}]`,
			message.Message{Data: []byte("x")},
			`{"data":"eA==","message_id":"1","publish_time":"2024-05-01T12:00:00Z","attributes":"{}"}`},
		{"metadata with useTableSchema", Options{UseTableSchema: true, WriteMetadata: true},
			`[{"name":"a","type":"INTEGER"},{"name":"message_id","type":"STRING"}]`, msg, `{"a":1,"message_id":"9"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows, ds := Preview(tc.opts, mustTable(t, tc.table), []message.Message{tc.msg}, rowSample)
			if tc.values == "" {
				if rows[0].Written || len(ds) != 1 {
					t.Fatalf("written: %+v", rows[0])
				}
				return
			}
			if !rows[0].Written {
				t.Fatalf("not written: %s", rows[0].Problem)
			}
			sameJSON(t, string(rows[0].Values), tc.values)
		})
	}
	if rows, _ := Preview(Options{UseTopicSchema: true}, mustTable(t, `[{"name":"a","type":"STRING"}]`), []message.Message{msg}, rowSample); rows != nil {
		t.Error("rows for useTopicSchema")
	}
}

func itoa64(v int64) string { b, _ := json.Marshal(v); return string(b) }

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("not JSON: %s", got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %s", want)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
