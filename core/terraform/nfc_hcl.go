//go:build !nohcl

package terraform

import "golang.org/x/text/unicode/norm"

// normalized reports whether Terraform reads s unchanged: HCL turns
// every string literal into Unicode normal form C.
func normalized(s string) bool { return norm.NFC.IsNormalString(s) }
