//go:build nocel

package playground

func init() { lacks[NeedsCEL] = true }
