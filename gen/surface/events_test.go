package surface

import (
	"encoding/json"
	"strings"
	"testing"
)

// baseEvents is the event of base(): note.changed, filtered by kind,
// needing notes:read.
func baseEvents() []Event {
	return []Event{{
		Name: "note.changed", Description: "A note changed.", Scope: "notes:read",
		InputSchema:   json.RawMessage(`{"type":"object","properties":{"kind":{"type":"string"}},"additionalProperties":false}`),
		PayloadSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"change":{"type":"string","enum":["created","deleted"]}},"required":["id","change"],"additionalProperties":false}`),
	}}
}

// The rules of the events extension, as cases of TestEachRuleBothWays.
func init() {
	cases = append(cases, []struct {
		rule    string
		edit    func(*Surface)
		field   string
		reverse string
	}{
		{"event-removed", func(s *Surface) { s.Events = nil }, "", "added"},
		{"event-removed", func(s *Surface) { s.Events[0].Name = "note.updated" }, "", "event-removed"},
		{"event-scope-changed", func(s *Surface) { s.Events[0].Scope = "notes:admin" }, "", "event-scope-changed"},
		{"output-property-removed", func(s *Surface) {
			s.Events[0].PayloadSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`)
		}, "change", "output-property-added"},
		{"input-property-removed", func(s *Surface) {
			s.Events[0].InputSchema = json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
		}, "kind", "input-widened"},
	}...)
}

// TestEventMessages checks what `mcpgen breaking` says of a narrowed
// payload, and that it asks for a major version.
func TestEventMessages(t *testing.T) {
	new := base()
	new.Events[0].PayloadSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"change":{"type":"string","enum":["created","deleted","moved"]}},"required":["id","change"],"additionalProperties":false}`)
	var got []string
	for _, c := range Compare(base(), new) {
		got = append(got, c.String()+" ("+c.Rule+")")
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "event note.changed: ") || !strings.Contains(got[0], "output-enum-widened") {
		t.Errorf("changes: %v", got)
	}
	if Bump(Compare(base(), new)) != "major" {
		t.Error("a payload that may hold a new value is not a major change")
	}
}
