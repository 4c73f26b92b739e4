//go:build !js

package jsengine_test

import (
	"testing"

	"github.com/subplay/subplay/core/jsengine/enginetest"
)

func TestEval(t *testing.T) { enginetest.Eval(t) }

func TestCancelled(t *testing.T) { enginetest.Cancelled(t) }
