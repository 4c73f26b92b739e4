package doc

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a": [1, 2.50, true, null], "b": {"c": "d"}}`, `{"a":[1,2.50,true,null],"b":{"c":"d"}}`},
		{`{"s": "tab\there \"q\" \\ \u0001 \u007f é 😀"}`, "{\"s\":\"tab\\there \\\"q\\\" \\\\ \\u0001 \x7f é 😀\"}"},
		{"a: 0x10\nb: [x, 'y']\n", `{"a":16,"b":["x","y"]}`},
		{`[]`, `[]`},
	}
	for _, tc := range cases {
		d, ds := Parse("t", tc.in, "")
		if len(ds) > 0 {
			t.Fatalf("%s: %v", tc.in, ds)
		}
		got := d.Root.JSON()
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: output is not valid JSON: %s", tc.in, got)
		}
	}
}

func TestQuoteJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "\x00\x1f\x7f", "\xff\xfe bad utf-8", "línea\nnueva", strings.Repeat("\"\\", 3)} {
		var b strings.Builder
		QuoteJSON(&b, s)
		var back string
		if err := json.Unmarshal([]byte(b.String()), &back); err != nil {
			t.Fatalf("%q -> %s: %v", s, b.String(), err)
		}
		want, _ := json.Marshal(s)
		var wantBack string
		json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Errorf("%q: round trip %q, encoding/json %q", s, back, wantBack)
		}
	}
}
