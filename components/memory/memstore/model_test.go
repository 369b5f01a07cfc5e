package memstore

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// op is one tool call of a random scenario, in the shape the reference
// driver script (reference_test.go) reads.
type op struct {
	Op  string `json:"op"`
	Arg any    `json:"arg"`
}

var (
	namePool  = []string{"A", "a", "Alice", "ΑΣ", "Σ", "İzmir", "i\u0307zmir", "", " ", "e\u0301", "é", "🧠", "x\x00y", `"q"`, "line\nbreak", "\u2028", "ß", "SS"}
	typePool  = []string{"person", "PERSON", "org", "", "Σ"}
	wordAlpha = []string{"a", "A", "Σ", "ς", "İ", "i", "ß", "é", " ", "'", "\n", "\x00", "<"}
)

// genOps returns n random operations. With noBatchDups, no single call
// repeats an entity name, an observation or a relation (the cases where we
// deliberately differ from the reference).
func genOps(rng *rand.Rand, n int, noBatchDups bool) []op {
	pick := func(pool []string) string { return pool[rng.IntN(len(pool))] }
	word := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(3) {
			b.WriteString(pick(wordAlpha))
		}
		return b.String()
	}
	words := func(max int) []string {
		out := []string{}
		seen := map[string]bool{}
		for range rng.IntN(max + 1) {
			w := word()
			if noBatchDups && seen[w] {
				continue
			}
			seen[w] = true
			out = append(out, w)
		}
		return out
	}
	distinctNames := func(max int, pool []string) []string {
		out := []string{}
		seen := map[string]bool{}
		for range rng.IntN(max + 1) {
			n := pick(pool)
			if noBatchDups && seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
		}
		return out
	}
	rels := func(max int) []Relation {
		out := []Relation{}
		seen := map[Relation]bool{}
		for range 1 + rng.IntN(max) {
			r := Relation{pick(namePool), pick(namePool), pick([]string{"knows", "KNOWS", "σ"})}
			if noBatchDups && seen[r] {
				continue
			}
			seen[r] = true
			out = append(out, r)
		}
		return out
	}
	var ops []op
	for range n {
		switch k := rng.IntN(20); {
		case k < 4:
			var es []Entity
			for _, name := range distinctNames(4, namePool) {
				es = append(es, Entity{Name: name, EntityType: pick(typePool), Observations: words(3)})
			}
			if es == nil {
				es = []Entity{}
			}
			ops = append(ops, op{"create_entities", es})
		case k < 7:
			ops = append(ops, op{"create_relations", rels(4)})
		case k < 10:
			var adds []ObservationAdd
			for range 1 + rng.IntN(3) {
				adds = append(adds, ObservationAdd{EntityName: pick(namePool), Contents: words(3)})
			}
			ops = append(ops, op{"add_observations", adds})
		case k < 11:
			ops = append(ops, op{"delete_entities", distinctNames(2, namePool)})
		case k < 13:
			var ds []ObservationDelete
			for range 1 + rng.IntN(2) {
				ds = append(ds, ObservationDelete{EntityName: pick(namePool), Observations: words(3)})
			}
			ops = append(ops, op{"delete_observations", ds})
		case k < 14:
			ops = append(ops, op{"delete_relations", rels(2)})
		case k < 17:
			q := ""
			if rng.IntN(10) > 0 {
				q = word()
			}
			ops = append(ops, op{"search_nodes", q})
		case k < 19:
			ops = append(ops, op{"open_nodes", distinctNames(3, namePool)})
		default:
			ops = append(ops, op{"read_graph", nil})
		}
	}
	return ops
}

// result is what one op returned: Ok holds the JSON of the value (null for
// the delete tools), Err the error message.
type result struct {
	Ok  json.RawMessage `json:"ok"`
	Err string          `json:"err"`
}

// applyStore runs op against a Store and returns its result, normalized by
// decoding it like a reference result.
func applyStore(s Store, o op) result {
	var v any
	var err error
	switch o.Op {
	case "create_entities":
		v, err = s.CreateEntities(bg, o.Arg.([]Entity))
	case "create_relations":
		v, err = s.CreateRelations(bg, o.Arg.([]Relation))
	case "add_observations":
		v, err = s.AddObservations(bg, o.Arg.([]ObservationAdd))
	case "delete_entities":
		err = s.DeleteEntities(bg, o.Arg.([]string))
	case "delete_observations":
		err = s.DeleteObservations(bg, o.Arg.([]ObservationDelete))
	case "delete_relations":
		err = s.DeleteRelations(bg, o.Arg.([]Relation))
	case "read_graph":
		v, err = s.ReadGraph(bg)
	case "search_nodes":
		v, err = s.SearchNodes(bg, o.Arg.(string))
	case "open_nodes":
		v, err = s.OpenNodes(bg, o.Arg.([]string))
	}
	if err != nil {
		return result{Err: err.Error()}
	}
	b, _ := json.Marshal(v)
	return result{Ok: b}
}

// applyModel runs op against the reference model.
func applyModel(m *refModel, o op) result {
	var v any
	var err error
	switch o.Op {
	case "create_entities":
		v = m.CreateEntities(o.Arg.([]Entity))
	case "create_relations":
		v = m.CreateRelations(o.Arg.([]Relation))
	case "add_observations":
		v, err = m.AddObservations(o.Arg.([]ObservationAdd))
	case "delete_entities":
		m.DeleteEntities(o.Arg.([]string))
	case "delete_observations":
		m.DeleteObservations(o.Arg.([]ObservationDelete))
	case "delete_relations":
		m.DeleteRelations(o.Arg.([]Relation))
	case "read_graph":
		v = normGraph(m.g)
	case "search_nodes":
		v = m.SearchNodes(o.Arg.(string))
	case "open_nodes":
		v = m.OpenNodes(o.Arg.([]string))
	}
	if err != nil {
		return result{Err: err.Error()}
	}
	b, _ := json.Marshal(v)
	return result{Ok: b}
}

// sameResult compares two results by decoded value, so that JSON escaping
// differences (Go escapes '<', JavaScript does not) do not matter.
func sameResult(a, b result) bool {
	if a.Err != b.Err {
		return false
	}
	var va, vb any
	_ = json.Unmarshal(a.Ok, &va)
	_ = json.Unmarshal(b.Ok, &vb)
	return reflect.DeepEqual(va, vb)
}

func testRandomOpsAgainstModel(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			s, _ := openTest(t, WithSyncNormal())
			var m refModel
			rng := rand.New(rand.NewPCG(seed, 99))
			for i, o := range genOps(rng, 400, false) {
				got, want := applyStore(s, o), applyModel(&m, o)
				if !sameResult(got, want) {
					t.Fatalf("op %d %s %+q:\n got  %s %s\n want %s %s", i, o.Op, fmt.Sprint(o.Arg), got.Ok, got.Err, want.Ok, want.Err)
				}
				if i%25 == 0 {
					assertGraph(t, fmt.Sprintf("graph after op %d", i), readGraph(t, s), m.g)
				}
			}
			assertGraph(t, "final graph", readGraph(t, s), m.g)
		})
	}
}
