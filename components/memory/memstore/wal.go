package memstore

import (
	"context"
	"fmt"
	"os"
)

// walFrames is the number of frames the WAL reaches before SQLite
// checkpoints it (its default wal_autocheckpoint) and the next commit
// starts it again from the beginning, writing over the old frames.
const walFrames = 1000

// walFrameBytes is the size of one WAL frame: a 4 KiB page and its header.
const walFrameBytes = 4096 + 24

// preallocWAL grows a short WAL file (a new store, or one reopened after
// a clean close, which deletes it) to the size it reaches between
// checkpoints, and checkpoints it, so that commits write over blocks the
// file already has. A commit that appends to the file must also make its
// new size durable, which made small commits dearer (in process on a new
// store at 1,000 entities, create_entities of 10: p50 398-476 us, 324-378
// with this); every store paid that for its first ~1,000 frames after
// each start.
//
// The frames are throwaway commits of one changing row, at
// synchronous=OFF: they carry nothing, and the checkpoint that ends this
// syncs the WAL once, before it copies the page back. Another process
// using the store meanwhile only delays it (busy timeout); a checkpoint
// it cannot finish leaves the WAL to be started again later, as usual.
func (s *SQLite) preallocWAL(ctx context.Context, path, syncMode string) error {
	if st, err := os.Stat(path + "-wal"); err == nil && st.Size() >= walFrames*walFrameBytes {
		return nil
	}
	c := s.wc.c
	if _, err := c.ExecContext(ctx, "PRAGMA synchronous=OFF"); err != nil {
		return fmt.Errorf("preallocate WAL: %w", err)
	}
	var err error
	for i := 0; i < walFrames && err == nil; i++ {
		_, err = c.ExecContext(ctx, "INSERT OR REPLACE INTO meta(key, value) VALUES ('wal_prealloc', ?)", i)
	}
	if err == nil {
		_, err = c.ExecContext(ctx, "DELETE FROM meta WHERE key = 'wal_prealloc'")
	}
	if _, serr := c.ExecContext(ctx, "PRAGMA synchronous="+syncMode); err == nil {
		err = serr
	}
	if err == nil {
		_, err = c.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
	}
	if err != nil {
		return fmt.Errorf("preallocate WAL: %w", err)
	}
	return nil
}
