// Package results is a golden case: one tool for every result kind a tool
// handler may return (text, structured object, structured map, content
// blocks, raw result) and an error turned into isError.
//
//mcp:server name=results version=1.0.0
package results

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// Shout returns its text in capitals: a text result.
//
//mcp:tool readonly
type Shout struct {
	// The text to shout.
	Text string `json:"text" jsonschema:"minLength=1,maxLength=200"`
	// How many exclamation marks to add.
	Bangs int `json:"bangs,omitempty" jsonschema:"minimum=0,maximum=5,default=1"`
}

// Call shouts; an empty shout is an error the model sees.
func (in Shout) Call(ctx context.Context) (string, error) {
	if strings.TrimSpace(in.Text) == "" {
		return "", errors.New("nothing to shout")
	}
	return strings.ToUpper(in.Text) + strings.Repeat("!", in.Bangs), nil
}

// Measure reports statistics about a list of numbers: a structured result.
//
//mcp:tool readonly
type Measure struct {
	// The numbers to measure.
	Values []float64 `json:"values" jsonschema:"minItems=1,maxItems=1000"`
	// Unit of the numbers.
	Unit string `json:"unit,omitempty" jsonschema:"enum=m,enum=s,enum=kg"`
}

// Stats is the structured result of Measure.
type Stats struct {
	// Number of values.
	Count int `json:"count"`
	// Arithmetic mean.
	Mean     float64 `json:"mean"`
	Min, Max float64
	Unit     string    `json:"unit,omitempty"`
	Sorted   []float64 `json:"sorted"`
	// Sum of the values, exactly as computed.
	Total json.Number `json:"total"`
}

// Call computes the statistics.
func (in Measure) Call(ctx context.Context) (*Stats, error) {
	s := &Stats{Count: len(in.Values), Unit: in.Unit, Sorted: append([]float64(nil), in.Values...)}
	sort.Float64s(s.Sorted)
	for _, v := range in.Values {
		s.Mean += v / float64(len(in.Values))
	}
	s.Min, s.Max = s.Sorted[0], s.Sorted[len(s.Sorted)-1]
	s.Total = json.Number(strconv.FormatFloat(s.Mean*float64(s.Count), 'g', -1, 64))
	return s, nil
}

// Tally counts the words of a text: a structured map result.
//
//mcp:tool readonly
type Tally struct {
	Text string `json:"text"`
}

// Call counts.
func (in Tally) Call(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	for _, w := range strings.Fields(in.Text) {
		out[strings.ToLower(w)]++
	}
	return out, nil
}

// Picture returns content blocks: a caption and an image.
//
//mcp:tool readonly
type Picture struct{}

// Call returns the blocks.
func (Picture) Call(ctx context.Context) ([]mcpgen.Content, error) {
	return []mcpgen.Content{
		mcpgen.TextContent("a red dot"),
		{Type: "image", MimeType: "image/png", Data: "iVBORw0KGgo="},
	}, nil
}

// Lookup builds its whole result itself: a raw result.
//
//mcp:tool readonly
type Lookup struct {
	// The key to look up.
	Key string `json:"key" jsonschema:"pattern=^[a-z]+$"`
}

// Call answers with isError set for unknown keys.
func (in *Lookup) Call(ctx context.Context) (*mcpgen.CallToolResult, error) {
	if in.Key != "known" {
		return &mcpgen.CallToolResult{Content: []mcpgen.Content{mcpgen.TextContent("no such key: " + in.Key)}, IsError: true}, nil
	}
	return &mcpgen.CallToolResult{Content: []mcpgen.Content{mcpgen.TextContent("found " + in.Key)}}, nil
}

// Forget removes a fact and says so in words.
//
//mcp:tool destructive
type Forget struct {
	// The fact to forget.
	Fact string `json:"fact"`
}

// Forgotten is the structured result of Forget; its ContentText is the
// text block.
type Forgotten struct {
	Fact string `json:"fact"`
	Gone bool   `json:"gone"`
}

// ContentText renders the result as a sentence.
func (f Forgotten) ContentText() string { return "Forgot " + f.Fact + "." }

// Call forgets the fact.
func (in Forget) Call(ctx context.Context) (Forgotten, error) {
	return Forgotten{Fact: in.Fact, Gone: true}, nil
}
