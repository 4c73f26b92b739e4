package protoschema

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/subplay/subplay/core/diag"
	"github.com/subplay/subplay/core/diag/diagtest"
)

const orderProto = `syntax = "proto3";
package shop.v1;

import "google/protobuf/timestamp.proto"; // not followed

option go_package = "example.com/shop";

// An order.
message Order {
  string id = 1;
  optional double amount = 2 [deprecated = true];
  repeated Item items = 3;
  map<string, int64> counts = 4;
  Status status = 5;
  oneof payment {
    string card = 6;
    bytes token = 7;
  }
  message Item {
    string sku = 1;
    .shop.v1.Order.Status state = 2;
  }
  enum Status {
    option allow_alias = true;
    UNKNOWN = 0;
    PAID = 1 [(custom) = "x"];
  }
  reserved 8, 9 to 11;
  reserved "old";
}

service Shop { rpc Get(Order) returns (Order); }
`

func TestParse(t *testing.T) {
	f, ds := Parse(orderProto)
	var codes []string
	for _, d := range ds {
		codes = append(codes, d.Code)
	}
	if strings.Join(codes, ",") != "proto-import" {
		t.Fatalf("diagnostics %v", ds)
	}
	if f.Syntax != "proto3" || f.Package != "shop.v1" || len(f.Messages) != 1 {
		t.Fatalf("file %+v", f)
	}
	root := f.Root()
	if root.FullName() != "shop.v1.Order" {
		t.Errorf("root %q", root.FullName())
	}
	got := []string{}
	for _, fl := range root.Fields {
		s := fl.Name + ":" + fl.Type + ":" + strconv.Itoa(int(fl.Label)) + ":" + fl.Oneof
		if fl.IsMap() {
			s += ":map<" + fl.MapKey + ">"
		}
		if fl.Message != nil {
			s += ":msg=" + fl.Message.FullName()
		}
		if fl.Enum != nil {
			s += ":enum=" + fl.Enum.FullName()
		}
		got = append(got, s)
	}
	want := []string{
		"id:string:0:", "amount:double:1:", "items:Item:3::msg=shop.v1.Order.Item",
		"counts:int64:3::map<string>", "status:Status:0::enum=shop.v1.Order.Status",
		"card:string:0:payment", "token:bytes:0:payment",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fields\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	item := root.Messages[0]
	if item.Fields[1].Enum == nil || item.Fields[1].Enum.Name != "Status" {
		t.Errorf("a fully qualified name did not resolve: %+v", item.Fields[1])
	}
	if vals := root.Enums[0].Values; strings.Join(vals, ",") != "UNKNOWN,PAID" {
		t.Errorf("enum values %v", vals)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // "code offset"
	}{
		{"unknown type", "syntax = \"proto3\";\nmessage M { Missing x = 1; }", "proto-unknown-type 31"},
		{"proto2 needs labels", "message M { string x = 1; }", "proto-syntax 12"},
		{"missing semicolon", "syntax = \"proto3\"; message M { string x = 1 }", "proto-syntax 44"},
		{"unclosed message", "syntax = \"proto3\"; message M { string x = 1;", "proto-syntax 44"},
		{"unclosed comment", "/* x", "proto-syntax 0"},
		{"unclosed string", "syntax = \"proto3", "proto-syntax 9"},
		{"field number zero", "syntax = \"proto3\"; message M { string x = 0; }", "proto-field-number 42"},
		{"reserved field number", "syntax = \"proto3\"; message M { string x = 19000; }", "proto-field-number 42"},
		{"duplicate field name", "syntax = \"proto3\"; message M { string x = 1; int32 x = 2; }", "proto-duplicate-field 51"},
		{"duplicate field number", "syntax = \"proto3\"; message M { string x = 1; int32 y = 1; }", "proto-duplicate-field 55"},
		{"duplicate message", "syntax = \"proto3\"; message M {} message M {}", "proto-duplicate-type 40"},
		{"bad map key", "syntax = \"proto3\"; message M { map<double, string> m = 1; }", "proto-syntax 35"},
		{"unknown syntax", "syntax = \"proto4\";", "proto-syntax 9"},
		{"group", "message M { optional group G = 1 {} }", "proto-syntax 21"},
		{"empty enum", "syntax = \"proto3\"; enum E {}", "proto-enum-empty 24"},
		{"stray symbol", "syntax = \"proto3\"; }", "proto-syntax 19"},
		{"reference chain too deep", chain(100), "proto-depth " + strconv.Itoa(strings.Index(chain(100), "C64 next")+4)},
		{"package too long", "syntax = \"proto3\"; package " + strings.Repeat("p.", 70) + "q;", "proto-syntax 27"},
		{"no package part in a relative name", "syntax = \"proto3\"; package a.b; message M { b.c.M m = 1; }", "proto-unknown-type 44"},
		{"duplicate nested message", "syntax = \"proto3\"; message M { message N {} message N {} }", "proto-duplicate-type 52"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := Parse(tc.text)
			if len(ds) == 0 {
				t.Fatal("no diagnostics")
			}
			got := ds[0].Code + " " + strconv.Itoa(ds[0].Span.Start.Offset())
			if got != tc.want {
				t.Errorf("got %s (%s), want %s", got, ds[0].Message, tc.want)
			}
		})
	}
}

// chain is n messages, each holding the next.
func chain(n int) string {
	var b strings.Builder
	b.WriteString("syntax = \"proto3\";\n")
	for i := range n {
		b.WriteString("message C" + strconv.Itoa(i) + " { C" + strconv.Itoa(i+1) + " next = 1; }\n")
	}
	b.WriteString("message C" + strconv.Itoa(n) + " { string end = 1; }\n")
	return b.String()
}

func TestResolveScopes(t *testing.T) {
	text := `syntax = "proto3"; package a.b;
message M { b.M self = 1; a.b.M.N n = 2; N n2 = 3; .a.b.E e = 4; M.N.O o = 5; message N { message O {} } }
enum E { X = 0; }`
	f, ds := Parse(text)
	if len(ds) > 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	m := f.Root()
	want := []string{"a.b.M", "a.b.M.N", "a.b.M.N", "a.b.E", "a.b.M.N.O"}
	for i, fl := range m.Fields {
		got := ""
		if fl.Message != nil {
			got = fl.Message.FullName()
		} else if fl.Enum != nil {
			got = fl.Enum.FullName()
		}
		if got != want[i] {
			t.Errorf("field %s resolved to %q, want %q", fl.Name, got, want[i])
		}
	}
}

func TestChainWithinDepth(t *testing.T) {
	if _, ds := Parse(chain(60)); len(ds) > 0 {
		t.Errorf("a chain 61 messages deep: %v", ds)
	}
}

func TestDeepNesting(t *testing.T) {
	text := "syntax = \"proto3\";" + strings.Repeat("message M {", 200) + strings.Repeat("}", 200)
	_, ds := Parse(text)
	if !diag.HasErrors(ds) {
		t.Fatal("no error for nesting 200 deep")
	}
}

// TestLongTextHoldsNoTokens checks that the parser lexes as it goes: a
// text of 200,000 "{" (the hostile corpus's schema-depth/proto-option-brackets)
// is refused at the bracket past the bound, and what parsing it allocates
// does not grow with the text. Lexed all at once first, its 200,000
// tokens (40 bytes each, in a slice grown as it filled) took 44 MB.
func TestLongTextHoldsNoTokens(t *testing.T) {
	head := "syntax = \"proto3\";\noption x = "
	text := head + strings.Repeat("{", 200_000) + ";\nmessage A { int64 a = 1; }"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, ds := Parse(text)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	want := diag.SpanOf(len(head)+maxDepth, len(head)+maxDepth+1) // the first "{" past maxDepth deep
	if len(ds) != 1 || ds[0].Message != "brackets are nested too deep" || ds[0].Span != want {
		t.Fatalf("diagnostics %+v, want one at %+v", ds, want)
	}
	if allocated > 64<<10 {
		t.Errorf("parsing a %d-byte text allocated %d bytes, want at most 64 KiB", len(text), allocated)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(orderProto)
	for _, s := range []string{
		`syntax = "proto2"; message M { required int32 a = 1; optional string b = 2 [default = "x"]; repeated M c = 3; }`,
		`edition = "2023"; message M { int32 a = 1; }`,
		`syntax = "proto3"; message M { oneof o { string a = 1; } map<int32, M> m = 2; enum E { A = 0; } E e = 3; }`,
		`syntax = "proto3"; message A { B b = 1; } message B { A a = 1; }`,
		`syntax = "proto3"; message M { reserved 1 to max; extensions 100 to 199; } extend M { int32 x = 100; }`,
		`/* c */ // d` + "\n" + `syntax = 'proto3'; package a.b.c; option (x).y = { a: 1 };`,
		`message`, `syntax = "proto3"; message M { map<`, "\x00", `"`,
		chain(70), chain(3), `syntax = "proto3"; package a.b.c; message M { .a.b.c.M m = 1; c.M n = 2; b.c.M o = 3; }`,
		`syntax = "proto3"; message A { message B { message C { A a = 1; B b = 2; C c = 3; } } A.B.C x = 1; }`,
		`syntax = "proto3"; message M { int64 a = 536870911; int64 b = 99999999999999999999; int64 a = 1; int64 c = 1; }`,
		`syntax = "proto3"; option (x) = {a: [1, {b: {c: [2]}}]}; import public "x.proto"; message M { int32 a = 1 [(y) = {z: 1}]; }`,
		"syntax = \"proto3\";" + strings.Repeat("message M {", 70) + strings.Repeat("}", 70),
		`syntax = "proto3"; package ` + strings.Repeat("p.", 70) + `q;`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		file, ds := Parse(text)
		for _, d := range ds {
			if p := diagtest.Problem(text, d); p != "" {
				t.Fatalf("diagnostic %s: %s: %+v", d.Code, p, d)
			}
			if len(d.Message) > 1000+len(text) {
				t.Fatalf("a message longer than the text: %d bytes", len(d.Message))
			}
		}
		if !diag.HasErrors(ds) && file == nil {
			t.Fatal("no file and no errors")
		}
	})
}
