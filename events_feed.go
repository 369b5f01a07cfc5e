package mcpgen

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// ErrFeedRecorded says that the events of a feed's positions were recorded
// already (by another pass, in this process or another replica): read
// [FeedCursor] again and go on from there.
var ErrFeedRecorded = errors.New("mcpgen: the events of these feed positions were recorded already")

// FeedEvent is one occurrence derived from a feed: Event is a value of an
// //mcp:event type, recorded in Partition as [Emit] would in a request of
// that partition.
type FeedEvent struct {
	// Partition is the partition the occurrence belongs to.
	Partition string
	// Event is its payload, a value of an //mcp:event type.
	Event any
}

// RecordFeed records evs, the events of source's feed after position from
// (the cursor [FeedCursor] returned) up to position at, and moves source's
// cursor from from to at: all of it in one transaction of the server's
// [EventStore], or nothing. It is for a
// component whose changes are already kept in a durable, ordered feed of
// its own (mcp-memory's change feed, written in each change's
// transaction): deriving its events from the feed, rather than emitting
// them beside the change, a crash between the two loses nothing (the next
// pass reads the feed from the cursor again), and replicas reading the same
// feed record each event once (docs/events.md). When the cursor is no
// longer at from (another pass moved it) or at is not past from, it
// records nothing and returns an error wrapping [ErrFeedRecorded]: read
// the cursor again and go on from there. evs may be empty: the cursor moves past positions
// that make no event.
func RecordFeed(ctx context.Context, s *Server, source string, from, at int64, evs []FeedEvent) error {
	f, err := feedEvents(s, source)
	if err != nil {
		return err
	}
	now := time.Now()
	subs := map[[2]string][]EventSubscription{}
	recs := make([]*EventRecord, 0, len(evs))
	to := make([][]string, 0, len(evs))
	for _, ev := range evs {
		t, err := f.typeOf(ev.Event, s)
		if err != nil {
			return fmt.Errorf("feed %s: %w", source, err)
		}
		e, owed, err := f.occurrence(ctx, t, ev.Partition, ev.Event, now, subs)
		if err != nil {
			return fmt.Errorf("feed %s: %w", source, err)
		}
		recs, to = append(recs, e), append(to, owed)
	}
	if err := f.store.AppendFeed(ctx, source, from, at, recs, to); err != nil {
		if errors.Is(err, ErrFeedRecorded) {
			return err
		}
		return fmt.Errorf("feed %s: record events up to %d: %w", source, at, err)
	}
	if len(recs) > 0 {
		f.notify()
	}
	return nil
}

// FeedCursor returns the position of source's feed up to which events were
// recorded ([RecordFeed]), and whether any pass recorded one yet.
func FeedCursor(ctx context.Context, s *Server, source string) (int64, bool, error) {
	f, err := feedEvents(s, source)
	if err != nil {
		return 0, false, err
	}
	at, ok, err := f.store.FeedCursor(ctx, source)
	if err != nil {
		return 0, false, fmt.Errorf("feed %s: read cursor: %w", source, err)
	}
	return at, ok, nil
}

func feedEvents(s *Server, source string) (*events, error) {
	switch {
	case s == nil:
		return nil, fmt.Errorf("feed %s: no server", source)
	case s.events == nil:
		return nil, fmt.Errorf("feed %s: server %s declares no events", source, s.def.Name)
	case source == "":
		return nil, errors.New("feed: empty source name")
	}
	return s.events, nil
}

// EventSync is what a component implements whose events are recorded some
// time after its changes rather than in each call: a write marks its feed
// as pending and a later pass records the events of many calls with one
// [RecordFeed] (one transaction of the event store where each call would
// have made one). The server asks it to catch up wherever a reader could
// otherwise miss an event: install it with [SetEventSync].
type EventSync interface {
	// SyncEvents records the events a reader of partition would see:
	// when it returns nil, the events of every change acknowledged before
	// it was called are in the log. The server calls it before an
	// events/poll or an events/stream reads partition's events; an error
	// fails that request (the client may retry).
	SyncEvents(ctx context.Context, partition string) error
	// FlushEvents records every pending event; the server calls it as it
	// closes, before its owner closes the event store.
	FlushEvents(ctx context.Context) error
}

// flushTimeout bounds the FlushEvents of a closing server.
const flushTimeout = 30 * time.Second

// SetEventSync installs sync as s's [EventSync] (nil removes it). The
// webhook sender needs no call: each pass that records events wakes it,
// as [Emit] does.
func SetEventSync(s *Server, sync EventSync) error {
	if s == nil || s.events == nil {
		return errors.New("mcpgen: SetEventSync: the server declares no events")
	}
	f := s.events
	f.mu.Lock()
	f.sync = sync
	f.mu.Unlock()
	return nil
}

// syncRead brings partition's events up to date before a read (see
// [EventSync]).
func (f *events) syncRead(ctx context.Context, partition string) error {
	f.mu.Lock()
	sync := f.sync
	f.mu.Unlock()
	if sync == nil {
		return nil
	}
	if err := sync.SyncEvents(ctx, partition); err != nil {
		return storeFailed("event log", fmt.Errorf("record pending events: %w", err))
	}
	return nil
}

// flush records every pending event of a component that defers them, as
// the server closes.
func (f *events) flush() {
	f.mu.Lock()
	sync := f.sync
	f.mu.Unlock()
	if sync == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), flushTimeout)
	defer cancel()
	if err := sync.FlushEvents(ctx); err != nil {
		f.tel.log.Warn("recording pending events as the server closes failed (the next start records them)", zap.Error(err))
	}
}
