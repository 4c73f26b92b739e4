package subscription_test

// The conformance test holds our JSON reading against the official one:
// protojson decoding into the generated pubsubpb.Subscription, which is
// what the Go client and the proto3 JSON mapping define. Both imports stay
// in this _test file, so neither is linked into any build.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"cloud.google.com/go/pubsub/v2/apiv1/pubsubpb"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/subscription"
)

// decodingCodes are the diagnostics that mean "this text is not a
// subscription the API can read", as opposed to rule violations found in a
// subscription that was read.
var decodingCodes = map[string]bool{
	"json-syntax": true, "invalid-utf8": true, "empty-input": true, "too-deep": true, "input-too-large": true,
	"duplicate-key": true, "unknown-field": true, "not-an-object": true, "wrong-type": true, "duration-format": true, "number-overflow": true,
}

// difference documents a corpus case where our decoder and protojson part
// ways on purpose. The test asserts the difference exactly, so it fails
// when either side's behaviour drifts.
type difference struct {
	// theyAccept is protojson's verdict (DiscardUnknown false).
	theyAccept bool
	// severity and code name the diagnostic we report instead (none when
	// code is empty). We reject the input while decoding exactly when it
	// is an error with a decoding code; any other decoding error fails.
	severity diag.Severity
	code     string
	// compare, when set, gives the input protojson reads (with unknown
	// fields discarded) for a value comparison with what we decoded.
	compare func(in []byte) []byte
	why     string
}

func same(in []byte) []byte { return in }

// differences is keyed by corpus case name.
var differences = map[string]difference{
	// Unknown fields are errors in both (D13), so those cases agree and
	// need no entry here; only the order of the two errors differs.
	"duplicate-unknown": {false, diag.Error, "duplicate-key", nil, "protojson stops at the unknown field; we stop at the duplicate key: both reject"},

	// Oneofs: protojson rejects two members of a oneof while decoding; we
	// decode both and validation reports the conflict with a message that
	// names the two fields.
	"oneof-wrappers":        {false, diag.Error, "one-wrapper", nil, "oneof conflicts are a validation error"},
	"oneof-output-formats":  {false, diag.Error, "one-output-format", nil, "oneof conflicts are a validation error"},
	"oneof-transform-kinds": {false, diag.Error, "transform-kind", nil, "oneof conflicts are a validation error"},

	// Enums: our model keeps enum fields as strings. Numbers (the wire
	// values) are rejected: gcloud and the REST API always print names.
	"enum-number":        {true, diag.Error, "wrong-type", nil, "enum numbers are not names"},
	"enum-number-nested": {true, diag.Error, "wrong-type", nil, "enum numbers are not names"},
	// An unknown name in an input field is a validation error.
	"enum-unknown-input": {false, diag.Error, "enum-value", nil, "enum names are checked by the rule table"},
	// An unknown name in an output-only field: the service ignores the
	// value, but its JSON reader rejects a name it does not know, and so
	// does the rule table.
	"enum-unknown-output-only":   {false, diag.Error, "enum-value", nil, "enum names are checked even where the value is ignored"},
	"enum-lowercase-output-only": {false, diag.Error, "enum-value", nil, "enum names are checked even where the value is ignored"},

	// Durations: protojson's reader also takes "+1s", ".5s", "1.s" and even
	// ".s". The REST API never prints these forms and the mapping's spec
	// does not show them; we ask for the canonical form instead.
	"duration-plus":                 {true, diag.Error, "duration-format", nil, "non-canonical duration"},
	"duration-leading-dot":          {true, diag.Error, "duration-format", nil, "non-canonical duration"},
	"duration-trailing-dot":         {true, diag.Error, "duration-format", nil, "non-canonical duration"},
	"duration-dot-only":             {true, diag.Error, "duration-format", nil, "non-canonical duration"},
	"duration-negative-leading-dot": {true, diag.Error, "duration-format", nil, "non-canonical duration"},

	// protojson builds the digits of an integer written with an exponent
	// and gives up past 20 of them, even when the value is 1; we compute
	// the value.
	"int64-tiny-mantissa": {false, "", "", nil, "we read 0.000000000000000000001e21 as 1"},

	// We read the subscription inside {"subscription": {...}} (the body of
	// some REST calls); to protojson "subscription" is an unknown field.
	"wrapped-subscription": {false, diag.Info, "wrapped-subscription", func(in []byte) []byte {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(in, &m); err != nil {
			panic(err)
		}
		return m["subscription"]
	}, "we unwrap a request body"},
	// A byte order mark is what Windows editors put first; we skip it.
	"byte-order-mark": {false, "", "", func(in []byte) []byte { return bytes.TrimPrefix(in, []byte("\ufeff")) },
		"we skip a byte order mark"},

	// Our limits: nesting depth (64) and input size (1 MiB).
	"generated-deep-parameters": {true, diag.Error, "too-deep", nil, "our nesting limit"},
	"generated-too-large":       {true, diag.Error, "input-too-large", nil, "our size limit"},
}

type corpusCase struct {
	name string
	in   []byte
}

// corpus returns every example configuration, every hand-written case in
// testdata/conformance, and a few generated ones too large to keep as files.
func corpus(t *testing.T) []corpusCase {
	t.Helper()
	var cases []corpusCase
	for _, dir := range []struct{ glob, prefix string }{
		{"testdata/examples/*.json", "example-"},
		{"testdata/conformance/*.json", ""},
	} {
		files, err := filepath.Glob(dir.glob)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no files match %s", dir.glob)
		}
		for _, f := range files {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, corpusCase{dir.prefix + strings.TrimSuffix(filepath.Base(f), ".json"), in})
		}
	}
	params := func(v string) []byte {
		return []byte(`{"messageTransforms": [{"aiInference": {"unstructuredInference": {"parameters": {"p": ` + v + `}}}}]}`)
	}
	cases = append(cases,
		corpusCase{"generated-long-strings", []byte(`{"name": "projects/p/subscriptions/` + strings.Repeat("s", 10000) +
			`", "filter": "` + strings.Repeat(`\u00e9\"`, 5000) + `"}`)},
		corpusCase{"generated-many-labels", manyLabels(2000)},
		// Depth 63 in all: the most we accept.
		corpusCase{"generated-nested-parameters", params(strings.Repeat("[", 57) + strings.Repeat("]", 57))},
		corpusCase{"generated-deep-parameters", params(strings.Repeat("[", 70) + strings.Repeat("]", 70))},
		corpusCase{"generated-too-large", []byte(`{"filter": "` + strings.Repeat("a", 1<<20) + `"}`)},
	)
	return cases
}

func manyLabels(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"labels": {`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `": "v` + strconv.Itoa(i) + `"`)
	}
	b.WriteString("}}")
	return []byte(b.String())
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestConformance(t *testing.T) {
	used := map[string]bool{}
	for _, c := range corpus(t) {
		t.Run(c.name, func(t *testing.T) {
			var theirs pubsubpb.Subscription
			theirErr := protojson.UnmarshalOptions{}.Unmarshal(c.in, &theirs)
			cfg := subscription.DecodeObject(c.in)
			ds := cfg.Validate()
			decodeErrs := decodingErrors(ds)
			weAccept := cfg.Sub != nil && len(decodeErrs) == 0

			d, documented := differences[c.name]
			used[c.name] = documented
			if !documented {
				switch {
				case theirErr == nil && !weAccept:
					t.Fatalf("protojson accepts, we reject:\n%s", dump(decodeErrs))
				case theirErr != nil && weAccept:
					t.Fatalf("protojson rejects (%v), we accept; our findings:\n%s", theirErr, dump(ds))
				case theirErr == nil:
					compareValues(t, cfg.Sub, &theirs)
				}
				return
			}

			t.Logf("documented difference: %s", d.why)
			if (theirErr == nil) != d.theyAccept {
				t.Errorf("protojson accepts = %v (error %v), documented %v", theirErr == nil, theirErr, d.theyAccept)
			}
			wantReject := d.severity == diag.Error && decodingCodes[d.code]
			if weAccept == wantReject {
				t.Errorf("we accept = %v, documented %v; our findings:\n%s", weAccept, !wantReject, dump(ds))
			}
			if wantReject && len(decodeErrs) > 0 && !slices.ContainsFunc(decodeErrs, func(x diag.Diagnostic) bool { return x.Code == d.code }) {
				t.Errorf("we reject, but not with %s:\n%s", d.code, dump(decodeErrs))
			}
			if d.code != "" && !slices.ContainsFunc(ds, func(x diag.Diagnostic) bool { return x.Code == d.code && x.Severity == d.severity }) {
				t.Errorf("we should report %s:%s; our findings:\n%s", d.severity, d.code, dump(ds))
			}
			if d.compare != nil && weAccept {
				var read pubsubpb.Subscription
				if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(d.compare(c.in), &read); err != nil {
					t.Fatalf("protojson cannot read the comparison input: %v", err)
				}
				compareValues(t, cfg.Sub, &read)
			}
		})
	}
	for name := range differences {
		if _, ok := used[name]; !ok {
			t.Errorf("differences names %q, which is not in the corpus", name)
		}
	}
}

// TestConformanceValues pins a few values that were once read wrong, so a
// regression names the value rather than a map difference.
func TestConformanceValues(t *testing.T) {
	cases := []struct {
		name, in string
		get      func(*subscription.Subscription) any
		want     any
	}{
		{"int64 max written with a fraction", `{"cloudStorageConfig": {"maxBytes": 9223372036854775807.0}}`,
			func(s *subscription.Subscription) any { return int64(*s.CloudStorageConfig.MaxBytes) }, int64(9223372036854775807)},
		{"int64 beyond float precision", `{"cloudStorageConfig": {"maxBytes": "9007199254740993.0"}}`,
			func(s *subscription.Subscription) any { return int64(*s.CloudStorageConfig.MaxBytes) }, int64(9007199254740993)},
		{"int64 min", `{"cloudStorageConfig": {"maxMessages": -9223372036854775808}}`,
			func(s *subscription.Subscription) any { return int64(*s.CloudStorageConfig.MaxMessages) }, int64(-9223372036854775808)},
		{"int32 from exponent string", `{"ackDeadlineSeconds": "0.6e2"}`,
			func(s *subscription.Subscription) any { return int32(*s.AckDeadlineSeconds) }, int32(60)},
		{"negative fraction duration", `{"messageRetentionDuration": "-0.5s"}`,
			func(s *subscription.Subscription) any { return *s.MessageRetentionDuration },
			subscription.Duration{Seconds: 0, Nanos: -500000000}},
		{"surrogate pair", `{"name": "\ud83d\ude00"}`,
			func(s *subscription.Subscription) any { return *s.Name }, "\U0001F600"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := subscription.DecodeObject([]byte(c.in))
			if errs := decodingErrors(cfg.Validate()); cfg.Sub == nil || len(errs) > 0 {
				t.Fatalf("not decoded:\n%s", dump(errs))
			}
			if got := c.get(cfg.Sub); got != c.want {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestRulesSeeTheDecodedValue checks that the bounds rules judge the
// value decoding read, not a float approximation of the text.
func TestRulesSeeTheDecodedValue(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"int64 max with a fraction", `{"cloudStorageConfig": {"bucket": "b", "maxBytes": 9223372036854775807.0}}`,
			"error:value-too-large@/cloudStorageConfig/maxBytes"},
		{"int64 min with an exponent", `{"cloudStorageConfig": {"bucket": "b", "maxMessages": "-9223372036854775808e0"}}`,
			"error:value-too-small@/cloudStorageConfig/maxMessages"},
		{"int32 with an exponent", `{"ackDeadlineSeconds": 6.01e2}`, "error:value-too-large@/ackDeadlineSeconds"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range subscription.DecodeObject([]byte(c.in)).Validate() {
				if strings.HasPrefix(d.Code, "value-too-") {
					got = append(got, string(d.Severity)+":"+d.Code+"@"+d.Path)
				}
			}
			if len(got) != 1 || got[0] != c.want {
				t.Errorf("bounds findings %v, want [%s]", got, c.want)
			}
		})
	}
}

// TestYAMLNumberForms covers the numbers YAML writes and JSON does not,
// which protojson never sees: integers in other bases, floats with a sign
// or a bare dot, and .inf and .nan.
func TestYAMLNumberForms(t *testing.T) {
	cases := []struct {
		name, in string
		want     string // the JSON of what we decode, or the decoding error code
	}{
		{"hex int", "ackDeadlineSeconds: 0x3C\n", `{"ackDeadlineSeconds":60}`},
		{"octal int", "ackDeadlineSeconds: 0o74\n", `{"ackDeadlineSeconds":60}`},
		{"underscores", "cloudStorageConfig:\n  maxBytes: 1_000_000\n", `{"cloudStorageConfig":{"maxBytes":"1000000"}}`},
		{"float with a sign", "ackDeadlineSeconds: +6.0e1\n", `{"ackDeadlineSeconds":60}`},
		{"float with a trailing dot", "ackDeadlineSeconds: 60.\n", `{"ackDeadlineSeconds":60}`},
		{"float with a leading dot", "ackDeadlineSeconds: .6e2\n", `{"ackDeadlineSeconds":60}`},
		{"fraction", "ackDeadlineSeconds: +60.5\n", "wrong-type"},
		{"int64 min as a float", "cloudStorageConfig:\n  maxMessages: -9.223372036854775808e18\n", `{"cloudStorageConfig":{"maxMessages":"-9223372036854775808"}}`},
		{"beyond int64 as a float", "cloudStorageConfig:\n  maxMessages: +9.3e18\n", "number-overflow"},
		{"beyond int64 as an int", "cloudStorageConfig:\n  maxMessages: 99999999999999999999\n", "number-overflow"},
		{"infinity", "ackDeadlineSeconds: .inf\n", "wrong-type"},
		{"not a number", "ackDeadlineSeconds: .nan\n", "wrong-type"},
		{"parameter infinity", "messageTransforms:\n- aiInference:\n    unstructuredInference:\n      parameters: {a: -.inf}\n", "wrong-type"},
		{"parameter not a number", "messageTransforms:\n- aiInference:\n    unstructuredInference:\n      parameters: {a: [.nan]}\n", "wrong-type"},
		// The YAML library resolves a float it cannot hold as a string.
		{"parameter huge", "messageTransforms:\n- aiInference:\n    unstructuredInference:\n      parameters: {a: 1e999}\n",
			`{"messageTransforms":[{"aiInference":{"unstructuredInference":{"parameters":{"a":"1e999"}}}}]}`},
		{"parameter huge with a tag", "messageTransforms:\n- aiInference:\n    unstructuredInference:\n      parameters: {a: !!float 1e999}\n", "number-overflow"},
		{"parameter forms", "messageTransforms:\n- aiInference:\n    unstructuredInference:\n      parameters: {a: 0x10, b: +1.5, c: ~}\n",
			`{"messageTransforms":[{"aiInference":{"unstructuredInference":{"parameters":{"a":16,"b":1.5,"c":null}}}}]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := subscription.Decode("t.yaml", c.in, "yaml")
			errs := decodingErrors(cfg.Validate())
			got := ""
			switch {
			case len(errs) > 0:
				got = errs[0].Code
			case cfg.Sub != nil:
				got = string(must(json.Marshal(cfg.Sub)))
			}
			if got != c.want {
				t.Errorf("got %s, want %s", got, c.want)
			}
		})
	}
}

func decodingErrors(ds []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if d.Severity == diag.Error && decodingCodes[d.Code] {
			out = append(out, d)
		}
	}
	return out
}

func dump(ds []diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("  " + string(d.Severity) + " " + d.Code + " " + d.Path + ": " + d.Message + "\n")
	}
	return b.String()
}

// compareValues encodes both readings to JSON, takes the default values
// proto3 does not track out of ours, and compares the two as generic values.
func compareValues(t *testing.T, ours *subscription.Subscription, theirs *pubsubpb.Subscription) {
	t.Helper()
	oursJSON, err := json.Marshal(ours)
	if err != nil {
		t.Fatalf("encoding ours: %v", err)
	}
	theirsJSON, err := protojson.Marshal(theirs)
	if err != nil {
		t.Fatalf("encoding theirs: %v", err)
	}
	var o, th map[string]any
	if err := json.Unmarshal(oursJSON, &o); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(theirsJSON, &th); err != nil {
		t.Fatal(err)
	}
	dropDefaults(o, theirs.ProtoReflect().Descriptor())
	if !reflect.DeepEqual(o, th) {
		t.Errorf("the values differ\nours:   %s\ntheirs: %s", canonical(o), canonical(th))
	}
}

func canonical(v any) string { return string(must(json.Marshal(v))) }

// dropDefaults removes from m (our encoding of a message of type md) what
// protojson leaves out: scalars without presence at their zero value, and
// enums at their zero name. Unknown keys stay, so they show as a difference.
func dropDefaults(m map[string]any, md protoreflect.MessageDescriptor) {
	for k, v := range m {
		fd := md.Fields().ByJSONName(k)
		if fd == nil {
			continue
		}
		switch {
		case fd.IsMap():
		case fd.IsList():
			if fd.Message() != nil {
				for _, item := range v.([]any) {
					if im, ok := item.(map[string]any); ok {
						dropDefaults(im, fd.Message())
					}
				}
			}
		case fd.Message() != nil:
			if sub, ok := v.(map[string]any); ok && !isWellKnown(fd.Message()) {
				dropDefaults(sub, fd.Message())
			}
		case fd.HasPresence():
		case isZero(fd, v):
			delete(m, k)
		}
	}
}

func isWellKnown(md protoreflect.MessageDescriptor) bool {
	return md.ParentFile().Package() == "google.protobuf"
}

func isZero(fd protoreflect.FieldDescriptor, v any) bool {
	switch fd.Kind() {
	case protoreflect.EnumKind:
		return v == string(fd.Enum().Values().ByNumber(0).Name())
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return v == "0"
	case protoreflect.BoolKind:
		return v == false
	case protoreflect.StringKind:
		return v == ""
	}
	return v == float64(0)
}

// TestModelCoversProto walks the proto definition of Subscription and our
// model side by side: every proto field must be a model field of the same
// JSON name, with no exceptions (an unknown field is an error, D13, so a
// gap would reject real configurations), and every model field must be a
// proto field, so a misspelt json tag cannot pass unnoticed.
func TestModelCoversProto(t *testing.T) {
	var walk func(md protoreflect.MessageDescriptor, typ reflect.Type, path string)
	walk = func(md protoreflect.MessageDescriptor, typ reflect.Type, path string) {
		ours := map[string]reflect.Type{}
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			ours[name] = typ.Field(i).Type
		}
		fields := md.Fields()
		for i := range fields.Len() {
			fd := fields.Get(i)
			p := path + "/" + fd.JSONName()
			ft, ok := ours[fd.JSONName()]
			delete(ours, fd.JSONName())
			if !ok {
				t.Errorf("%s (%s) is missing from the model", p, fd.FullName())
				continue
			}
			if fd.Message() != nil && !fd.IsMap() && !isWellKnown(fd.Message()) {
				for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
					ft = ft.Elem()
				}
				walk(fd.Message(), ft, p)
			}
		}
		for name := range ours {
			t.Errorf("%s/%s is in the model but not in %s", path, name, md.FullName())
		}
	}
	walk((&pubsubpb.Subscription{}).ProtoReflect().Descriptor(), reflect.TypeFor[subscription.Subscription](), "")
}

// TestCorpusCoversEveryField checks that the cases protojson accepts set,
// between them, every field of the proto Subscription to a non-default
// value, so the value comparison has seen each one.
func TestCorpusCoversEveryField(t *testing.T) {
	seen := map[protoreflect.FullName]bool{}
	var visit func(m protoreflect.Message)
	visit = func(m protoreflect.Message) {
		if isWellKnown(m.Descriptor()) {
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			seen[fd.FullName()] = true
			switch {
			case fd.IsMap():
			case fd.IsList() && fd.Message() != nil:
				for i := range v.List().Len() {
					visit(v.List().Get(i).Message())
				}
			case fd.Message() != nil:
				visit(v.Message())
			}
			return true
		})
	}
	for _, c := range corpus(t) {
		var m pubsubpb.Subscription
		if protojson.Unmarshal(c.in, &m) == nil {
			visit(m.ProtoReflect())
		}
	}
	var walk func(md protoreflect.MessageDescriptor)
	done := map[protoreflect.FullName]bool{}
	walk = func(md protoreflect.MessageDescriptor) {
		if done[md.FullName()] || isWellKnown(md) {
			return
		}
		done[md.FullName()] = true
		for i := range md.Fields().Len() {
			fd := md.Fields().Get(i)
			if !seen[fd.FullName()] {
				t.Errorf("no accepted case sets %s", fd.FullName())
			}
			if fd.Message() != nil && !fd.IsMap() {
				walk(fd.Message())
			}
		}
	}
	walk((&pubsubpb.Subscription{}).ProtoReflect().Descriptor())
}
