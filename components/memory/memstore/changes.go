package memstore

import "fmt"

// DefaultChangesPage is the number of changes Changes returns when
// limit <= 0.
const DefaultChangesPage = 100

// prunedError says that the changes after since were discarded, and how to
// go on.
func prunedError(since, oldest, head int64) error {
	return fmt.Errorf("%w: changes after %d were discarded; the oldest kept is %d (head %d): re-read the graph and continue from %d, or start over from 0",
		ErrHistoryPruned, since, oldest, head, head)
}

// historyLimit is the number of history rows History returns for limit.
func historyLimit(limit int) int {
	if limit <= 0 || limit > MaxHistoryPage {
		return MaxHistoryPage
	}
	return limit
}
