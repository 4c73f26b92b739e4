package playground

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkLoops runs operations whose loops look at the context, on 3000
// sample messages, through Call (context.Background, whose Err is free)
// and through CallContext with a live cancellable context, as the HTTP
// API runs them. Built against a commit without the looks (Call only),
// the Call half measures what they cost.
func BenchmarkLoops(b *testing.B) {
	msgs := strings.TrimSuffix(strings.Repeat(`{"data":"aGVsbG8=","attributes":{"k":"v"}},`, 3000), ",")
	calls := []struct{ name, op, body string }{
		{"filter", "filter", `{"filter":"attributes.k = \"v\"","messages":[` + msgs + `]}`},
		{"names", "names", `{"text":"{\"cloudStorageConfig\":{\"bucket\":\"b\",\"maxMessages\":\"1000\"}}","time":"2026-01-01T00:00:00Z","uuid":"u","messages":[` + msgs + `]}`},
		{"avro", "schema", `{"text":"{\"name\":\"projects/p/subscriptions/s\",\"topic\":\"projects/p/topics/t\",\"cloudStorageConfig\":{\"bucket\":\"b\",\"avroConfig\":{\"writeMetadata\":true}}}","time":"2026-01-01T00:00:00Z","messages":[` + msgs + `]}`},
	}
	for _, c := range calls {
		body := []byte(c.body)
		if _, err := Lookup(c.op).Run(body); err != nil && errorIs(err, CodeNeedsModule) {
			continue // this build does not run it (schema in a noavro build)
		}
		b.Run(c.name+"/Call", func(b *testing.B) {
			for b.Loop() {
				if out, ok := Call(c.op, body); !ok {
					b.Fatalf("%s", out)
				}
			}
		})
		ctx, cancel := context.WithCancel(context.Background())
		b.Run(c.name+"/CallContext", func(b *testing.B) {
			for b.Loop() {
				if out, ok := CallContext(ctx, c.op, body); !ok {
					b.Fatalf("%s", out)
				}
			}
		})
		cancel()
	}
}
