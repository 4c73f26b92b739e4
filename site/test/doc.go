// Package sitetest is the playground's browser suite: it serves the built
// page with `subplay serve` and drives headless Chromium (Debian's
// chromium package) through chromedp. The browser reaches the server
// through a recording proxy, so the tests see every request, the workers'
// included: which module each view downloads, and that none carries what
// the user typed.
//
// The tests carry the build tag "browser", so `go test ./...` skips them;
// scripts/test-site builds the page and runs them:
//
//	scripts/build-site --quick && go test -tags browser ./site/test/
//
// Screenshots of the page and of each embed go to site/test/screenshots/
// (ignored by git).
package sitetest
