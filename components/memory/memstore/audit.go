package memstore

import "context"

// LocalAuthor is the author recorded for changes made without a principal:
// over stdio, and by the import command.
const LocalAuthor = "local"

// DefaultHistoryRetention is the number of most recent history rows a
// graph keeps unless WithHistoryRetention says otherwise: the audit trail
// outlives the change feed by far, yet what writes can make the store
// hold stays bounded.
const DefaultHistoryRetention = 1_000_000

// WithHistoryRetention sets how many of the most recent entity history
// rows (see Store.History) a graph keeps (at least 1); older ones are
// pruned at each write.
func WithHistoryRetention(n int) Option { return func(o *options) { o.historyRetention = n } }

type authorKey struct{}

// WithAuthor returns ctx carrying author, whom the changes of a write
// made with it are recorded as (Change.Author): the subject of the
// principal that asked. Without one a change is recorded as LocalAuthor.
func WithAuthor(ctx context.Context, author string) context.Context {
	return context.WithValue(ctx, authorKey{}, author)
}

// authorOf returns the author ctx carries, or LocalAuthor.
func authorOf(ctx context.Context) string {
	if a, ok := ctx.Value(authorKey{}).(string); ok && a != "" {
		return truncate(a, MaxNameBytes)
	}
	return LocalAuthor
}

// historyEntities returns the entities a change belongs to in their
// history: the entity of an entity or observation change, both ends of a
// relation change (once when they are the same), none for a task change.
func historyEntities(kind ChangeKind, subject string, rel *Relation) []string {
	switch kind {
	case ChangeTaskCreated, ChangeTaskUpdated:
		return nil
	}
	if rel != nil {
		if rel.To == rel.From {
			return []string{rel.From}
		}
		return []string{rel.From, rel.To}
	}
	return []string{subject}
}
