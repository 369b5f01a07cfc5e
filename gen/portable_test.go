package gen_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// constraining are the keywords that make a schema check something, as
// MCP Inspector's schema lint counts them: a schema object with none of
// them accepts anything.
var constraining = strings.Fields(`type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum
	maxLength minLength pattern format contentMediaType contentEncoding contentSchema maxItems minItems uniqueItems
	maxContains minContains maxProperties minProperties required dependentRequired allOf anyOf oneOf not items
	prefixItems contains additionalItems unevaluatedItems properties patternProperties additionalProperties
	unevaluatedProperties propertyNames dependentSchemas dependencies $ref $dynamicRef $recursiveRef`)

// portabilityProblems applies the rules of MCP Inspector's `--strict`
// tool-schema lint (clients/cli: type-union, remote-ref, boolean-schema,
// untyped-schema) to one schema document: a list of types, which
// single-type clients such as Gemini's function declarations refuse; a
// $ref outside the document; true or false where a schema object is
// expected; a schema object that constrains nothing.
func portabilityProblems(doc any) []string {
	var out []string
	var walk func(v any, at string, keyword string)
	sub := func(m map[string]any, at string) {
		for _, k := range []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"} {
			if mm, ok := m[k].(map[string]any); ok {
				for name, s := range mm {
					walk(s, at+"/"+k+"/"+name, k)
				}
			}
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
			if arr, ok := m[k].([]any); ok {
				for i, s := range arr {
					walk(s, fmt.Sprintf("%s/%s/%d", at, k, i), k)
				}
			}
		}
		for _, k := range []string{"items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"} {
			if s, ok := m[k]; ok {
				walk(s, at+"/"+k, k)
			}
		}
	}
	walk = func(v any, at string, keyword string) {
		switch x := v.(type) {
		case bool:
			switch keyword {
			case "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "items":
				return // a boolean is the usual spelling there
			}
			out = append(out, fmt.Sprintf("%s: boolean schema %v", at, x))
		case map[string]any:
			if _, ok := x["type"].([]any); ok {
				out = append(out, fmt.Sprintf("%s: a list of types %v", at, x["type"]))
			}
			if ref, ok := x["$ref"].(string); ok && !strings.HasPrefix(ref, "#") {
				out = append(out, fmt.Sprintf("%s: remote $ref %s", at, ref))
			}
			constrains := false
			for _, k := range constraining {
				if _, ok := x[k]; ok {
					constrains = true
				}
			}
			if !constrains && keyword != "not" {
				out = append(out, fmt.Sprintf("%s: constrains nothing", at))
			}
			sub(x, at)
		}
	}
	walk(doc, "#", "")
	return out
}

// TestSchemasArePortable checks every schema the generator wrote, of this
// repository's servers and of the golden cases, with the rules of MCP
// Inspector's --strict schema lint: none may warn. (TestInspectorStrict in
// cmd/mcpgen runs the Inspector itself against three servers.)
func TestSchemasArePortable(t *testing.T) {
	var files []string
	for _, root := range []string{"../generated", "testdata/golden"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(p)) == "schemas" && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 50 {
		t.Fatalf("only %d schema files found", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, p := range portabilityProblems(doc) {
			t.Errorf("%s: %s", f, p)
		}
	}
	// The rules find what they look for.
	var bad any
	_ = json.Unmarshal([]byte(`{"type":"object","properties":{"a":{"type":["array","null"]},"b":{"$ref":"https://x/y"},"c":{"description":"x"}}}`), &bad)
	if got := portabilityProblems(bad); len(got) != 3 {
		t.Errorf("problems of a bad schema: %q, want 3", got)
	}
}
