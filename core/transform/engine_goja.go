//go:build !noudf && !quickjs

package transform

// Engine names the engine this build runs UDFs on.
const Engine = "goja"

// Close does nothing: goja's runtimes are the garbage collector's.
func (p *Program) Close() {}
