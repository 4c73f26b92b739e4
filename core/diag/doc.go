// Package diag is the one diagnostic type every part of subplay reports
// with: a severity, a stable code, a JSON pointer into the subscription, a
// 1-based line and column into the text the user typed, a message and a
// hint. It also indexes source texts and renders findings with a caret.
//
// It uses the standard library only, so every other package can import it.
package diag
