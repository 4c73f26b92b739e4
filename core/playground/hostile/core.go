package hostile

import (
	"strconv"
	"strings"
)

// The classes of the configuration, filter, message and Cloud Storage
// parsers (schemas are in schema.go). Bodies stay under the HTTP API's
// 1 MiB, so every entry reads the same request.

// staircase nests n block mappings, each key one space deeper.
func staircase(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i%400) + "b:\n")
	}
	return b.String()
}

// repeatTo repeats unit until the result reaches n bytes.
func repeatTo(unit string, n int) string { return strings.Repeat(unit, n/len(unit)+1) }

// jsonRequest builds a request from members already written as JSON.
func jsonRequest(members ...string) []byte {
	return []byte("{" + strings.Join(members, ",") + "}")
}

// str writes s as a JSON string.
func str(s string) string {
	var b strings.Builder
	writeJSONString(&b, s)
	return b.String()
}

// messagesOf is a JSON array of n messages made by one(i).
func messagesOf(n int, one func(i int) string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(one(i))
	}
	b.WriteByte(']')
	return b.String()
}

const gcs = `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b"}}`

func init() {
	validate := func(name, format string, text func() string) Case {
		return Case{Name: name, Op: "validate", Body: func() []byte { return textRequest(text(), format) }}
	}
	add(
		// Nesting: every parser must refuse before it recurses.
		validate("yaml-depth/flow-100000", "yaml", func() string {
			return "a: " + strings.Repeat("{b: ", 100_000) + "1" + strings.Repeat("}", 100_000) + "\n"
		}),
		validate("yaml-depth/flow-sequence-unclosed", "yaml", func() string { return strings.Repeat("[", 900_000) }),
		validate("yaml-depth/block-staircase-2000", "yaml", func() string { return staircase(2000) }),
		validate("yaml-depth/dashes-100000", "yaml", func() string { return strings.Repeat("- ", 100_000) + "x\n" }),
		validate("json-depth/arrays-400000", "json", func() string {
			return strings.Repeat("[", 400_000) + strings.Repeat("]", 400_000)
		}),
		validate("json-depth/objects-100000", "json", func() string {
			return strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000)
		}),

		// Locating many findings on one long line.
		validate("locate/duplicate-keys-one-line-non-ascii", "json", func() string {
			return `{"topic":"projects/p/topics/t","labels":{"é":"1"` + repeatTo(`,"é":"1"`, 800_000) + "}}"
		}),
		validate("locate/yaml-flow-duplicates-one-line", "yaml", func() string {
			return "{topic: projects/p/topics/t, labels: {é: 1" + repeatTo(", é: 1", 800_000) + "}}\n"
		}),
		validate("locate/unknown-fields-one-line", "json", func() string {
			var b strings.Builder
			b.WriteString(`{"topic":"projects/p/topics/t"`)
			for i := 0; b.Len() < 800_000; i++ {
				b.WriteString(`,"ü` + strconv.Itoa(i) + `":1`)
			}
			return b.String() + "}"
		}),

		// Size: one huge value, many values, many lines.
		validate("huge-string/topic-900kb", "json", func() string {
			return `{"topic":"projects/p/topics/` + strings.Repeat("t", 900_000) + `"}`
		}),
		validate("huge-string/unknown-key-900kb", "json", func() string {
			return `{"topic":"projects/p/topics/t","` + strings.Repeat("k", 900_000) + `":1}`
		}),
		validate("huge-string/duplicate-key-400kb", "yaml", func() string {
			k := strings.Repeat("k", 400_000)
			return "topic: projects/p/topics/t\n" + k + ": 1\n" + k + ": 2\n"
		}),
		validate("many-keys/labels-60000", "json", func() string {
			var b strings.Builder
			b.WriteString(`{"topic":"projects/p/topics/t","labels":{"l0":"v"`)
			for i := 1; b.Len() < 800_000; i++ {
				b.WriteString(`,"l` + strconv.Itoa(i) + `":"v"`)
			}
			return b.String() + "}}"
		}),
		// The same width in YAML, where yaml.v3 builds a node per key
		// before the walker can count: past limits.ObjectMembers.
		validate("many-keys/yaml-block-labels", "yaml", func() string {
			var b strings.Builder
			b.WriteString("topic: projects/p/topics/t\nlabels:\n")
			for i := 0; b.Len() < 900_000; i++ {
				b.WriteString("  l" + strconv.Itoa(i) + ": v\n")
			}
			return b.String()
		}),
		validate("many-keys/yaml-flow-labels", "yaml", func() string {
			var b strings.Builder
			b.WriteString("{topic: projects/p/topics/t, labels: {l0: v")
			for i := 1; b.Len() < 800_000; i++ {
				b.WriteString(", l" + strconv.Itoa(i) + ": v")
			}
			return b.String() + "}}\n"
		}),
		validate("many-lines/blank-900000", "yaml", func() string {
			return "topic: projects/p/topics/t\n" + strings.Repeat("\n", 900_000)
		}),
		validate("many-lines/comments", "yaml", func() string {
			return "topic: projects/p/topics/t\n" + repeatTo("# c\n", 800_000)
		}),
		validate("whitespace/only-spaces", "", func() string { return strings.Repeat(" ", 900_000) }),
		validate("giant-number/ack-deadline", "json", func() string {
			return `{"topic":"projects/p/topics/t","ackDeadlineSeconds":` + strings.Repeat("9", 800_000) + "}"
		}),
		validate("giant-number/exponent", "yaml", func() string {
			return "topic: projects/p/topics/t\nackDeadlineSeconds: 1e" + strings.Repeat("9", 800_000) + "\n"
		}),
		validate("giant-number/duration", "json", func() string {
			return `{"topic":"projects/p/topics/t","messageRetentionDuration":"` + strings.Repeat("9", 800_000) + `s"}`
		}),

		// Aliases that multiply the document.
		validate("alias/billion-laughs", "yaml", func() string {
			var b strings.Builder
			b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
			for i := 1; i < 30; i++ {
				p := "*a" + strconv.Itoa(i-1)
				b.WriteString("a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
			}
			return b.String()
		}),
		validate("alias/many-references", "yaml", func() string {
			return "x: &x {a: 1, b: 2}\ny: [" + repeatTo("*x, ", 800_000) + "*x]\n"
		}),

		// Text that is not what it claims to be.
		validate("encoding/utf16-bom", "", func() string {
			return "\xff\xfe" + strings.Repeat("t\x00", 1000)
		}),
		validate("encoding/utf16-without-bom", "", func() string { return strings.Repeat("{\x00", 1000) }),
		validate("encoding/nul-bytes", "yaml", func() string { return "topic: p\x00\n" + strings.Repeat("\x00", 100_000) }),
		validate("encoding/invalid-utf8-yaml", "yaml", func() string { return repeatTo("topic: \xff\xfe\n", 500_000) }),
		validate("encoding/invalid-utf8-json", "json", func() string {
			return `{"topic":"projects/p/topics/t","labels":{"a":"` + strings.Repeat("\xff", 500_000) + `"}}`
		}),
		validate("control/ansi-escapes", "json", func() string {
			return `{"topic":"projects/p/topics/t","\u001b[31mred":"` + strings.Repeat(`\u001b[2J`, 50_000) + `"}`
		}),
		validate("control/bidi-overrides", "yaml", func() string {
			return "topic: projects/p/topics/t\n" + repeatTo("\u202eevil\u202c: 1\n", 500_000)
		}),

		// Filters: nesting, long chains, and a filter in a configuration
		// far longer than the service's 256 bytes.
		filterCase("filter-depth/parentheses-400000", strings.Repeat("(", 400_000)+"attributes:a"+strings.Repeat(")", 400_000)),
		filterCase("filter-depth/not-chain", repeatTo("NOT ", 800_000)+"attributes:a"),
		filterCase("filter-depth/minus-chain", strings.Repeat("-", 800_000)+"attributes:a"),
		filterCase("filter-long/and-chain", "attributes:a"+repeatTo(" AND attributes:a", 800_000)),
		filterCase("filter-long/mixed-operators", "attributes:a"+repeatTo(" AND attributes:b OR attributes:c", 800_000)),
		filterCase("filter-long/bad-escapes", `attributes.a = "`+repeatTo(`\q`, 800_000)+`"`),
		filterCase("filter-long/unclosed-string", `attributes.a = "`+strings.Repeat("x", 800_000)),
		validate("filter-depth/in-configuration", "yaml", func() string {
			return "topic: projects/p/topics/t\nfilter: '" + strings.Repeat("(", 400_000) + "attributes:a" + strings.Repeat(")", 400_000) + "'\n"
		}),
		Case{Name: "filter-messages/many-messages", Op: "filter", Body: func() []byte {
			msgs := messagesOf(10_000, func(i int) string {
				return `{"text":"m","attributes":{"a":"` + strconv.Itoa(i) + `","b":"x"}}`
			})
			return jsonRequest(`"filter":`+str(`attributes.a = "1" AND NOT hasPrefix(attributes.b, "y")`), `"messages":`+msgs)
		}},

		// Sample messages: too many, too large, too many attributes.
		Case{Name: "messages/too-many", Op: "filter", Body: func() []byte {
			return jsonRequest(`"filter":"attributes:a"`, `"messages":`+messagesOf(30_000, func(int) string { return `{"text":""}` }))
		}},
		Case{Name: "messages/many-attributes", Op: "filter", Body: func() []byte {
			return jsonRequest(`"filter":"attributes:a"`, `"messages":[{"attributes":{`+strings.TrimSuffix(repeatAttrs(50_000), ",")+`}}]`)
		}},
		Case{Name: "messages/huge-text", Op: "filter", Body: func() []byte {
			return jsonRequest(`"filter":"attributes:a"`, `"messages":[{"text":`+str(strings.Repeat("x", 900_000))+`}]`)
		}},
		Case{Name: "messages/huge-attribute-key", Op: "filter", Body: func() []byte {
			return jsonRequest(`"filter":"attributes:a"`, `"messages":[{"attributes":{`+str(strings.Repeat("k", 900_000))+`:"v"}}]`)
		}},
		Case{Name: "messages/unknown-field-900kb", Op: "filter", Body: func() []byte {
			return jsonRequest(`"filter":"attributes:a"`, `"messages":[{`+str(strings.Repeat("k", 900_000))+`:1}]`)
		}},
		Case{Name: "messages/deep-yaml-text", Op: "filter", Body: func() []byte {
			return jsonRequest(`"filter":"attributes:a"`, `"messagesText":`+str(strings.Repeat("[", 400_000)), `"messagesFormat":"yaml"`)
		}},

		// Cloud Storage: names, batching and datetime formats.
		Case{Name: "names/huge-count", Op: "names", Body: func() []byte {
			return jsonRequest(`"config":`+gcs, `"count":2000000000`)
		}},
		Case{Name: "names/huge-stream", Op: "names", Body: func() []byte {
			return jsonRequest(`"config":`+gcs, `"stream":{"rate":1e12,"size":1,"duration":"87600h"}`)
		}},
		Case{Name: "names/tiny-batches", Op: "names", Body: func() []byte {
			cfg := `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","maxBytes":"1000","maxDuration":"60s"}}`
			return jsonRequest(`"config":`+cfg, `"stream":{"rate":1000000,"size":1000,"duration":"1h"}`)
		}},
		Case{Name: "names/many-messages", Op: "names", Body: func() []byte {
			cfg := `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","maxMessages":"1000"}}`
			return jsonRequest(`"config":`+cfg, `"messages":`+messagesOf(10_000, func(int) string { return `{"text":"m"}` }))
		}},
		Case{Name: "names/datetime-format-long", Op: "names", Body: func() []byte {
			cfg := `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","filenameDatetimeFormat":` +
				str(repeatTo("YYYY/MM/DD/hh_mm_ss_", 800_000)) + `}}`
			return jsonRequest(`"config":` + cfg)
		}},
		Case{Name: "names/datetime-format-bad-matchers", Op: "names", Body: func() []byte {
			cfg := `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","filenameDatetimeFormat":` +
				str(repeatTo("QQ", 800_000)) + `}}`
			return jsonRequest(`"config":` + cfg)
		}},
		Case{Name: "names/prefix-long", Op: "names", Body: func() []byte {
			cfg := `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":"b","filenamePrefix":` +
				str(repeatTo("a/../*?\u0001", 800_000)) + `}}`
			return jsonRequest(`"config":` + cfg)
		}},
		Case{Name: "names/bucket-long", Op: "names", Body: func() []byte {
			cfg := `{"topic":"projects/p/topics/t","cloudStorageConfig":{"bucket":` + str(repeatTo("Goog.-_", 800_000)) + `}}`
			return jsonRequest(`"config":` + cfg)
		}},
	)
}

// filterCase sends a filter to the filter operation with one message.
func filterCase(name, filter string) Case {
	return Case{Name: name, Op: "filter", Body: func() []byte {
		return jsonRequest(`"filter":`+str(filter), `"messages":[{"text":"m","attributes":{"a":"1"}}]`)
	}}
}

func repeatAttrs(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(`"k` + strconv.Itoa(i) + `":"v",`)
	}
	return b.String()
}
