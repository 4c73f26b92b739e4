//go:build !noudf

package transform

import (
	"fmt"
	"testing"
	"time"

	"github.com/subplay/subplay/core/message"
)

// BenchmarkRedact100 is one request of the Transforms panel: a redact UDF
// (Google's published samples' style) compiled, its top-level code run,
// and 100 sample messages through it. The budget is 20 ms in the page's
// worker; natively and as js/wasm in Node it is measured with
// go test -bench Redact100 (GOOS=js GOARCH=wasm for the
// second).
func BenchmarkRedact100(b *testing.B) {
	udf := UDF{FunctionName: "redact", Code: `function redact(message, metadata) {
  const data = JSON.parse(message.data);
  delete data.ssn;
  data.email = data.email.replace(/^[^@]+/, "***");
  return {data: JSON.stringify(data), attributes: message.attributes};
}`}
	msgs := make([]message.Message, 100)
	for i := range msgs {
		msgs[i] = message.Message{Data: []byte(fmt.Sprintf(`{"id":%d,"name":"user %d","email":"user%d@example.com","ssn":"123-45-%04d"}`, i, i, i, i)),
			Attributes: map[string]string{"source": "web"}, MessageID: fmt.Sprint(i), PublishTime: "2026-01-02T03:04:05Z"}
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for b.Loop() {
		p, err := Compile([]UDF{udf}, Options{Now: now})
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range msgs {
			if st := p.Run(m); st[0].Outcome != Changed {
				b.Fatalf("outcome %s: %v", st[0].Outcome, st[0].Diagnostics)
			}
		}
		p.Close()
	}
}
