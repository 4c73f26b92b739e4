//go:build !noavro

// The noavro build (the docs embeds that show no schemas) leaves this
// operation's work, and hamba/avro with it, out: see schema_noavro.go.

package playground

import (
	"context"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/outputschema"
)

// Schema answers a SchemaRequest.
func Schema(req *SchemaRequest) (*SchemaResponse, error) {
	return SchemaContext(context.Background(), req)
}

// SchemaContext is Schema that stops, with ctx's error, once ctx is done.
func SchemaContext(ctx context.Context, req *SchemaRequest) (*SchemaResponse, error) {
	st, err := startSchema(ctx, req)
	if err != nil {
		return nil, err
	}
	resp := st.resp
	if st.done {
		return resp, nil
	}
	r, err := outputschema.CheckContext(ctx, outputschema.Input{Config: st.cfg, TopicSchema: req.TopicSchema, TopicSchemaType: req.TopicSchemaType,
		TableSchema: req.TableSchema, Messages: st.decoded, Now: st.now, Through: st.through, Origin: st.origin})
	if err != nil {
		return nil, err
	}
	resp.DeliveryType, resp.Avro, resp.OCF, resp.BigQuery = r.DeliveryType, r.Avro, r.OCF, r.BigQuery
	resp.Diagnostics = diag.Finish(append(resp.Diagnostics, r.Diagnostics...))
	resp.MessageDiagnostics = diag.Finish(append(resp.MessageDiagnostics, r.MessageDiagnostics...))
	return resp, nil
}

func init() {
	registerContext("schema", schemaSummary, SchemaContext)
}
