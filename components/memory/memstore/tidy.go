package memstore

import (
	"context"
	"time"
)

// Search index upkeep. The merger first indexes the rows the writes left
// unindexed (tail.go). Every commit that touches a search index flushes
// its new terms into a new FTS5 segment, and a search seeks every segment
// once per trigram: with the many small segments a stream of small writes
// leaves behind, search_nodes cost 2.5-3x what it costs on one segment
// (in process, 10,000-100,000 entities after 2,000 one-entity commits).
// FTS5's own automerge, run inside the writes, keeps up to about four
// segments a level; tightening it (automerge=2) made each small write 40%
// dearer for little search gain. So the merging happens off the write
// path instead (bulk writes excepted: they merge in proportion to what
// they indexed, see indexLongTail): after writes, once the store has
// been quiet for tidyQuiet, a goroutine merges segments of the same level
// (usermerge=2, set by migration 2) in small steps, each its own write
// transaction.
// A write that arrives meanwhile waits for at most one step; the merger
// then waits for the next idle time. Reads are never blocked (WAL), and
// the merger takes no step while a read is under way or within tidyQuiet
// of the last call, so that it spends idle time, not the CPU the calls of
// a busy moment need (a server pinned to one core would give it theirs).
// A step is an ordinary transaction (synchronous as configured): killed
// half-way, it rolls back and the index stays as it was.

// tidyQuiet is how long the store must be free of calls before the
// merger takes a step: long enough that a burst of calls (an agent's round) is
// over, short enough that the next round finds the index tidy.
const tidyQuiet = 500 * time.Millisecond

// mergePages is the work of one merge step, in leaf pages written per
// index (FTS5's 'merge' command): a few milliseconds at 100,000 entities.
const mergePages = 32

// startTidy starts the merger goroutine.
func (s *SQLite) startTidy() {
	s.tidyKick = make(chan struct{}, 1)
	s.tidyStop = make(chan struct{})
	s.tidyDone = make(chan struct{})
	go s.tidyLoop()
}

// stopTidy stops the merger and waits for it (a step under way finishes);
// calling it again does nothing.
func (s *SQLite) stopTidy() {
	s.tidyOnce.Do(func() { close(s.tidyStop) })
	<-s.tidyDone
}

// kickTidy tells the merger that a write committed; it never blocks.
func (s *SQLite) kickTidy() {
	select {
	case s.tidyKick <- struct{}{}:
	default:
	}
}

// tidyLoop waits for writes, then merges in idle time (no read or write
// for tidyQuiet) until there is nothing left to merge; a call that comes
// meanwhile waits for at most the step under way, and merging resumes at
// the next idle time.
func (s *SQLite) tidyLoop() {
	defer close(s.tidyDone)
	for {
		select {
		case <-s.tidyStop:
			return
		case <-s.tidyKick:
		}
		for {
			if wait := tidyQuiet - time.Duration(time.Now().UnixNano()-s.active.Load()); wait > 0 || s.readers.Load() > 0 || s.writePending() {
				select {
				case <-s.tidyStop:
					return
				case <-time.After(max(wait, time.Millisecond)):
				}
				continue
			}
			more, err := s.mergeStep(context.Background())
			if err != nil || !more {
				// Done; an error (say, another process holding the lock
				// past the busy timeout) waits for the next write to try
				// again.
				break
			}
			select {
			case <-s.tidyStop:
				return
			default:
			}
		}
	}
}

// busy records that a call is under way or just ended, for tidyLoop.
func (s *SQLite) busy() { s.active.Store(time.Now().UnixNano()) }

// writePending reports whether a write is committing or queued.
func (s *SQLite) writePending() bool {
	s.wq.Lock()
	defer s.wq.Unlock()
	return s.leading || len(s.queue) > 0
}

// mergeStep indexes the rows not yet in the search indexes (tail.go) if
// there are any, else gives names index rows their pair characters
// (pairs.go) if some lack them, else runs one 'merge' step on each search
// index, in one write transaction, and reports whether it did any work
// (FTS5 changes at least two rows when it merged).
func (s *SQLite) mergeStep(ctx context.Context) (merged bool, err error) {
	err = s.write(ctx, func(w *writer) error {
		merged = false
		t, err := loadTail(w.ctx, w.tx)
		if err != nil {
			return err
		}
		if t.size() > 0 {
			merged = true
			return w.indexTail(t)
		}
		pending, err := pairsPending(w.ctx, w.tx)
		if err != nil {
			return err
		}
		if pending > 0 {
			merged = true
			return w.addPairs(pending)
		}
		merged, err = w.mergeIndexes(mergePages)
		return err
	})
	return merged, err
}

// mergeIndexes runs FTS5's 'merge' on each search index (segments of the
// same level, usermerge=2), writing at most pages leaf pages per index,
// and reports whether it merged anything (FTS5 changes at least two rows
// when it does).
func (w *writer) mergeIndexes(pages int) (merged bool, err error) {
	for _, table := range []string{"search_names", "search_obs"} {
		var before, after int64
		if _, err := w.queryRow(`SELECT total_changes()`, nil, &before); err != nil {
			return false, err
		}
		if _, err := w.exec(`INSERT INTO `+table+`(`+table+`, rank) VALUES ('merge', ?)`, pages); err != nil {
			return false, err
		}
		if _, err := w.queryRow(`SELECT total_changes()`, nil, &after); err != nil {
			return false, err
		}
		merged = merged || after-before >= 2
	}
	return merged, nil
}

// mergeSearch merges until there is nothing left to merge (for tests and
// benchmarks, which cannot wait for a quiet period).
func (s *SQLite) mergeSearch(ctx context.Context) error {
	for {
		more, err := s.mergeStep(ctx)
		if err != nil || !more {
			return err
		}
	}
}
