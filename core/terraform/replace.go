package terraform

import (
	"strings"

	"github.com/subplay/subplay/core/diag"
)

// Replacements rewrites the findings of an update that changes a field
// the API keeps fixed (code immutable-field) for a Terraform
// configuration: Terraform does not fail there, it plans a replacement
// (the provider marks the attribute ForceNew), destroying the
// subscription and creating it again, which loses its backlog. That is
// a warning, not an error. Other findings are returned as they are.
func Replacements(ds []diag.Diagnostic) []diag.Diagnostic {
	for i := range ds {
		d := &ds[i]
		if d.Code != "immutable-field" {
			continue
		}
		name := tfName(d.Path)
		d.Severity = diag.Warning
		d.Code = "terraform-replaces"
		d.Message = "changing " + name + " forces Terraform to replace the subscription: it is destroyed and created again, and its unacknowledged messages are lost"
		d.Hint = "create the new subscription beside the old one and move subscribers over, or keep " + name + " as it is"
	}
	return ds
}

// tfName is the Terraform attribute at a REST path ("/filter" ->
// "filter", "/name" -> "name or project").
func tfName(path string) string {
	list, names := schema, []string{}
	for _, seg := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		a := find(list, seg, false)
		if a == nil {
			return strings.TrimPrefix(path, "/")
		}
		names = append(names, a.tf)
		list = a.children
	}
	n := strings.Join(names, ".")
	if n == "name" {
		return "name or project"
	}
	return n
}
