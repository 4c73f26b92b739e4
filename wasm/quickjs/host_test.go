//go:build js

package quickjs

import (
	"testing"

	"github.com/subplay/subplay/core/jsengine/enginetest"
)

// TestEval holds this host to what core/jsengine's native host does.
func TestEval(t *testing.T) { enginetest.Eval(t) }

func TestCancelled(t *testing.T) { enginetest.Cancelled(t) }
