//go:build noudf

package playground

func init() { lacks[NeedsUDF] = true }
