//go:build noudf

package transform

import (
	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/message"
)

// Available reports whether this build can run UDFs.
const Available = false

// Program stands in for the engine's compiled UDFs in a build without it.
type Program struct {
	Diagnostics [][]diag.Diagnostic
	Console     [][]ConsoleLine
}

// Compile reports ErrUnavailable: this build has no engine.
func Compile([]UDF, Options) (*Program, error) { return nil, ErrUnavailable }

// Run is never reached: Compile gives no Program.
func (p *Program) Run(message.Message) []Step { return nil }

// Close does nothing: Compile gives no Program.
func (p *Program) Close() {}
