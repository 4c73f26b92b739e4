// widgets.js lists the embed's widgets and the build of the core each one
// loads (wasm/browser/doc.go): only the filter tester pays for cel-go, and
// only the schema widget for hamba/avro; only the transforms widget starts
// with "extra" (the JavaScript engine). The others fetch another build only
// when theirs answers "needs-module" (a Terraform text: format=terraform; a
// filter on sample messages in a build without cel-go): the smallest that
// has what it lacked (modules.js).
// build.mjs reads it too, to list what each embed downloads.
export const WIDGETS = {
  filter: { title: "Filter tester", module: "cel", config: false, tab: "filter" },
  names: { title: "Cloud Storage object names", module: "min", config: true, tab: "storage" },
  schema: { title: "Schemas", module: "avro", config: true, tab: "schema" },
  settings: { title: "Effective settings", module: "min", config: true, tab: "settings" },
  transforms: { title: "Message transforms", module: "extra", config: true, tab: "transforms" },
  export: { title: "Export", module: "min", config: true, tab: "export" },
};
