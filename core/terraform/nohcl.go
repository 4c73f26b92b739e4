//go:build nohcl

package terraform

// Supported is false: this build leaves the HCL library out, and Read
// cannot read Terraform text.
const Supported = false

// Read, in a build without HCL, reads nothing: callers check Supported
// and answer that another build is needed.
func Read(req Request) *Result {
	return &Result{}
}

// ReadAll, in a build without HCL, reads nothing either.
func ReadAll(req Request) *All {
	return &All{}
}
