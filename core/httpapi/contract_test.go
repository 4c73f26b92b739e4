package httpapi_test

import (
	"bytes"
	"testing"

	"github.com/subplay/subplay/internal/golden"
)

// testContract posts every request of the contract corpus and checks the
// body is the response playground.Call gives (core/playground's
// TestContract): natively and, through TestWorkerd, in workerd.
func testContract(t *testing.T, tg *target) {
	for _, c := range golden.Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			r := tg.do(t, "POST", "/v1/"+c.Op, map[string]string{"Content-Type": "application/json"}, bytes.NewReader(c.Request))
			c.Check(t, r.body)
		})
	}
}
