package memory

import (
	"unsafe"

	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// graphRender renders a graph result in both of its wire forms in one pass
// over the entities and relations, as they come from the store: the text
// block (JSON.stringify(graph, null, 2), the reference's) and
// structuredContent (compact JSON). Nothing else holds the graph, so
// read_graph's peak memory is the two renderings plus the response.
type graphRender struct {
	text       prettyAppender
	js         []byte
	nEnt, nRel int
	relations  bool // the entities list is closed
}

// newGraphRender starts a rendering whose structuredContent and text are
// expected to be about jsonSize and textSize bytes.
func newGraphRender(jsonSize, textSize int) *graphRender {
	r := &graphRender{js: make([]byte, 0, max(jsonSize, 4<<10))}
	r.text.b = make([]byte, 0, max(textSize, 6<<10))
	r.text.b = append(r.text.b, "{\n  \"entities\": "...)
	r.js = append(r.js, `{"entities":[`...)
	return r
}

// entity appends one entity; it must come before every relation.
func (r *graphRender) entity(e memstore.Entity) error {
	if r.nEnt == 0 {
		r.text.b = append(r.text.b, '[')
	} else {
		r.text.b = append(r.text.b, ',')
		r.js = append(r.js, ',')
	}
	r.nEnt++
	r.text.newline(2)
	r.text.entity(e, 2)
	r.js = append(r.js, `{"name":`...)
	r.js = appendJSString(r.js, e.Name)
	r.js = append(r.js, `,"entityType":`...)
	r.js = appendJSString(r.js, e.EntityType)
	r.js = append(r.js, `,"observations":[`...)
	for i, o := range e.Observations {
		if i > 0 {
			r.js = append(r.js, ',')
		}
		r.js = appendJSString(r.js, o)
	}
	r.js = append(r.js, "]}"...)
	return nil
}

// closeEntities ends the entities list and opens the relations list.
func (r *graphRender) closeEntities() {
	if r.relations {
		return
	}
	r.relations = true
	if r.nEnt == 0 {
		r.text.b = append(r.text.b, "[]"...)
	} else {
		r.text.newline(1)
		r.text.b = append(r.text.b, ']')
	}
	r.text.b = append(r.text.b, ",\n  \"relations\": "...)
	r.js = append(r.js, `],"relations":[`...)
}

// relation appends one relation.
func (r *graphRender) relation(rel memstore.Relation) error {
	r.closeEntities()
	if r.nRel == 0 {
		r.text.b = append(r.text.b, '[')
	} else {
		r.text.b = append(r.text.b, ',')
		r.js = append(r.js, ',')
	}
	r.nRel++
	r.text.newline(2)
	r.text.relation(rel, 2)
	r.js = append(r.js, `{"from":`...)
	r.js = appendJSString(r.js, rel.From)
	r.js = append(r.js, `,"to":`...)
	r.js = appendJSString(r.js, rel.To)
	r.js = append(r.js, `,"relationType":`...)
	r.js = appendJSString(r.js, rel.RelationType)
	r.js = append(r.js, '}')
	return nil
}

// finish closes both renderings.
func (r *graphRender) finish() {
	r.closeEntities()
	if r.nRel == 0 {
		r.text.b = append(r.text.b, "[]"...)
	} else {
		r.text.newline(1)
		r.text.b = append(r.text.b, ']')
	}
	r.text.b = append(r.text.b, "\n}"...)
	r.js = append(r.js, "]}"...)
}

// renderGraph renders a graph held as values (search_nodes, open_nodes).
func renderGraph(g memstore.Graph) Graph {
	n := graphSize(g)
	r := newGraphRender(n*2/3, n)
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

// ContentText is the text block the reference gives: the graph as
// indented JSON. It shares the rendering's bytes, which never change.
func (g Graph) ContentText() string {
	if g.r == nil {
		return pretty(g.Graph)
	}
	return unsafe.String(unsafe.SliceData(g.r.text.b), len(g.r.text.b))
}

// EncodedJSON is the compact JSON of the graph, rendered with the text:
// the runtime sends it as structuredContent as it is.
func (g Graph) EncodedJSON() []byte {
	if g.r == nil {
		b, _ := g.Graph.MarshalJSON()
		return b
	}
	return g.r.js
}

// MarshalJSON returns EncodedJSON.
func (g Graph) MarshalJSON() ([]byte, error) { return g.EncodedJSON(), nil }
