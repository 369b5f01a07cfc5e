package memstore

import (
	"context"
	"time"
)

// Search index upkeep. Every commit that touches a search index flushes
// its new terms into a new FTS5 segment, and a search seeks every segment
// once per trigram: with the many small segments a stream of small writes
// leaves behind, search_nodes cost 2.5-3x what it costs on one segment
// (in process, 10,000-100,000 entities after 2,000 one-entity commits).
// FTS5's own automerge, run inside the writes, keeps up to about four
// segments a level; tightening it (automerge=2) made each small write 40%
// dearer for little search gain. So the merging happens off the write
// path instead: after writes, once the store has been quiet for
// tidyQuiet, a goroutine merges segments of the same level (usermerge=2,
// set by migration 2) in small steps, each its own write transaction.
// A write that arrives meanwhile waits for at most one step; the merger
// then stops until the next quiet period. Reads are never blocked (WAL).
// A step is an ordinary transaction (synchronous as configured): killed
// half-way, it rolls back and the index stays as it was.

// tidyQuiet is how long the store must be free of writes before the
// merger starts: long enough that a burst of writes (an agent's round) is
// over, short enough that the next read finds the index tidy.
const tidyQuiet = 20 * time.Millisecond

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

// tidyLoop waits for writes, then for a quiet period, then merges until
// there is nothing left to merge or a write comes.
func (s *SQLite) tidyLoop() {
	defer close(s.tidyDone)
	timer := time.NewTimer(0)
	<-timer.C
	for {
		select {
		case <-s.tidyStop:
			return
		case <-s.tidyKick:
		}
		// Quiet: no commit for tidyQuiet.
		for quiet := false; !quiet; {
			timer.Reset(tidyQuiet)
			select {
			case <-s.tidyStop:
				timer.Stop()
				return
			case <-s.tidyKick:
				timer.Stop()
			case <-timer.C:
				quiet = true
			}
		}
		for !s.writePending() {
			more, err := s.mergeStep(context.Background())
			if err != nil || !more {
				// An error (say, another process holding the lock past the
				// busy timeout) waits for the next write to try again.
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

// writePending reports whether a write is committing or queued.
func (s *SQLite) writePending() bool {
	s.wq.Lock()
	defer s.wq.Unlock()
	return s.leading || len(s.queue) > 0
}

// mergeStep runs one 'merge' step on each search index, in one write
// transaction, and reports whether any segments were merged (FTS5 changes
// at least two rows when it did work).
func (s *SQLite) mergeStep(ctx context.Context) (merged bool, err error) {
	err = s.write(ctx, func(w *writer) error {
		merged = false
		for _, table := range []string{"search_names", "search_obs"} {
			var before, after int64
			if _, err := w.queryRow(`SELECT total_changes()`, nil, &before); err != nil {
				return err
			}
			if _, err := w.exec(`INSERT INTO `+table+`(`+table+`, rank) VALUES ('merge', ?)`, mergePages); err != nil {
				return err
			}
			if _, err := w.queryRow(`SELECT total_changes()`, nil, &after); err != nil {
				return err
			}
			merged = merged || after-before >= 2
		}
		return nil
	})
	return merged, err
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
