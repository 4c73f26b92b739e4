package hostile

import "strings"

// Cases shaped for the HTTP API, though every entry runs them: bytes the
// transport carries that the JSON layer must not quietly rewrite, and a
// request whose own JSON (not the configuration in it) is deep.
func init() {
	add(
		Case{Name: "http/invalid-utf8-in-text", Op: "validate", Body: func() []byte {
			// A stray 0xff inside the configuration text: the HTTP API
			// answers 400 with its byte offset; it once became U+FFFD.
			return []byte("{\"text\":\"topic: projects/p/topics/t\\nackDeadlineSeconds: 1\xff0\\n\",\"format\":\"yaml\"}")
		}},
		Case{Name: "http/deep-request-json", Op: "validate", Body: func() []byte {
			// An unknown field holding 9,000 nested arrays: the request
			// decoder must refuse it without recursing per level on a
			// stack of its own.
			return []byte(`{"text":"","x":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}`)
		}},
	)
}
