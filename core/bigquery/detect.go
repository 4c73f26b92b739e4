package bigquery

import "strings"

// TopicSchemaType returns the type of a topic schema definition: typ when
// it names one ("AVRO" or "PROTOCOL_BUFFER", in any case), else what the
// text is: Avro when it opens with {, [ or " (a JSON schema), a .proto
// otherwise.
func TopicSchemaType(text, typ string) string {
	if typ != "" {
		return strings.ToUpper(typ)
	}
	if t := strings.TrimLeft(strings.TrimPrefix(text, "\ufeff"), " \t\r\n"); t != "" && strings.ContainsRune(`{["`, rune(t[0])) {
		return Avro
	}
	return Protobuf
}
