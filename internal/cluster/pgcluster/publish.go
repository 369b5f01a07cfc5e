package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/cluster"
)

// This file is the publishing half of the message channel. Each message
// used to cost one pg_notify round trip, and every listening replica's
// backend woke for each: through three replicas that was most of what a
// notification cost. Messages published while a NOTIFY is in flight now
// wait for it and then go together in the next one (a group commit), so
// that under load one NOTIFY carries several messages; and a message equal
// to the one queued just before it (a list change announced by several
// requests at once, say) is sent once.
//
// The payload of a NOTIFY is one of:
//
//	origin SP topic LF kind body         one message (kind i: the payload
//	                                     inline; r: the id of a row holding it)
//	origin LF { length SP topic LF kind body }   several, in order; length
//	                                     counts kind and body
//
// A replica that reads only the first form (before batching) drops the
// second, which has no space in its first line.

// maxNotify bounds the payload of one NOTIFY: PostgreSQL refuses 8000
// bytes or more.
const maxNotify = 7900

// batch is the messages of one NOTIFY, and the callers waiting for it.
type batch struct {
	entries []string // length SP topic LF kind body, without the length
	size    int      // bytes of the payload with the entries' lengths
	last    string   // the last entry, to merge an equal one
	done    chan struct{}
	err     error
}

// publisher queues the messages to send and sends them from one goroutine,
// in the order they were queued.
type publisher struct {
	mu      sync.Mutex
	queue   []*batch // the last one takes more entries until it is sent
	wake    chan struct{}
	closed  bool
	stats   PublishStats
	maxSize int // maxNotify, lower in tests
}

// PublishStats counts what this replica published: messages handed to
// Publish, messages merged into an equal one queued just before, and
// NOTIFY statements sent with their payload bytes.
type PublishStats struct {
	Messages, Merged, Notifies, Bytes int64
}

// PublishStats returns what this replica published so far.
func (b *Backend) PublishStats() PublishStats {
	b.pub.mu.Lock()
	defer b.pub.mu.Unlock()
	return b.pub.stats
}

// Publish sends a message to every subscriber on every replica: it joins
// the NOTIFY that goes next and returns once that was sent (or failed, or
// ctx ended). Messages of one replica arrive in the order Publish was
// called; one equal to the message queued right before it, not yet sent,
// is merged with that one.
func (b *Backend) Publish(ctx context.Context, topic string, payload []byte) error {
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	var entry string
	if len(payload) <= maxInline && isText(payload) {
		entry = topic + "\ni" + string(payload)
	} else {
		var id int64
		if err := b.pool.QueryRow(ctx, b.q.addMessage, payload).Scan(&id); err != nil {
			return b.fail("publish", err)
		}
		entry = topic + "\nr" + strconv.FormatInt(id, 10)
	}
	bt, err := b.pub.add(entry, len(b.id))
	if err != nil {
		return err
	}
	select {
	case <-bt.done:
		return bt.err
	case <-ctx.Done():
		return b.fail("publish", ctx.Err())
	}
}

// add queues entry and returns the batch it will go in.
func (p *publisher) add(entry string, head int) (*batch, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("cluster publish: %w: the backend is closed", cluster.ErrUnavailable)
	}
	p.stats.Messages++
	var bt *batch
	if n := len(p.queue); n > 0 {
		bt = p.queue[n-1]
	}
	switch {
	case bt != nil && bt.last == entry:
		p.stats.Merged++
		return bt, nil
	case bt == nil || bt.size+entrySize(entry) > p.maxSize:
		bt = &batch{size: head + 1, done: make(chan struct{})}
		p.queue = append(p.queue, bt)
	}
	bt.entries = append(bt.entries, entry)
	bt.size += entrySize(entry)
	bt.last = entry
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return bt, nil
}

// entrySize is the bytes entry takes in a batch: its length, a space, and
// itself.
func entrySize(entry string) int { return len(strconv.Itoa(len(entry))) + 1 + len(entry) }

// next takes the oldest batch off the queue, or nil.
func (p *publisher) next() *batch {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		return nil
	}
	bt := p.queue[0]
	p.queue[0] = nil
	p.queue = p.queue[1:]
	return bt
}

// publishLoop sends the queued batches, one NOTIFY each, until the backend
// closes; then it fails what is left.
func (b *Backend) publishLoop() {
	defer b.wg.Done()
	for {
		select {
		case <-b.stop:
			b.pub.mu.Lock()
			b.pub.closed = true
			q := b.pub.queue
			b.pub.queue = nil
			b.pub.mu.Unlock()
			for _, bt := range q {
				bt.err = fmt.Errorf("cluster publish: %w: the backend is closed", cluster.ErrUnavailable)
				close(bt.done)
			}
			return
		case <-b.pub.wake:
		}
		for bt := b.pub.next(); bt != nil; bt = b.pub.next() {
			bt.err = b.notify(bt)
			close(bt.done)
		}
	}
}

// notify sends one batch.
func (b *Backend) notify(bt *batch) error {
	body := encodeBatch(b.id, bt)
	ctx, cancel := b.ctx(context.Background())
	defer cancel()
	if _, err := b.pool.Exec(ctx, `SELECT pg_notify($1, $2)`, b.channel, body); err != nil {
		return b.fail("publish", err)
	}
	b.ok()
	b.pub.mu.Lock()
	b.pub.stats.Notifies++
	b.pub.stats.Bytes += int64(len(body))
	b.pub.mu.Unlock()
	return nil
}

// encodeBatch is the NOTIFY payload of bt's messages from origin: the
// first form for one message, the second for several.
func encodeBatch(origin string, bt *batch) string {
	if len(bt.entries) == 1 {
		topic, rest, _ := strings.Cut(bt.entries[0], "\n")
		return origin + " " + topic + "\n" + rest
	}
	var s strings.Builder
	s.Grow(bt.size)
	s.WriteString(origin)
	s.WriteByte('\n')
	for _, e := range bt.entries {
		s.WriteString(strconv.Itoa(len(e)))
		s.WriteByte(' ')
		s.WriteString(e)
	}
	return s.String()
}

// isText reports whether p can travel in a NOTIFY payload (no NUL bytes,
// valid UTF-8 is the publisher's business: ours are JSON).
func isText(p []byte) bool {
	for _, c := range p {
		if c == 0 {
			return false
		}
	}
	return true
}

// errBadPayload is a NOTIFY payload that is not one of ours.
var errBadPayload = errors.New("malformed cluster message")

// decode parses a NOTIFY payload into its messages, in order (see the
// top of this file); a message kept in a row is read from it. A message
// whose row cannot be read is left out (logged), and the others are
// kept; a payload that is not ours ends with an error.
func (b *Backend) decode(ctx context.Context, s string) ([]cluster.Message, error) {
	head, rest, ok := strings.Cut(s, "\n")
	if !ok {
		return nil, errBadPayload
	}
	if origin, topic, one := strings.Cut(head, " "); one {
		m, err := b.message(ctx, origin, topic, rest)
		if err != nil {
			return nil, err
		}
		return []cluster.Message{m}, nil
	}
	origin := head
	var out []cluster.Message
	for rest != "" {
		n, after, ok := strings.Cut(rest, " ")
		size, err := strconv.Atoi(n)
		if !ok || err != nil || size < 0 || size > len(after) {
			return out, errBadPayload
		}
		topic, body, ok := strings.Cut(after[:size], "\n")
		if !ok {
			return out, errBadPayload
		}
		rest = after[size:]
		m, err := b.message(ctx, origin, topic, body)
		if errors.Is(err, errBadPayload) {
			return out, err
		}
		if err != nil {
			b.log.Warn("cluster message lost", zap.Error(err))
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// message is one decoded message: kind i and the payload, or r and the id
// of the row that holds it.
func (b *Backend) message(ctx context.Context, origin, topic, body string) (cluster.Message, error) {
	if body == "" {
		return cluster.Message{}, errBadPayload
	}
	m := cluster.Message{Origin: origin, Topic: topic}
	switch body[0] {
	case 'i':
		m.Payload = []byte(body[1:])
	case 'r':
		qctx, cancel := b.ctx(ctx)
		defer cancel()
		if err := b.pool.QueryRow(qctx, b.q.loadMessage, body[1:]).Scan(&m.Payload); err != nil {
			return cluster.Message{}, fmt.Errorf("message %s of topic %s not read: %w", body[1:], topic, err)
		}
	default:
		return cluster.Message{}, errBadPayload
	}
	return m, nil
}
