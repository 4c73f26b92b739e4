// Package limits names every bound subplay puts on what it reads and on
// what it produces, in one place, so that a reader can see them all and no
// entry (page, HTTP API, CLI) can disagree with another about them.
//
// Each bound says why it has the value it has. Packages read their bounds
// from here; docs/limits.md is generated from these constants and their
// comments (TestLimitsDocFresh in internal/gendocs fails when it is stale).
// The package has no imports, so that every package of core, core/diag
// included, can use it.
//
// Areas keep their bounds in files of their own (documents.go, schemas.go,
// server.go, ...); request.go holds the bound of a whole request.
package limits

//go:generate go run ../../internal/gendocs -root ../..
