// Package labnotes holds a test that keeps work-log notes out of the
// product: labels of a working session ("the twelfth session"), references
// to the project's issue tracker ("issue 10", "#47" in prose) and absolute
// paths of a development machine. A comment keeps the reason for what the
// code does and names the test or benchmark that holds it; when and by whom
// it was found belongs to git's history.
package labnotes
