package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// graphRender renders a graph result in both of its wire forms in one pass
// over the entities and relations, as they come from the store:
//
//   - text, the text block (JSON.stringify(graph, null, 2), the
//     reference's), already encoded as the JSON string the answer carries,
//     so that the runtime copies it instead of escaping megabytes again;
//   - js, structuredContent (compact JSON).
//
// A rendering held in memory (renderGraph: search_nodes, open_nodes) is
// sent from these two buffers; they are reused (renders): the runtime
// releases the result (Graph.Release) once the answer has been written
// from them. A streamed rendering (newStreamedRender: read_graph and the
// graph resource) moves the buffers' bytes to spills (textOut, jsOut)
// whenever they hold spillChunk bytes, so the whole graph is never in
// memory: the runtime writes the answer from the spills
// (mcpgen.StreamedText, mcpgen.StreamedJSON), then releases the result,
// and the buffers are reused alike. Each method appends to
// local copies of the buffers and stores them back once: appending to a
// heap field directly costs a GC write barrier per append while a
// collection runs.
type graphRender struct {
	text, js   []byte
	nEnt, nRel int
	relations  bool // the entities list is closed

	textOut, jsOut *mcpgen.Spill // streamed: where the renderings go
	textOnly       bool          // streamed text alone (the resource): js is not kept
}

// A streamed rendering moves its bytes to its spills in chunks of
// spillChunk; a spill keeps up to spillMemory bytes in memory (pooled
// chunks) before it moves to a temporary file, so that a graph of up to
// ~10,000 entities costs no file: writing the answer to a file and reading
// it back took ~40% of read_graph's CPU there (docs/bench/log.md, item
// 63). A larger graph holds up to twice spillMemory while it renders.
const spillChunk = 256 << 10

var spillMemory = 4 << 20 // a variable for the tests

// The fixed parts of the text block, escaped once: the layout of
// JSON.stringify(graph, null, 2), with entities and relations at depth 2.
var (
	tOpen       = encodedText("{\n  \"entities\": ")
	tEntity     = encodedText("\n    {\n      \"name\": ")
	tEntityType = encodedText(",\n      \"entityType\": ")
	tObs        = encodedText(",\n      \"observations\": ")
	tObsItem    = encodedText("\n        ")
	tObsClose   = encodedText("\n      ]")
	tItemClose  = encodedText("\n    }")
	tListClose  = encodedText("\n  ]")
	tRelations  = encodedText(",\n  \"relations\": ")
	tFrom       = encodedText("\n    {\n      \"from\": ")
	tTo         = encodedText(",\n      \"to\": ")
	tRelType    = encodedText(",\n      \"relationType\": ")
	tClose      = encodedText("\n}")
)

// encodedText is s as it appears inside a JSON string (no quotes).
func encodedText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// renders holds released renderings, for their buffers; streamedRenders
// the streamed ones, apart, so that their chunk buffers (spillChunk) are
// not held by the small renderings of search_nodes and open_nodes.
var (
	renders         = sync.Pool{New: func() any { return new(graphRender) }}
	streamedRenders = sync.Pool{New: func() any { return new(graphRender) }}
)

// newGraphRender starts a rendering whose structuredContent and text are
// expected to be about jsonSize and textSize bytes.
func newGraphRender(jsonSize, textSize int) *graphRender {
	r := renders.Get().(*graphRender)
	*r = graphRender{
		text: slices.Grow(r.text[:0], max(textSize, 6<<10)),
		js:   slices.Grow(r.js[:0], max(jsonSize, 4<<10)),
	}
	r.text = append(append(r.text, '"'), tOpen...)
	r.js = append(r.js, `{"entities":[`...)
	return r
}

// newStreamedRender starts a rendering into spills: of both forms, or of
// the text alone when textOnly is set.
func newStreamedRender(textOnly bool) *graphRender {
	r := streamedRenders.Get().(*graphRender)
	*r = graphRender{
		text:     slices.Grow(r.text[:0], spillChunk+8<<10),
		js:       r.js[:0],
		textOut:  mcpgen.NewSpill(spillMemory),
		textOnly: textOnly,
	}
	if !textOnly {
		r.js = slices.Grow(r.js, spillChunk+8<<10)
		r.jsOut = mcpgen.NewSpill(spillMemory)
	}
	r.text = append(append(r.text, '"'), tOpen...)
	r.js = append(r.js, `{"entities":[`...)
	return r
}

// streamGraph renders the whole graph of store in one walk into spills
// (both forms, or the text alone when textOnly is set), for the runtime
// to stream the answer from; a store failing mid-walk fails the call
// before anything is sent.
func streamGraph(ctx context.Context, store memstore.Store, textOnly bool) (Graph, error) {
	r := newStreamedRender(textOnly)
	err := store.WalkGraph(ctx, r.entity, r.relation)
	if err == nil {
		err = r.end()
	}
	if err != nil {
		r.close()
		return Graph{}, err
	}
	return Graph{r: r}, nil
}

// spillSome moves a streamed rendering's buffers to its spills once they
// hold spillChunk bytes.
func (r *graphRender) spillSome() error {
	if r.textOut == nil || len(r.text)+len(r.js) < spillChunk {
		return nil
	}
	return r.spillAll()
}

// spillAll moves the buffers' bytes to the spills (a text-only
// rendering's js is dropped).
func (r *graphRender) spillAll() error {
	if _, err := r.textOut.Write(r.text); err != nil {
		return err
	}
	if r.jsOut != nil {
		if _, err := r.jsOut.Write(r.js); err != nil {
			return err
		}
	}
	r.text, r.js = r.text[:0], r.js[:0]
	return nil
}

// end finishes a streamed rendering: the rest goes to the spills.
func (r *graphRender) end() error {
	r.finish()
	return r.spillAll()
}

// close gives a streamed rendering's spills back (idempotent).
func (r *graphRender) close() {
	r.textOut.Close()
	if r.jsOut != nil {
		r.jsOut.Close()
	}
}

// textString appends s as JSON.stringify writes it, encoded once more as
// the inside of a JSON string.
func textString(b []byte, s string) []byte {
	b = append(b, `\"`...)
	b = appendEscaped(b, s, &inTextEscapes)
	return append(b, `\"`...)
}

// nextItem starts an item of a list that holds n items so far, in both
// renderings (structuredContent's list is opened with its key).
func nextItem(t, j []byte, n int) ([]byte, []byte) {
	if n == 0 {
		return append(t, '['), j
	}
	return append(t, ','), append(j, ',')
}

// closeList ends a list of the text block that holds n items.
func closeList(t []byte, n int) []byte {
	if n == 0 {
		return append(t, "[]"...)
	}
	return append(t, tListClose...)
}

// entity appends one entity; it must come before every relation.
func (r *graphRender) entity(e memstore.Entity) error {
	if r.textOnly {
		return r.entityText(e)
	}
	t, j := nextItem(r.text, r.js, r.nEnt)
	r.nEnt++
	t = append(t, tEntity...)
	j = append(j, `{"name":`...)
	t, j = bothStrings(t, j, e.Name)
	t = append(t, tEntityType...)
	j = append(j, `,"entityType":`...)
	t, j = bothStrings(t, j, e.EntityType)
	t = append(t, tObs...)
	j = append(j, `,"observations":[`...)
	if len(e.Observations) == 0 {
		t = append(t, "[]"...)
	} else {
		t = append(t, '[')
		for i, o := range e.Observations {
			if i > 0 {
				t, j = append(t, ','), append(j, ',')
			}
			t = append(t, tObsItem...)
			t, j = bothStrings(t, j, o)
		}
		t = append(t, tObsClose...)
	}
	t = append(t, tItemClose...)
	j = append(j, "]}"...)
	r.text, r.js = t, j
	return r.spillSome()
}

// entityText appends one entity to a text-only rendering.
func (r *graphRender) entityText(e memstore.Entity) error {
	t, _ := nextItem(r.text, nil, r.nEnt)
	r.nEnt++
	t = append(t, tEntity...)
	t = textString(t, e.Name)
	t = append(t, tEntityType...)
	t = textString(t, e.EntityType)
	t = append(t, tObs...)
	if len(e.Observations) == 0 {
		t = append(t, "[]"...)
	} else {
		t = append(t, '[')
		for i, o := range e.Observations {
			if i > 0 {
				t = append(t, ',')
			}
			t = append(t, tObsItem...)
			t = textString(t, o)
		}
		t = append(t, tObsClose...)
	}
	r.text = append(t, tItemClose...)
	return r.spillSome()
}

// bothStrings appends s to the text block (textString) and to
// structuredContent (appendJSString). A string with nothing to escape in
// either (no quote, backslash, control or non-ASCII byte: most names and
// observations) is looked at once and copied to both.
func bothStrings(t, j []byte, s string) ([]byte, []byte) {
	if nextLook(s, 0) < len(s) {
		return textString(t, s), appendJSString(j, s)
	}
	t = append(append(append(t, `\"`...), s...), `\"`...)
	j = append(append(append(j, '"'), s...), '"')
	return t, j
}

// closeEntities ends the entities list and opens the relations list.
func (r *graphRender) closeEntities() {
	if r.relations {
		return
	}
	r.relations = true
	r.text = append(closeList(r.text, r.nEnt), tRelations...)
	r.js = append(r.js, `],"relations":[`...)
}

// relation appends one relation.
func (r *graphRender) relation(rel memstore.Relation) error {
	r.closeEntities()
	t, j := nextItem(r.text, r.js, r.nRel)
	r.nRel++
	if r.textOnly {
		t = append(t, tFrom...)
		t = textString(t, rel.From)
		t = append(t, tTo...)
		t = textString(t, rel.To)
		t = append(t, tRelType...)
		t = textString(t, rel.RelationType)
		r.text, r.js = append(t, tItemClose...), j[:0]
		return r.spillSome()
	}
	t = append(t, tFrom...)
	j = append(j, `{"from":`...)
	t, j = bothStrings(t, j, rel.From)
	t = append(t, tTo...)
	j = append(j, `,"to":`...)
	t, j = bothStrings(t, j, rel.To)
	t = append(t, tRelType...)
	j = append(j, `,"relationType":`...)
	t, j = bothStrings(t, j, rel.RelationType)
	r.text, r.js = append(t, tItemClose...), append(j, '}')
	return r.spillSome()
}

// finish closes both renderings.
func (r *graphRender) finish() {
	r.closeEntities()
	r.text = append(append(closeList(r.text, r.nRel), tClose...), '"')
	r.js = append(r.js, "]}"...)
}

// renderGraph renders a graph held as values (search_nodes, open_nodes).
func renderGraph(g memstore.Graph) Graph {
	n := graphSize(g)
	r := newGraphRender(n*2/3, n+n/4)
	for _, e := range g.Entities {
		r.entity(e)
	}
	for _, rel := range g.Relations {
		r.relation(rel)
	}
	r.finish()
	return Graph{r: r}
}

// Graph is a graph result of the read tools, rendered once (see
// graphRender). Its embedded memstore.Graph gives the output schema its
// shape; the values themselves are not kept.
type Graph struct {
	memstore.Graph
	r *graphRender
}

// rendered is g's rendering, made now for a Graph built from values, or
// read back from its spills.
func (g Graph) rendered() *graphRender {
	switch {
	case g.r == nil:
		return renderGraph(g.Graph).r
	case g.r.textOut != nil:
		text, _ := g.r.textOut.Bytes()
		if g.r.jsOut != nil {
			js, _ := g.r.jsOut.Bytes()
			return &graphRender{text: text, js: js}
		}
		// Text only (the resource): the JSON is the text, decoded and
		// compacted.
		var s string
		var js bytes.Buffer
		if json.Unmarshal(text, &s) != nil || json.Compact(&js, []byte(s)) != nil {
			return renderGraph(memstore.Graph{}).r
		}
		return &graphRender{text: text, js: js.Bytes()}
	}
	return g.r
}

// StreamedText is the text block of a streamed Graph (read_graph, and the
// text of memory://knowledge-graph), for the runtime to send from where
// it lies; nil for any other Graph.
func (g Graph) StreamedText() mcpgen.Body {
	if g.r == nil || g.r.textOut == nil {
		return nil
	}
	return g.r.textOut
}

// StreamedJSON is the structuredContent of a streamed Graph; nil for any
// other Graph, and for the resource's, which is text alone.
func (g Graph) StreamedJSON() mcpgen.Body {
	if g.r == nil || g.r.jsOut == nil {
		return nil
	}
	return g.r.jsOut
}

// EncodedText is the text block the reference gives, the graph as
// indented JSON, encoded as a JSON string: the runtime sends it as it is.
func (g Graph) EncodedText() []byte { return g.rendered().text }

// EncodedJSON is the compact JSON of the graph, rendered with the text:
// the runtime sends it as structuredContent as it is.
func (g Graph) EncodedJSON() []byte { return g.rendered().js }

// MarshalJSON returns EncodedJSON.
func (g Graph) MarshalJSON() ([]byte, error) { return g.EncodedJSON(), nil }

// Release gives the rendering's buffers back for reuse; the runtime calls
// it once the answer has been written from them. g must not be used after.
func (g Graph) Release() {
	switch {
	case g.r == nil:
	case g.r.textOut != nil:
		g.r.close()
		g.r.textOut, g.r.jsOut = nil, nil
		streamedRenders.Put(g.r)
	default:
		renders.Put(g.r)
	}
}
