package jsonschema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const messageSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {"message": {"type": "string", "description": "text to echo"}},
  "required": ["message"],
  "additionalProperties": false
}`

const ingestSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {
    "entities": {
      "type": "array",
      "minItems": 1,
      "items": {
        "type": "object",
        "properties": {
          "name": {"type": "string", "minLength": 1},
          "entityType": {"type": "string"},
          "observations": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["name", "entityType", "observations"],
        "additionalProperties": false
      }
    }
  },
  "required": ["entities"],
  "additionalProperties": false
}`

func ingestPayload(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"entities":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"entity-%d","entityType":"person","observations":[`, i)
		for j := range 5 {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"observation number %d about entity %d, with some text"`, j, i)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// graphSchema is the shape of mcp-memory's read_graph result: many small
// objects of short strings, where the cost is per value, not per byte.
const graphSchema = `{
  "type": "object",
  "properties": {
    "entities": {"type": "array", "items": {
      "type": "object",
      "properties": {
        "name": {"type": "string"},
        "entityType": {"type": "string"},
        "observations": {"type": "array", "items": {"type": "string"}}
      },
      "required": ["name", "entityType", "observations"],
      "additionalProperties": false
    }},
    "relations": {"type": "array", "items": {
      "type": "object",
      "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "relationType": {"type": "string"}},
      "required": ["from", "to", "relationType"],
      "additionalProperties": false
    }}
  },
  "required": ["entities", "relations"],
  "additionalProperties": false
}`

// graphPayload is a graph of n entities with three observations each and
// a relation from each entity to the previous one.
func graphPayload(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"entities":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"amber-%d-cobalt","entityType":"person","observations":["created by the benchmark as number %d","tag t%03d","seen in region r%02d"]}`, i, i, i%997, i%53)
	}
	b.WriteString(`],"relations":[`)
	for i := 1; i < n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"from":"amber-%d-cobalt","to":"amber-%d-cobalt","relationType":"follows"}`, i, i-1)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// benchValidate times validating data, which must be valid, against schema.
func benchValidate(b *testing.B, schema string, data []byte) {
	s := MustCompile([]byte(schema))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateGraph10k(b *testing.B) {
	benchValidate(b, graphSchema, graphPayload(10_000))
}

func BenchmarkValidateSmall(b *testing.B) {
	benchValidate(b, messageSchema, []byte(`{"message":"hello"}`))
}

func BenchmarkValidateIngest20(b *testing.B) {
	benchValidate(b, ingestSchema, ingestPayload(20))
}

func TestZeroAllocsOnSuccess(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("coverage and race instrumentation allocate")
	}
	for _, tc := range []struct{ schema, data string }{
		{messageSchema, `{"message":"hello"}`},
		{ingestSchema, string(ingestPayload(20))},
		{diffSchemas[3], `{"s":"a\u0062c","n":-2.5,"i":12345678901234567890,"e":"x","a":["x",true,1],"u":[1,"1",2.5,[1],{"a":1}],"o":9,
			"one":1,"not":1,"all":{"ab":1},"r":{"v":1,"kids":[{"kids":[]}]},"p1":2,"xq":5,"z":"s"}`},
		{diffSchemas[4], `["a",[1,2,3],{"a":1},{}]`},
		{invopopStyle, `{"id":"123e4567-e89b-12d3-a456-426614174000","created":"2024-05-01T10:00:00Z","tags":["a","b"],
			"tree":{"name":"root","children":[{"name":"kid","children":[]}]},"level":"high","count":7,"meta":{"k":"v"},"maybe":null}`},
		{`{"type":"string","format":"email","pattern":"@","enum":["a@b.c","x@y.z"]}`, `"x@y\u002ez"`},
		{`{"required":["a0","a1","a2","a3","a4","a5","a6","a7","a8","a9","b0","b1","b2","b3","b4","b5","b6","b7","b8","b9",
			"c0","c1","c2","c3","c4","c5","c6","c7","c8","c9","d0","d1","d2","d3","d4","d5","d6","d7","d8","d9",
			"e0","e1","e2","e3","e4","e5","e6","e7","e8","e9","f0","f1","f2","f3","f4","f5","f6","f7","f8","f9","g0","g1","g2","g3","g4"]}`,
			`{"a0":0,"a1":0,"a2":0,"a3":0,"a4":0,"a5":0,"a6":0,"a7":0,"a8":0,"a9":0,"b0":0,"b1":0,"b2":0,"b3":0,"b4":0,"b5":0,"b6":0,"b7":0,"b8":0,"b9":0,
			"c0":0,"c1":0,"c2":0,"c3":0,"c4":0,"c5":0,"c6":0,"c7":0,"c8":0,"c9":0,"d0":0,"d1":0,"d2":0,"d3":0,"d4":0,"d5":0,"d6":0,"d7":0,"d8":0,"d9":0,
			"e0":0,"e1":0,"e2":0,"e3":0,"e4":0,"e5":0,"e6":0,"e7":0,"e8":0,"e9":0,"f0":0,"f1":0,"f2":0,"f3":0,"f4":0,"f5":0,"f6":0,"f7":0,"f8":0,"f9":0,
			"g0":0,"g1":0,"g2":0,"g3":0,"g4":0}`},
	} {
		s := MustCompile([]byte(tc.schema))
		data := []byte(tc.data)
		if err := s.Validate(data); err != nil {
			t.Fatalf("Validate(%.60s…): %v", tc.data, err)
		}
		if n := testing.AllocsPerRun(100, func() { _ = s.Validate(data) }); n != 0 {
			t.Errorf("Validate(%.60s…): %v allocs per run, want 0", tc.data, n)
		}
	}
}

func BenchmarkValidateIngest20Invalid(b *testing.B) {
	s := MustCompile([]byte(ingestSchema))
	data := ingestPayload(20)
	data = []byte(strings.Replace(string(data), `"entityType":"person"`, `"entityType":7`, 1))
	b.ReportAllocs()
	for b.Loop() {
		if s.Validate(data) == nil {
			b.Fatal("want error")
		}
	}
}

// Baselines for comparison: syntax check only, and decoding into any.
func BenchmarkJSONValidIngest20(b *testing.B) {
	data := ingestPayload(20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if !json.Valid(data) {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkJSONUnmarshalAnyIngest20(b *testing.B) {
	data := ingestPayload(20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}
