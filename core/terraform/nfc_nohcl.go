//go:build nohcl

package terraform

// normalized cannot tell, in a build without HCL, whether Terraform
// changes s (it needs the Unicode tables that come with HCL), and says
// it does not: the note about it is left to the full build.
func normalized(s string) bool { return true }
