package memstore

// Result assembly, shared by the stores: how the rows their queries return
// become the entities, relations and observations a call answers with, and
// in which order. The queries are each backend's own (SQL dialect, text
// encoding); what is done with their rows is here.

// entityList assembles entities with their observations from two row
// streams: the entities first (addEntity), then their observations
// (addObservation). Entities keep the order they were added in, and each
// one's observations the order they came in: insertion order when both
// streams are ordered by row id.
type entityList struct {
	ents []Entity
	pos  map[int64]int // entity id -> index in ents
}

func newEntityList(capacity int) *entityList {
	return &entityList{ents: make([]Entity, 0, capacity), pos: make(map[int64]int, capacity)}
}

// addEntity appends entity id, with no observations yet.
func (l *entityList) addEntity(id int64, name, entityType string) {
	l.pos[id] = len(l.ents)
	l.ents = append(l.ents, Entity{Name: name, EntityType: entityType, Observations: []string{}})
}

// addObservation appends content to entity id's observations; an id not
// added is ignored (a query may return observations of other entities).
func (l *entityList) addObservation(id int64, content string) {
	if i, ok := l.pos[id]; ok {
		l.ents[i].Observations = append(l.ents[i].Observations, content)
	}
}

// entities returns the entities added, never nil.
func (l *entityList) entities() []Entity { return l.ents }

// entityNameSet returns the names of ents as a set.
func entityNameSet(ents []Entity) map[string]bool {
	names := make(map[string]bool, len(ents))
	for _, e := range ents {
		names[e.Name] = true
	}
	return names
}

// relationTouches is the reference's rule for the relations search_nodes
// and open_nodes return with their entities: those with at least one end
// among names. A nil names keeps every relation.
func relationTouches(names map[string]bool, r Relation) bool {
	return names == nil || names[r.From] || names[r.To]
}

// openNodesNames checks open_nodes' names and returns them without
// repeats, in order.
func openNodesNames(names []string) ([]string, error) {
	if err := validateNames("names", names); err != nil {
		return nil, err
	}
	return dedupe(names), nil
}

// scanRelationsCheaper reports whether reading every relation (one step
// each; maxID bounds their number) costs less than looking up the
// relations touching names names (two index probes each).
func scanRelationsCheaper(names int, maxID int64) bool { return int64(names)*8 > maxID }

// entityNamesLimit checks EntityNames' prefix and returns the number of
// names to return: limit, DefaultEntityNamesLimit when limit <= 0, at most
// MaxBatch.
func entityNamesLimit(prefix string, limit int) (int, error) {
	if err := checkName("prefix", prefix); err != nil {
		return 0, err
	}
	if limit <= 0 {
		limit = DefaultEntityNamesLimit
	}
	return min(limit, MaxBatch), nil
}
