package subscription

import (
	"encoding/base64"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/subplay/subplay/core/diag"
)

// changed returns a copy of the rule table's rows with every default and
// bound moved to another value: durations and integers to twice plus one,
// booleans flipped, the push version and datetime format to other valid
// values. Nothing global changes: the copy is a Table of its own.
func changed(t *testing.T) *Table {
	t.Helper()
	rs := make([]Field, len(rows))
	copy(rs, rows)
	shift := func(kind Kind, s string) string {
		if s == "" {
			return ""
		}
		if kind == KindDuration {
			d, err := ParseDuration(s)
			if err != nil {
				t.Fatal(err)
			}
			return strconv.FormatInt(d.Seconds*2+1, 10) + "s"
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return strconv.FormatInt(n*2+1, 10)
	}
	for i := range rs {
		f := &rs[i]
		f.Min, f.Max = shift(f.Kind, f.Min), shift(f.Kind, f.Max)
		switch {
		case f.Default == "":
		case f.Kind == KindDuration || f.Kind == KindInt32 || f.Kind == KindInt64:
			f.Default = shift(f.Kind, f.Default)
		case f.Kind == KindBool:
			f.Default = strconv.FormatBool(f.Default != "true")
		case f.Kind == KindMap:
			f.Default = `{"x-goog-version":"v1beta2"}`
		case f.Kind == KindString:
			f.Default = "YYYYMMDDhhmmss"
		}
	}
	tab, err := newTable(rs)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// everyDelivery are configurations that between them hold every object a
// default can fill in.
var everyDelivery = []string{
	base(`"retryPolicy": {}, "deadLetterPolicy": {"deadLetterTopic": "projects/my-project/topics/dead"},
		"messageTransforms": [{"compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}}]`),
	base(`"pushConfig": {"pushEndpoint": "https://example.com/p"}`),
	base(`"pushConfig": {"pushEndpoint": "https://example.com/p", "noWrapper": {}}`),
	base(`"bigqueryConfig": {"table": "my-project.d.t"}`),
	base(`"cloudStorageConfig": {"bucket": "my-bucket"}`),
	base(`"cloudStorageConfig": {"bucket": "my-bucket", "avroConfig": {}}`),
	base(`"bigtableConfig": {"table": "projects/my-project/instances/i/tables/t"}`),
}

// TestEffectiveFollowsTheTable fills the defaults from a changed table and
// checks that every row with a default gave its own (changed) value: a
// default written anywhere else than the table would keep the old one.
func TestEffectiveFollowsTheTable(t *testing.T) {
	for _, tab := range []*Table{Rules(), changed(t)} {
		filled := map[string]bool{}
		for _, in := range everyDelivery {
			e := decodeWith(tab, "t", in, "").Effective()
			for path, o := range e.Origins {
				f := tab.At(path)
				if o != Default || f == nil || f.def == nil {
					continue
				}
				filled[f.Path] = true
				v, _ := e.Value(path)
				got, _ := json.Marshal(v)
				want := f.Default
				if f.Kind == KindDuration || f.Kind == KindString {
					want = strconv.Quote(f.Default)
				}
				if string(got) != want {
					t.Errorf("%s = %s, want the table's default %s", path, got, want)
				}
			}
		}
		for _, f := range tab.Fields() {
			if f.def != nil && !filled[f.Path] {
				t.Errorf("%s has a default that no configuration filled in", f.Path)
			}
		}
	}
}

// TestValidateFollowsTheTable checks every bound of a changed table at
// both sides, and the rules that read defaults (ttl against the default
// retention, backoff order against the default minimum).
func TestValidateFollowsTheTable(t *testing.T) {
	tab := changed(t)
	// value writes a value of f's kind of size n for the input.
	value := func(f *Field, n int64) string {
		switch f.Kind {
		case KindDuration:
			return strconv.Quote(strconv.FormatInt(n, 10) + "s")
		case KindString:
			return strconv.Quote(strings.Repeat("a", int(n)))
		case KindBytes:
			return strconv.Quote(base64.StdEncoding.EncodeToString(make([]byte, n)))
		case KindMap:
			var parts []string
			for i := range n {
				parts = append(parts, strconv.Quote("k"+strconv.FormatInt(i, 10))+`: "v"`)
			}
			return "{" + strings.Join(parts, ", ") + "}"
		case KindArray:
			parts := make([]string, n)
			for i := range parts {
				parts[i] = `{"compression": {"compressionAlgorithm": "ZLIB", "compressionMode": "COMPRESS"}}`
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
		return strconv.FormatInt(n, 10)
	}
	// at nests a value under a table path: "/a/*/b" gives "a": [{"b": v}].
	at := func(path, v string) string {
		segs := strings.Split(path[1:], "/")
		for i := len(segs) - 1; i > 0; i-- {
			if segs[i] == "*" {
				continue
			}
			if segs[i-1] == "*" {
				v = `[{"` + segs[i] + `": ` + v + `}]`
				i--
			} else {
				v = `{"` + segs[i] + `": ` + v + `}`
			}
		}
		return `"` + segs[0] + `": ` + v
	}
	boundCodes := map[string]bool{"value-too-small": true, "value-too-large": true, "too-long": true, "filter-too-long": true, "too-many": true, "too-many-transforms": true}
	broken := func(ds []diag.Diagnostic, path string) string {
		for _, d := range ds {
			if boundCodes[d.Code] && strings.HasPrefix(genericPath(d.Path), path) {
				return d.Code
			}
		}
		return ""
	}
	checked := 0
	for _, f := range tab.Fields() {
		lo, hi := f.minI, f.maxI
		if f.Kind == KindDuration {
			lo, hi = nil, nil
			if f.minD != nil {
				lo = &f.minD.Seconds
			}
			if f.maxD != nil {
				hi = &f.maxD.Seconds
			}
		}
		for _, c := range []struct {
			bound *int64
			delta int64
			ok    bool
		}{{lo, 0, true}, {lo, -1, false}, {hi, 0, true}, {hi, 1, false}} {
			if c.bound == nil || *c.bound+c.delta < 0 {
				continue
			}
			in := base(at(f.Path, value(f, *c.bound+c.delta)))
			code := broken(decodeWith(tab, "t", in, "").Validate(), f.Path)
			if (code == "") != c.ok {
				t.Errorf("%s at %d: bound finding %q, want one: %v\n%s", f.Path, *c.bound+c.delta, code, !c.ok, in)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d bound checks ran", checked)
	}

	// Rules that read a default: the changed default retention (1209601s)
	// is above a ttl of 1000000s, and the changed default minimum backoff
	// (21s) above a maximum of 15s. With the package's table, both pass.
	for _, c := range []struct{ in, code string }{
		{base(`"expirationPolicy": {"ttl": "1000000s"}`), "ttl-below-retention"},
		{base(`"retryPolicy": {"maximumBackoff": "15s"}`), "backoff-order"},
	} {
		has := func(tb *Table) bool {
			for _, d := range decodeWith(tb, "t", c.in, "").Validate() {
				if d.Code == c.code {
					return true
				}
			}
			return false
		}
		if has(Rules()) || !has(tab) {
			t.Errorf("%s: package table %v, changed table %v; want false, true", c.code, has(Rules()), has(tab))
		}
	}
}

// TestHelpFollowsTheTable checks that the help the page shows (the rows
// describe returns) names each default and bound through the table: in
// the changed table every placeholder shows the changed value, and no
// help text as written repeats a default or bound of its row.
func TestHelpFollowsTheTable(t *testing.T) {
	tab := changed(t)
	placeholder := regexp.MustCompile(`\{(?:(/[^:}]*):)?(default|min|max)\}`)
	used := 0
	for i, src := range rows {
		got := tab.Fields()[i]
		for _, text := range []struct{ src, got string }{{src.Help, got.Help}, {src.DefaultText, got.DefaultText}} {
			for _, m := range placeholder.FindAllStringSubmatch(text.src, -1) {
				row := got
				if m[1] != "" {
					row = tab.At(m[1])
				}
				want, err := row.human(m[2])
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(text.got, want) {
					t.Errorf("%s: %q does not show the changed %s %q", src.Path, text.got, m[2], want)
				}
				used++
			}
		}
		// A second place: the text as written states a value of its row.
		f := Rules().Fields()[i]
		for _, which := range []string{"default", "min", "max"} {
			h, err := f.human(which)
			if err != nil {
				continue
			}
			raw := map[string]string{"default": f.Default, "min": f.Min, "max": f.Max}[which]
			for _, text := range []string{src.Help, src.DefaultText} {
				for _, v := range []string{h, raw} {
					if regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(v) + `($|[^\w])`).MatchString(text) {
						t.Errorf("%s: %q restates its %s %q; write {%s}", f.Path, text, which, v, which)
					}
				}
			}
		}
	}
	if used < 8 {
		t.Errorf("only %d placeholders: the help should show the bounds through them", used)
	}
	if h := Rules().At("/messageRetentionDuration").Help; !strings.Contains(h, "10 minutes to 31 days") {
		t.Errorf("retention help %q", h)
	}
}

// TestTableMatchesSeeds checks every default and bound against the
// numbers of the newest product page (seed 003, Spanish) and rules.md.
func TestTableMatchesSeeds(t *testing.T) {
	want := []struct{ path, def, min, max string }{
		{"/ackDeadlineSeconds", "10", "10", "600"},                                    // 10 s default and minimum, 600 s maximum
		{"/messageRetentionDuration", "604800s", "600s", "2678400s"},                  // 7 days, 10 minutes, 31 days (D1)
		{"/expirationPolicy/ttl", "2678400s", "86400s", ""},                           // 31 days, at least 1 day (D2)
		{"/deadLetterPolicy/maxDeliveryAttempts", "5", "5", "100"},                    // 5 attempts by default, 5 to 100
		{"/retryPolicy/minimumBackoff", "10s", "0s", "600s"},                          // 10 s default, at most 600 s
		{"/retryPolicy/maximumBackoff", "600s", "0s", "600s"},                         // 600 s default and maximum
		{"/cloudStorageConfig/maxDuration", "300s", "60s", "600s"},                    // 5 minutes, 1 minute, 10 minutes
		{"/cloudStorageConfig/maxBytes", "", "1000", "10737418240"},                   // 1 KB to 10 GiB (D7)
		{"/cloudStorageConfig/maxMessages", "", "1000", ""},                           // at least 1000
		{"/filter", "", "", "256"},                                                    // rules.md table 1
		{"/labels", "", "", "64"},                                                     // rules.md table 1
		{"/messageTransforms", "", "", "5"},                                           // D15
		{"/bigtableConfig/columnFamilyMapping/delimitedKey/delimiter", "", "1", "50"}, // pubsub.proto
	}
	for _, w := range want {
		f := Rules().At(w.path)
		if f == nil {
			t.Errorf("%s is not in the table", w.path)
			continue
		}
		if f.Default != w.def || f.Min != w.min || f.Max != w.max {
			t.Errorf("%s: default %q min %q max %q; the seeds say %q %q %q", w.path, f.Default, f.Min, f.Max, w.def, w.min, w.max)
		}
	}
	if f := Rules().At("/pushConfig/attributes"); f.Default != `{"x-goog-version":"v1"}` {
		t.Errorf("push attributes default %s", f.Default)
	}
}

// TestTableRowsAreModelFields walks every row's path through the model's
// types, so the effective walk can never meet a row the model lacks, and
// checks that the row's kind is the field's type.
func TestTableRowsAreModelFields(t *testing.T) {
	kinds := map[Kind][]reflect.Type{
		KindString: {typString}, KindBytes: {typString}, KindBool: {typBool}, KindInt32: {typInt32}, KindInt64: {typInt64},
		KindDuration: {typDuration}, KindMap: {typStrMap}, KindArray: {typStrings},
	}
	for _, f := range Rules().Fields() {
		typ := reflect.TypeFor[Subscription]()
		var ft reflect.Type
		segs := strings.Split(f.Path[1:], "/")
		for i := 0; i < len(segs); i++ {
			for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
				typ = typ.Elem()
			}
			idx, ok := infoOf(typ).byName[segs[i]]
			if !ok {
				t.Fatalf("%s: %s has no field %s", f.Path, typ, segs[i])
			}
			ft = typ.Field(idx).Type
			typ = ft
			if i+1 < len(segs) && segs[i+1] == "*" {
				i++
			}
		}
		want, listed := kinds[f.Kind]
		switch {
		case f.Kind == KindObject:
			if ft.Kind() != reflect.Pointer || ft.Elem().Kind() != reflect.Struct {
				if !(ft == typAnyMap && f.Path == "/messageTransforms/*/aiInference/unstructuredInference/parameters") {
					t.Errorf("%s is an object row but a %s", f.Path, ft)
				}
			}
		case f.Kind == KindArray && ft.Kind() == reflect.Slice:
		case listed && !slices.Contains(want, ft):
			t.Errorf("%s is a %s row but a %s", f.Path, f.Kind, ft)
		}
	}
}

// TestNamesFollowTheTable checks that object names use the rule table's
// default datetime format when the configuration gives none, as the
// effective settings do: core/storage's own default is not a second source.
func TestNamesFollowTheTable(t *testing.T) {
	const in = `{"name": "projects/p/subscriptions/sub", "topic": "projects/p/topics/t", "cloudStorageConfig": {"bucket": "my-bucket"}}`
	at := time.Date(2024, 5, 1, 12, 30, 45, 0, time.UTC)
	for _, c := range []struct {
		name string
		tab  *Table
		want string
	}{
		{"package table", Rules(), "2024-05-01T12:30:45+00:00_u"},
		{"changed table", changed(t), "20240501123045_u"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := decodeWith(c.tab, "t.json", in, "")
			layout, ds := cfg.StorageLayout()
			if layout == nil {
				t.Fatalf("no layout: %v", ds)
			}
			if got := layout.Name(at, "u"); got != c.want {
				t.Errorf("name %q, want %q", got, c.want)
			}
			eff := cfg.Effective().Subscription.CloudStorageConfig.FilenameDatetimeFormat
			if eff == nil || !strings.HasPrefix(c.want, strings.NewReplacer("YYYY", "2024", "MM", "05", "DD", "01", "hh", "12", "mm", "30", "ss", "45").Replace(*eff)) {
				t.Errorf("effective format %v does not give the name %q", eff, c.want)
			}
		})
	}
}
