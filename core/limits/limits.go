// Package limits names every bound subplay puts on what it reads and on
// what it produces, in one place, so that a reader can see them all and no
// entry (page, HTTP API, CLI) can disagree with another about them.
//
// Each bound says why it has the value it has. Packages read their bounds
// from here; README's "Limits" table lists the same names. The package has
// no imports, so that every package of core, core/diag included, can use it.
//
// Areas keep their bounds in files of their own (documents.go, schemas.go,
// server.go, ...); this file holds the bounds of a whole request.
package limits
