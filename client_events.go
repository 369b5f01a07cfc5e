package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Event is one occurrence of an event (events/poll) with its data decoded
// into T.
type Event[T any] struct {
	// ID is the occurrence's eventId: the same on every delivery of it,
	// so that receivers deduplicate on it.
	ID string `json:"eventId"`
	// Name is the event's name.
	Name string `json:"name"`
	// Timestamp is when the server emitted it.
	Timestamp time.Time `json:"timestamp"`
	// Data is its payload.
	Data T `json:"data"`
}

// EventPage is one answer of events/poll: the occurrences, the cursor to
// poll with next (persist it: it survives the server's restarts), whether
// events were skipped (Truncated), whether more are waiting (HasMore:
// poll again at once) and when to poll next.
type EventPage[T any] struct {
	// Events are the occurrences since the cursor polled with, oldest first.
	Events []Event[T] `json:"events"`
	// Cursor is where to poll from next time; it survives restarts.
	Cursor string `json:"cursor"`
	// Truncated says events were skipped (retention passed them by).
	Truncated bool `json:"truncated"`
	// HasMore says more are waiting: poll again at once.
	HasMore bool `json:"hasMore"`
	// NextPoll is the server's advice on when to poll next, in milliseconds.
	NextPoll int64 `json:"nextPollMs"`
}

// PollEvents polls the event name with the subscription arguments args
// from cursor (nil: from now, which returns no events and the cursor to
// start from), decoding each occurrence's data into T. Generated typed
// clients call it from a Poll method per event.
func PollEvents[T any](ctx context.Context, c *Client, name string, args any, cursor *string) (*EventPage[T], error) {
	params := map[string]any{"name": name, "arguments": args, "cursor": nil}
	if cursor != nil {
		params["cursor"] = *cursor
	}
	raw, err := c.call(ctx, "events/poll", params, "")
	if err != nil {
		return nil, err
	}
	var page EventPage[T]
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, fmt.Errorf("events/poll %s: %w", name, err)
	}
	return &page, nil
}
