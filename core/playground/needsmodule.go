package playground

import "slices"

// CodeNeedsModule is the code of the Error a build answers when it was
// built without something the request needs (the JavaScript engine for
// UDFs, the HCL reader for Terraform, cel-go for a preview's filter,
// hamba/avro for the schema operation). It answers so rather than partly;
// whoever runs a smaller build sends the same request to a build that has
// what the Error's Needs list names: the page's router
// (site/src/modules.js) and the edge worker's glue
// (wasm/worker/persistent.mjs, through a service binding).
const CodeNeedsModule = "needs-module"

// The values of Error.Needs: what a build left out that the request
// needs. Each is its build tag without the "no" (noudf leaves out
// NeedsUDF), which is how the page's router (site/src/modules.js) finds
// the builds that have it from scripts/build-wasm --list.
const (
	NeedsCEL  = "cel"  // cel-go, to run a filter on sample messages (tag nocel)
	NeedsAvro = "avro" // hamba/avro, for the schema operation (tag noavro)
	NeedsUDF  = "udf"  // the JavaScript engine, to run UDFs (tag noudf)
	NeedsHCL  = "hcl"  // hcl/v2, to read Terraform text (tag nohcl)
)

// needsModule is the Error of a build that lacks needs (NeedsCEL, ...).
func needsModule(message string, needs ...string) *Error {
	return &Error{Code: CodeNeedsModule, Message: message, Needs: needs}
}

// withNeeds returns err with more added to what it needs, when err is a
// needs-module Error, and a needs-module Error for more alone when err is
// nil; any other error is returned as it is (a bad request is bad in every
// build).
func withNeeds(err error, message string, more ...string) error {
	if err == nil {
		return needsModule(message, more...)
	}
	e, ok := err.(*Error)
	if !ok || e.Code != CodeNeedsModule {
		return err
	}
	needs := slices.Clone(e.Needs)
	for _, n := range more {
		if !slices.Contains(needs, n) {
			needs = append(needs, n)
		}
	}
	slices.Sort(needs)
	return needsModule(message+"; also "+e.Message, needs...)
}
