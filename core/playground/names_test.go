package playground

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/storage"
)

// namesCall runs the names operation and decodes its response.
func namesCall(t *testing.T, body string) *NamesResponse {
	t.Helper()
	out, ok := Call("names", []byte(body))
	if !ok {
		t.Fatalf("names failed: %s", out)
	}
	var r NamesResponse
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("response is not JSON: %v\n%s", err, out)
	}
	return &r
}

// namesBody builds a request from a YAML configuration and extra fields.
func namesBody(t *testing.T, yaml string, extra map[string]any) string {
	t.Helper()
	req := map[string]any{"text": yaml, "format": "yaml"}
	for k, v := range extra {
		req[k] = v
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const seedsConfig = `name: projects/p/subscriptions/s
topic: projects/p/topics/t
cloudStorageConfig:
  bucket: my-archive
  filenamePrefix: prod_
  filenameSuffix: _archive
`

func codes(ds []diag.Diagnostic) string {
	var out []string
	for _, d := range ds {
		s := d.Code
		if d.Line > 0 {
			s += "@" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column)
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestNamesSeeds(t *testing.T) {
	tests := []struct {
		name   string
		config string
		extra  map[string]any
		want   []string
	}{
		{"default format", seedsConfig, map[string]any{"time": "2023-09-25T04:10:00Z", "uuid": "uN1QuE"},
			[]string{"prod_2023-09-25T04:10:00+00:00_uN1QuE_archive"}},
		{"folder format", seedsConfig + "  filenameDatetimeFormat: YYYY-MM-DD/hh_mm_ssZ\n",
			map[string]any{"time": "2023-09-25T04:10:00Z", "uuid": "uNiQuE"},
			[]string{"prod_2023-09-25/04_10_00Z_uNiQuE_archive"}},
		{"trailing separator", seedsConfig + "  filenameDatetimeFormat: YYYY-MM-DDThh_mm_ss-\n",
			map[string]any{"time": "2023-09-25T04:10:00Z", "uuid": "uNiQuE"},
			[]string{"prod_2023-09-25T04_10_00-uNiQuE_archive"}},
		{"count steps by maxDuration", seedsConfig + "  maxDuration: 120s\n",
			map[string]any{"time": "2023-09-25T04:10:00Z", "uuid": "uNiQuE", "count": 3},
			[]string{"prod_2023-09-25T04:10:00+00:00_uNiQuE_archive",
				"prod_2023-09-25T04:12:00+00:00_" + storage.NewUUIDs("uNiQuE").At(1) + "_archive",
				"prod_2023-09-25T04:14:00+00:00_" + storage.NewUUIDs("uNiQuE").At(2) + "_archive"}},
		{"time in another zone", seedsConfig, map[string]any{"time": "2023-09-25T06:10:00+02:00", "uuid": "u"},
			[]string{"prod_2023-09-25T04:10:00+00:00_u_archive"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := namesCall(t, namesBody(t, tc.config, tc.extra))
			if !r.Valid {
				t.Errorf("not valid: %s", codes(r.Diagnostics))
			}
			if strings.Join(r.Names, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("names:\n%s\nwant:\n%s", strings.Join(r.Names, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestNamesRandomUUID(t *testing.T) {
	r := namesCall(t, namesBody(t, seedsConfig, map[string]any{"count": 2}))
	if len(r.Names) != 2 || r.Names[0] == r.Names[1] {
		t.Fatalf("names %q", r.Names)
	}
	for _, n := range r.Names {
		if len(n) != len("prod_2023-09-25T04:10:00+00:00__archive")+storage.UUIDLen {
			t.Errorf("name %q does not hold a 36-character uuid", n)
		}
	}
}

func TestNamesObjectConfig(t *testing.T) {
	r := namesCall(t, `{"config": {"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t",
		"cloudStorageConfig": {"bucket": "b-1", "filenameDatetimeFormat": "YYYY/MM/DD/hhmmss_"}},
		"time": "2023-09-25T04:10:00Z", "uuid": "u"}`)
	if got, want := strings.Join(r.Names, ","), "2023/09/25/041000_u"; got != want {
		t.Errorf("names %q, want %q", got, want)
	}
	if len(r.Folders) != 3 || r.Folders[2].Per != "day" || r.Folders[0].Field != storage.PathFormat {
		t.Errorf("folders %+v", r.Folders)
	}
	if r.Glob != "????/??/??/??????_*" {
		t.Errorf("glob %q", r.Glob)
	}
}

func TestNamesFindings(t *testing.T) {
	config := `name: projects/p/subscriptions/s
topic: projects/p/topics/t
cloudStorageConfig:
  bucket: "gs://b"
  filenameSuffix: "x/"
  filenameDatetimeFormat: 'YYYY-MMM-DD'
  maxDuration: 30s
`
	r := namesCall(t, namesBody(t, config, nil))
	if r.Valid || len(r.Names) != 0 {
		t.Errorf("valid %v, names %q; want invalid and none", r.Valid, r.Names)
	}
	got := codes(r.Diagnostics)
	for _, want := range []string{"bucket-name-scheme@4:12", "bucket-name-length@4:17", "filename-suffix-slash@5:21", "datetime-format-matcher@6:33", "datetime-format-missing@6:28"} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics %s lack %s", got, want)
		}
	}
	// The validator's rule table reports the bound; it belongs here too.
	if !strings.Contains(got, "@7:") {
		t.Errorf("diagnostics %s lack the maxDuration bound", got)
	}
	seen := map[string]bool{}
	for _, d := range r.Diagnostics {
		if !strings.HasPrefix(d.Path, "/cloudStorageConfig") {
			t.Errorf("finding outside cloudStorageConfig: %+v", d)
		}
		key := d.Code + " " + d.Path + " " + strconv.Itoa(d.Line) + ":" + strconv.Itoa(d.Column)
		if seen[key] {
			t.Errorf("reported twice: %s", key)
		}
		seen[key] = true
	}
}

func TestNamesNotCloudStorage(t *testing.T) {
	r := namesCall(t, `{"config": {"name": "projects/p/subscriptions/s", "topic": "projects/p/topics/t"}}`)
	if r.Valid || codes(r.Diagnostics) != "not-cloud-storage" {
		t.Errorf("valid %v, diagnostics %s", r.Valid, codes(r.Diagnostics))
	}
}

func TestNamesUndecodable(t *testing.T) {
	r := namesCall(t, `{"text": "{\"cloudStorageConfig\": ", "format": "json"}`)
	if r.Valid || len(r.Diagnostics) == 0 || r.Diagnostics[0].Line == 0 {
		t.Errorf("valid %v, diagnostics %+v", r.Valid, r.Diagnostics)
	}
}

func TestNamesBadRequests(t *testing.T) {
	cfg := `"config": {"cloudStorageConfig": {"bucket": "b-1"}}`
	tests := []struct{ name, body, msg string }{
		{"bad time", `{` + cfg + `, "time": "yesterday"}`, `"time"`},
		{"count too large", `{` + cfg + `, "count": 1001}`, `"count"`},
		{"negative count", `{` + cfg + `, "count": -1}`, `"count"`},
		{"uuid with a slash", `{` + cfg + `, "uuid": "a/b"}`, `"uuid"`},
		{"uuid with a newline", `{` + cfg + `, "uuid": "a\nb"}`, `"uuid"`},
		{"long uuid", `{` + cfg + `, "uuid": "` + strings.Repeat("u", 65) + `"}`, `"uuid"`},
		{"stream and messages", `{` + cfg + `, "messages": [], "stream": {"rate": 1, "size": 1, "duration": "1s"}}`, "not both"},
		{"zero rate", `{` + cfg + `, "stream": {"rate": 0, "size": 1, "duration": "1s"}}`, "rate"},
		{"huge size", `{` + cfg + `, "stream": {"rate": 1, "size": 10000001, "duration": "1s"}}`, "size"},
		{"bad duration", `{` + cfg + `, "stream": {"rate": 1, "size": 1, "duration": "10m"}}`, "duration"},
		{"zero duration", `{` + cfg + `, "stream": {"rate": 1, "size": 1, "duration": "0s"}}`, "duration"},
		{"too many messages", `{` + cfg + `, "stream": {"rate": 100000, "size": 1, "duration": "101s"}}`, "10000000"},
		{"messages twice", `{` + cfg + `, "messages": [], "messagesText": "[]"}`, "not both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := call(t, "names", tc.body)
			if ok || errorCode(m) != "bad-request" {
				t.Fatalf("ok %v, response %v", ok, m)
			}
			if msg := m["error"].(map[string]any)["message"].(string); !strings.Contains(msg, tc.msg) {
				t.Errorf("message %q lacks %q", msg, tc.msg)
			}
		})
	}
}

func TestNamesMessages(t *testing.T) {
	config := seedsConfig + "  maxDuration: 60s\n  maxMessages: \"1000\"\n  maxBytes: \"1000\"\n"
	big := strings.Repeat("x", 1500)
	messages := `[
  {"text": "hello", "publishTime": "2023-09-25T04:10:00Z"},
  {"data": "` + base64.StdEncoding.EncodeToString([]byte("world")) + `", "publishTime": "2023-09-25T04:10:30Z"},
  {"text": "` + big + `", "publishTime": "2023-09-25T04:10:40Z"},
  {"text": "later", "publishTime": "2023-09-25T04:12:00Z"},
  {"text": "no time: arrives with the one before"},
  {"data": "` + base64.StdEncoding.EncodeToString([]byte{0xff, 0x00}) + `", "publishTime": "2023-09-25T04:12:01Z"},
  {"data": "%%%"}
]`
	r := namesCall(t, namesBody(t, config, map[string]any{"uuid": "uNiQuE", "messagesText": messages, "messagesFormat": "json"}))
	var got []string
	for _, f := range r.Files {
		got = append(got, f.Name+" "+strconv.FormatInt(f.Messages, 10)+" "+string(f.ClosedBy))
	}
	u := storage.NewUUIDs("uNiQuE")
	want := []string{
		"prod_2023-09-25T04:10:00+00:00_uNiQuE_archive 2 maxBytes",
		"prod_2023-09-25T04:10:40+00:00_" + u.At(1) + "_archive 1 maxBytes",
		// The last sample's data is not base64: the service would refuse
		// to publish it, so no file holds it.
		"prod_2023-09-25T04:12:00+00:00_" + u.At(2) + "_archive 3 maxDuration",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !r.Files[1].Oversized || r.Summary.Oversized != 1 || r.Summary.Messages != 6 {
		t.Errorf("summary %+v, file 1 %+v", r.Summary, r.Files[1])
	}
	if p := r.Pipeline; p == nil || len(p.Written) != 6 || p.Messages[6].Outcome != outcomeInvalid {
		t.Errorf("pipeline %+v, want message 6 invalid and the others written", p)
	}
	if strings.Join(r.Names, ",") != strings.Join([]string{r.Files[0].Name, r.Files[1].Name, r.Files[2].Name}, ",") {
		t.Errorf("names %q are not the files' names", r.Names)
	}
	c := r.Contents
	if c == nil || c.Format != storage.Text || len(c.Text) != 3 {
		t.Fatalf("contents %+v", c)
	}
	if c.Text[0].Text != "hello\nworld" || c.Text[0].Bytes != 11 {
		t.Errorf("file 0 holds %q (%d bytes)", c.Text[0].Text, c.Text[0].Bytes)
	}
	if c.Text[2].Text != "" || c.Text[2].Base64 != base64.StdEncoding.EncodeToString([]byte("later\nno time: arrives with the one before\n\xff\x00")) {
		t.Errorf("binary file 2 = %+v", c.Text[2])
	}
	if !strings.Contains(codes(r.MessageDiagnostics), "message-data-base64@8:12") {
		t.Errorf("message diagnostics %s lack the bad base64", codes(r.MessageDiagnostics))
	}
}

func TestNamesAvroContents(t *testing.T) {
	config := seedsConfig + "  avroConfig:\n    writeMetadata: true\n"
	r := namesCall(t, namesBody(t, config, map[string]any{"messages": []map[string]string{{"text": "abc"}, {"text": "de"}}}))
	c := r.Contents
	if c == nil || c.Format != storage.Avro || len(c.Avro) != 1 {
		t.Fatalf("contents %+v", c)
	}
	if a := c.Avro[0]; a.Schema != "com.google.pubsub.PubsubMessageWithMetadata" || a.Records != 2 || a.PayloadBytes != 5 || !a.Metadata {
		t.Errorf("avro summary %+v", a)
	}
	if r.Limits.Output != storage.Avro || r.Files[0].Bytes != 5 {
		t.Errorf("limits %+v, file %+v", r.Limits, r.Files[0])
	}
}

func TestNamesStream(t *testing.T) {
	config := seedsConfig + "  maxDuration: 60s\n  maxMessages: \"1000\"\n"
	r := namesCall(t, namesBody(t, config, map[string]any{"time": "2023-09-25T04:10:00Z", "uuid": "u",
		"stream": map[string]any{"rate": 100, "size": 10, "duration": "600s"}}))
	s := r.Summary
	if s == nil || s.Messages != 60000 || s.Files != 60 || s.ClosedBy[storage.ByMessages] != 60 {
		t.Fatalf("summary %+v", s)
	}
	if len(r.Files) != 60 || len(r.Names) != 60 || r.Names[0] != "prod_2023-09-25T04:10:00+00:00_u_archive" {
		t.Errorf("%d files, names %q...", len(r.Files), r.Names[:min(2, len(r.Names))])
	}
	if r.Contents != nil {
		t.Error("a synthetic stream has no contents to show")
	}
	if r.Limits.MaxDuration != "60s" || r.Limits.MaxMessages != 1000 || r.Limits.MaxBytes != 0 {
		t.Errorf("limits %+v", r.Limits)
	}
}

func TestNamesStreamKeepsFirstFiles(t *testing.T) {
	config := seedsConfig + "  maxBytes: \"1000\"\n"
	r := namesCall(t, namesBody(t, config, map[string]any{"stream": map[string]any{"rate": 1000, "size": 1000, "duration": "5s"}}))
	if r.Summary.Files != 5000 || !r.Summary.Truncated || len(r.Files) != MaxPreviewFiles {
		t.Errorf("summary %+v with %d files listed", r.Summary, len(r.Files))
	}
}
