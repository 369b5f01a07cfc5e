package surface

import "encoding/json"

// Event is one event of the events extension (io.modelcontextprotocol/
// events): the schema of its subscription arguments (InputSchema) and of
// the data of each occurrence (PayloadSchema), and the OAuth scope a
// subscriber needs.
type Event struct {
	Name          string          `json:"name"`
	Title         string          `json:"title,omitempty"`
	Description   string          `json:"description,omitempty"`
	InputSchema   json.RawMessage `json:"inputSchema"`
	PayloadSchema json.RawMessage `json:"payloadSchema"`
	Scope         string          `json:"scope,omitempty"`
}

// event compares two versions of an event. Subscribers send arguments
// (an input: what they sent must stay valid) and receive payloads (an
// output: what they read must stay there, with its type); a removed or
// renamed event strands every subscription to it.
func (d *differ) event(o, n Event) {
	d.described(o.Title, n.Title, o.Description, n.Description)
	if n.Scope != "" && n.Scope != o.Scope {
		d.add("event-scope-changed", "", false, "now needs scope %q (was %q)", n.Scope, o.Scope)
	} else if o.Scope != n.Scope {
		d.add("annotations-changed", "", false, "no longer needs scope %q", o.Scope)
	}
	d.input("", load(o.InputSchema), load(n.InputSchema))
	d.output("", load(o.PayloadSchema), load(n.PayloadSchema))
}
