//go:build nohcl

package playground

func init() { lacks[NeedsHCL] = true }
