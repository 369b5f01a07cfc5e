package everything

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/invopop/jsonschema"
)

// This file holds the tools whose input schemas matter more than their
// behaviour: one mirrors an argument into an HTTP header, one keeps JSON
// Schema 2020-12 keywords that reflection cannot produce.

// Greet a region. Over Streamable HTTP the region argument is mirrored in the Mcp-Param-Region header (x-mcp-header), and a call whose header and argument disagree is refused.
//
//mcp:tool name=test_custom_header readonly
type CustomHeader struct {
	// The region to greet; also sent as the Mcp-Param-Region header.
	Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
}

// Call greets the region.
func (in CustomHeader) Call(context.Context) (string, error) {
	return fmt.Sprintf("Hello, %s! The Mcp-Param-Region header matched the argument.", in.Region), nil
}

// Describe a contact. The input schema uses JSON Schema 2020-12 keywords ($defs with an $anchor, $ref, allOf, anyOf, if/then/else) and is listed exactly as written.
//
//mcp:tool name=json_schema_2020_12_tool readonly
type JSONSchema202012 struct {
	Name          string   `json:"name,omitempty"`
	Address       *Address `json:"address,omitempty"`
	ContactMethod string   `json:"contactMethod,omitempty"`
	Phone         string   `json:"phone,omitempty"`
	Email         string   `json:"email,omitempty"`
}

// Address is the address of a contact.
type Address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city,omitempty"`
}

// contactSchema is the input schema of json_schema_2020_12_tool, written
// by hand: a phone or an email is required, and the one named by
// contactMethod must be present.
const contactSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "address": {
      "$anchor": "addressDef",
      "type": "object",
      "properties": {
        "street": {"type": "string", "description": "Street and number"},
        "city": {"type": "string", "description": "City"}
      }
    }
  },
  "properties": {
    "name": {"type": "string", "description": "Name of the contact"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"], "description": "How to reach the contact"},
    "phone": {"type": "string", "description": "Phone number"},
    "email": {"type": "string", "description": "Email address"}
  },
  "allOf": [
    {"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}
  ],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`

// JSONSchema gives the generator the hand-written schema instead of the
// one it would reflect from the fields.
func (JSONSchema202012) JSONSchema() *jsonschema.Schema {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(contactSchema), &s); err != nil {
		panic(fmt.Sprintf("contactSchema: %v", err)) // a constant: caught by mcpgen
	}
	return &s
}

// Call describes the contact.
func (in JSONSchema202012) Call(context.Context) (string, error) {
	parts := []string{"Contact " + in.Name}
	if in.Address != nil {
		parts = append(parts, fmt.Sprintf("living at %s, %s", in.Address.Street, in.Address.City))
	}
	switch {
	case in.ContactMethod == "phone" || (in.ContactMethod == "" && in.Phone != ""):
		parts = append(parts, "reachable by phone at "+in.Phone)
	default:
		parts = append(parts, "reachable by email at "+in.Email)
	}
	return strings.Join(parts, ", ") + ".", nil
}
