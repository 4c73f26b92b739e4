//go:build noavro

package playground

func init() { lacks[NeedsAvro] = true }
