//go:build js && wasm && !noudf

package main

// A build with QuickJS-ng for UDFs registers its host for js/wasm.
import _ "github.com/subplay/subplay/wasm/quickjs"
