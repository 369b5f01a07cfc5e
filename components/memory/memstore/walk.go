package memstore

// entityRows turns the rows of entities joined with their observations
// (ordered by entity id, then observation id; an entity without
// observations comes as one row without content) into entities, handed to
// emit as each one ends: how both stores walk the graph from their tables
// without holding it. The Observations slice handed out is reused for the
// next entity.
type entityRows struct {
	emit  func(Entity) error
	cur   Entity
	curID int64
	any   bool
}

// add takes one row; hasContent is false for an entity's row without
// observations.
func (g *entityRows) add(id int64, name, entityType, content string, hasContent bool) error {
	if !g.any || id != g.curID {
		if err := g.end(); err != nil {
			return err
		}
		g.any, g.curID = true, id
		g.cur = Entity{Name: name, EntityType: entityType, Observations: g.cur.Observations[:0]}
	}
	if hasContent {
		g.cur.Observations = append(g.cur.Observations, content)
	}
	return nil
}

// end hands out the entity under way, if any.
func (g *entityRows) end() error {
	if !g.any {
		return nil
	}
	g.any = false
	return g.emit(g.cur)
}
