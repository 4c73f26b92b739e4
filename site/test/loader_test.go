//go:build browser

package sitetest

import (
	"testing"
)

// TestLoaderBuilds loads each build through subplay.js, as another page
// would, and checks what it says it can do against what it does: the
// operations it lists, and whether its filter operation evaluates.
func TestLoaderBuilds(t *testing.T) {
	tests := []struct {
		module    string
		schema    bool // has the schema operation
		evaluates bool // runs filters (cel-go)
	}{
		{"full", true, true},
		{"cel", false, true},
		{"avro", true, false},
		{"min", false, false},
	}
	tb := newTab(t)
	tb.open("")
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			var got struct {
				Schema    bool   `json:"schema"`
				Validate  bool   `json:"validate"`
				Evaluated bool   `json:"evaluated"`
				Module    string `json:"module"`
				Error     string `json:"error"`
			}
			tb.eval(`import("./subplay.js").then(async ({ load }) => {
				const sp = await load({ module: "`+tt.module+`" });
				try {
					const f = await sp.call("filter", { filter: "attributes:a", messages: [{ attributes: { a: "1" } }] });
					let error = "";
					if (sp.has("schema")) {
						await sp.call("schema", { text: "topic: projects/p/topics/t\n", format: "yaml" }).catch((e) => { error = e.message; });
					}
					return { schema: sp.has("schema"), validate: sp.has("validate"), evaluated: !!f.evaluated, module: sp.name, error };
				} finally {
					sp.terminate();
				}
			})`, &got)
			if got.Schema != tt.schema || !got.Validate || got.Evaluated != tt.evaluates || got.Module != tt.module || got.Error != "" {
				t.Errorf("the %s build: %+v; want schema %v, evaluates filters %v", tt.module, got, tt.schema, tt.evaluates)
			}
		})
	}
}
