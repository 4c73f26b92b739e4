//go:build noavro

package playground

import "context"

// schemaWithoutAvro answers the schema operation in a build without
// hamba/avro: what it can read of the request it reads, so that a bad
// request is answered here and the needs-module answer names everything
// missing (a UDF's engine, the filter's evaluator, Terraform's reader, as
// well as Avro); a configuration that does not decode gets the answer
// every build gives, which needs no schema reader.
func schemaWithoutAvro(ctx context.Context, req *SchemaRequest) (*SchemaResponse, error) {
	const msg = "this build has no Avro or table schema support (built with noavro); a build with it answers the schema operation"
	st, err := startSchema(ctx, req)
	if err == nil && st.done {
		return st.resp, nil
	}
	return nil, withNeeds(err, msg, NeedsAvro)
}

func init() {
	registerContext("schema", schemaSummary, schemaWithoutAvro)
}
