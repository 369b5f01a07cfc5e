package schemaerror

import (
	"context"
	"strconv"
)

// Celsius writes its own JSON and does not say what it looks like.
type Celsius float64

// MarshalJSON writes "21.5C".
func (c Celsius) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(strconv.FormatFloat(float64(c), 'f', -1, 64) + "C")), nil
}

// UnmarshalJSON reads it back.
func (c *Celsius) UnmarshalJSON(b []byte) error { return nil }

// PtrText declares MarshalText on its pointer only.
type PtrText struct{ V string }

// MarshalText is ignored by encoding/json for a value it cannot address.
func (p *PtrText) MarshalText() ([]byte, error) { return []byte(p.V), nil }

// Tags is full of tag mistakes; each is reported at its field.
//
//mcp:tool readonly
type Tags struct {
	Temp     Celsius  `json:"temp"`                                       // want `Tags.Temp: schemaerror.Celsius has its own JSON form \(UnmarshalJSON\), which mcpgen cannot know\n\tadd a method .*JSONSchema`
	Count    int      `json:"count" jsonschema:"minimum=one,default=ten"` // want `Tags.Count: jsonschema tag: minimum="one" is not a number` `Tags.Count: jsonschema tag: default="ten": not an integer`
	Must     string   `json:"must,omitempty" jsonschema:"required"`       // want `Tags.Must: jsonschema tag: "required" is not a keyword here: required comes from the json tag`
	Typo     string   `json:"typo" jsonschema:"minLenght=1"`              // want `Tags.Typo: jsonschema tag: unknown keyword "minLenght"`
	Wrong    int      `json:"wrong" jsonschema:"minLength=1"`             // want `Tags.Wrong: jsonschema tag: minLength on a field that is an integer in JSON`
	Choice   int      `json:"choice" jsonschema:"enum=1,enum=two"`        // want `Tags.Choice: jsonschema tag: enum="two": not an integer`
	Regex    string   `json:"regex" jsonschema:"pattern=(a"`              // want `Tags.Regex: jsonschema tag: pattern "\(a" does not compile`
	Items    []int    `json:"items" jsonschema:"minItems=-1"`             // want `Tags.Items: jsonschema tag: minItems="-1" is not a non-negative integer`
	BadName  string   `json:"na'me"`                                      // want `Tags.BadName: json name "na'me" is not valid: encoding/json ignores it and uses "BadName"`
	Option   string   `json:"option,omitemtpy"`                           // want `Tags.Option: unknown json tag option "omitemtpy"`
	Nested   Inner    `json:"nested,string"`                              // want `Tags.Nested: json option ,string has no effect on schemaerror.Inner`
	Extra    string   `json:"extra" jsonschema_extras:"header=X"`         // want `Tags.Extra: jsonschema_extras: "header" does not start with x-`
	Examples []string `json:"examples" jsonschema:"example=a"`            // want `Tags.Examples: jsonschema tag: example on a field that is an array in JSON`
	NotNull  string   `json:"notNull" jsonschema:"nullable=false"`        // want `Tags.NotNull: jsonschema tag: nullable=false on a field that cannot be null`
	Null     []string `json:"null" jsonschema:"nullable=true"`            // want `Tags.Null: jsonschema tag: nullable="true": only nullable=false is a keyword`
}

// Inner is a struct, which ",string" does not apply to.
type Inner struct {
	A string `json:"a"`
}

// Call does nothing.
func (Tags) Call(context.Context) (string, error) { return "", nil }

// Reading is a result whose field's MarshalText is on the pointer.
type Reading struct {
	Value PtrText `json:"value"` // want `Reading.Value: schemaerror.PtrText declares MarshalText on \*schemaerror.PtrText, which encoding/json ignores for a value it cannot address`
}

// Read returns a Reading by value.
//
//mcp:tool readonly
type Read struct{}

// Call reads.
func (Read) Call(context.Context) (Reading, error) { return Reading{}, nil }

// Label says, with its JSONSchema method, that its JSON is a string.
type Label struct{ V string }

// JSONSchema describes Label as a string.
func (Label) JSONSchema() map[string]any { return map[string]any{"type": "string"} }

// Labelled returns a Label, which is no JSON object: reported at the
// method whose result it is.
//
//mcp:tool readonly
type Labelled struct{}

// Call labels.
func (Labelled) Call(context.Context) (Label, error) { return Label{}, nil } // want `tool labelled: structured result is a string in JSON, not an object`
