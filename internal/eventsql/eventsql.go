// Package eventsql is the [mcpgen.EventStore] on a SQL database through
// database/sql, for the two dialects the project runs on: SQLite (one
// process; package eventstore opens it) and PostgreSQL (replicas sharing
// one database; package pgcluster opens it). It links no driver.
package eventsql

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen"
)

// Dialect says which SQL the store speaks.
type Dialect int

// The dialects.
const (
	SQLite Dialect = iota
	Postgres
)

// Store is an [mcpgen.EventStore] on a *sql.DB. Its tables are
// <prefix>events (the log), <prefix>event_head (the newest position),
// <prefix>event_subscriptions and <prefix>event_outbox.
type Store struct {
	db      *sql.DB
	d       Dialect
	p       string // table prefix, schema-qualified on PostgreSQL
	closeDB bool

	// The statements of every write call's events, prepared once
	// (SQLite's driver parses an unprepared statement at each call).
	subs, head, insert, feed, cursor *sql.Stmt

	mu      sync.Mutex
	queue   []*pendingAppend // appends waiting for the next group commit
	leading bool             // an append is committing a batch
}

// New migrates the tables (prefix is prepended to every table name; on
// PostgreSQL it may name a schema: `"app".mcp_`) and returns the store.
// Close closes db when own is set.
func New(ctx context.Context, db *sql.DB, d Dialect, prefix string, own bool) (*Store, error) {
	s := &Store{db: db, d: d, p: prefix, closeDB: own}
	if err := s.migrate(ctx); err != nil {
		return nil, fmt.Errorf("event store: migrate: %w", err)
	}
	for _, st := range []struct {
		to    **sql.Stmt
		query string
	}{
		{&s.subs, `SELECT body FROM {p}event_subscriptions WHERE name = ? AND part = ? ORDER BY id`},
		{&s.head, `UPDATE {p}event_head SET seq = seq + ? WHERE k = 0 RETURNING seq`},
		{&s.insert, `INSERT INTO {p}events (seq, id, name, part, ts, data) VALUES (?, ?, ?, ?, ?, ?)`},
		{&s.feed, `INSERT INTO {p}event_feeds AS f (source, seq) VALUES (?, ?)
			ON CONFLICT (source) DO UPDATE SET seq = excluded.seq WHERE f.seq = ? AND f.seq < excluded.seq`},
		{&s.cursor, `SELECT seq FROM {p}event_feeds WHERE source = ?`},
	} {
		var err error
		if *st.to, err = db.PrepareContext(ctx, s.q(st.query)); err != nil {
			s.closeStmts()
			return nil, fmt.Errorf("event store: prepare %s: %w", strings.Fields(st.query)[0], err)
		}
	}
	return s, nil
}

// Close releases the database when the store owns it.
func (s *Store) Close() error {
	s.closeStmts()
	if s.closeDB {
		return s.db.Close()
	}
	return nil
}

func (s *Store) closeStmts() {
	for _, st := range []*sql.Stmt{s.subs, s.head, s.insert, s.feed, s.cursor} {
		if st != nil {
			st.Close()
		}
	}
}

func (s *Store) migrate(ctx context.Context) error {
	blob, serial := "BLOB", "INTEGER PRIMARY KEY AUTOINCREMENT"
	if s.d == Postgres {
		blob, serial = "BYTEA", "BIGSERIAL PRIMARY KEY"
	}
	stmts := []string{
		`CREATE TABLE IF NOT EXISTS {p}events (seq BIGINT PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL,
			part TEXT NOT NULL, ts BIGINT NOT NULL, data ` + blob + ` NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS {n}events_name ON {p}events (name, part, seq)`,
		`CREATE TABLE IF NOT EXISTS {p}event_head (k INTEGER PRIMARY KEY, seq BIGINT NOT NULL)`,
		`INSERT INTO {p}event_head (k, seq) VALUES (0, 0) ON CONFLICT (k) DO NOTHING`,
		`CREATE TABLE IF NOT EXISTS {p}event_subscriptions (id TEXT PRIMARY KEY, name TEXT NOT NULL, part TEXT NOT NULL,
			principal TEXT NOT NULL, expires BIGINT NOT NULL, body TEXT NOT NULL)`,
		`CREATE INDEX IF NOT EXISTS {n}event_subscriptions_name ON {p}event_subscriptions (name, part)`,
		`CREATE INDEX IF NOT EXISTS {n}event_subscriptions_principal ON {p}event_subscriptions (principal)`,
		`CREATE TABLE IF NOT EXISTS {p}event_outbox (id ` + serial + `, sub TEXT NOT NULL, seq BIGINT NOT NULL,
			control ` + blob + `, attempts INTEGER NOT NULL DEFAULT 0, due BIGINT NOT NULL, owner TEXT NOT NULL DEFAULT '',
			lease BIGINT NOT NULL DEFAULT 0)`,
		`CREATE INDEX IF NOT EXISTS {n}event_outbox_due ON {p}event_outbox (due)`,
		`CREATE INDEX IF NOT EXISTS {n}event_outbox_sub ON {p}event_outbox (sub, seq)`,
		`CREATE TABLE IF NOT EXISTS {p}event_feeds (source TEXT PRIMARY KEY, seq BIGINT NOT NULL)`,
	}
	if s.d == Postgres {
		// Replicas starting together migrate one at a time.
		pre := []string{`SELECT pg_advisory_xact_lock(7153412934)`}
		if i := strings.LastIndexByte(s.p, '.'); i >= 0 {
			pre = append(pre, `CREATE SCHEMA IF NOT EXISTS `+s.p[:i])
		}
		stmts = append(pre, stmts...)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, s.q(q)); err != nil {
			return fmt.Errorf("%s: %w", strings.Fields(q)[0:3], err)
		}
	}
	return tx.Commit()
}

// q expands the table prefix and, on PostgreSQL, numbers the
// placeholders.
func (s *Store) q(query string) string {
	query = strings.ReplaceAll(query, "{p}", s.p)
	// An index name takes no schema: the index lives in its table's.
	name := s.p
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	query = strings.ReplaceAll(query, "{n}", strings.Trim(name, `"`))
	if s.d != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// Append implements [mcpgen.EventStore]. Appends made at the same time
// share one transaction (a group commit, see AppendFeed).
func (s *Store) Append(ctx context.Context, e *mcpgen.EventRecord, to []string) error {
	return s.group(ctx, &pendingAppend{es: []*mcpgen.EventRecord{e}, to: [][]string{to}})
}

// AppendFeed implements [mcpgen.EventStore]. The feed's row is written
// first: a concurrent pass over the same feed waits for it and then finds
// the cursor moved. Appends made at the same time share one transaction
// (a group commit): each still moves its feed, or finds it moved, on its
// own, in the order they were queued.
func (s *Store) AppendFeed(ctx context.Context, source string, from, at int64, es []*mcpgen.EventRecord, to [][]string) error {
	if len(es) != len(to) {
		return fmt.Errorf("event store: %d events with %d lists of deliveries", len(es), len(to))
	}
	if at <= from {
		return mcpgen.ErrFeedRecorded
	}
	return s.group(ctx, &pendingAppend{feed: true, source: source, from: from, at: at, es: es, to: to})
}

// group queues p for the next group commit and returns its result: the
// first caller commits what is queued when it starts, then hands the
// next batch to a waiting caller. The head row is locked for the
// transaction, so positions are assigned in commit order, and in queue
// order within one.
func (s *Store) group(ctx context.Context, p *pendingAppend) error {
	p.wake = make(chan bool, 1)
	s.mu.Lock()
	s.queue = append(s.queue, p)
	lead := !s.leading
	s.leading = true
	s.mu.Unlock()
	if !lead {
		if lead = <-p.wake; !lead {
			return p.err
		}
	}
	s.mu.Lock()
	n, events := 1, len(s.queue[0].es)
	for n < len(s.queue) && events+len(s.queue[n].es) <= maxAppendBatch {
		events += len(s.queue[n].es)
		n++
	}
	batch := s.queue[:n:n]
	s.queue = s.queue[n:]
	s.mu.Unlock()

	// The batch is others' appends too: one caller's cancellation does
	// not undo them.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), appendTimeout)
	s.commit(ctx, batch)
	cancel()

	s.mu.Lock()
	if len(s.queue) > 0 {
		s.queue[0].wake <- true
	} else {
		s.leading = false
	}
	s.mu.Unlock()
	for _, q := range batch {
		if q != p {
			q.wake <- false
		}
	}
	return p.err
}

// pendingAppend is one Append or AppendFeed queued for a group commit.
type pendingAppend struct {
	feed     bool // AppendFeed: move source's cursor from from to at first
	source   string
	from, at int64
	es       []*mcpgen.EventRecord
	to       [][]string
	err      error
	wake     chan bool // true: commit the next batch; false: committed, err set
}

// maxAppendBatch bounds the events of one group commit (one append of
// more is committed alone).
const maxAppendBatch = 256

// appendTimeout bounds one group commit, which no caller can cancel.
const appendTimeout = time.Minute

// commit appends batch in one transaction and sets each one's error.
// When a batch of several fails, each is tried alone, so that one bad
// append fails only itself.
func (s *Store) commit(ctx context.Context, batch []*pendingAppend) {
	err := s.appendTx(ctx, batch)
	if err == nil {
		return
	}
	if len(batch) == 1 {
		batch[0].err = err
		return
	}
	for _, p := range batch {
		if err := s.appendTx(ctx, []*pendingAppend{p}); err != nil {
			p.err = err
		}
	}
}

// appendTx appends batch in one transaction. Each append's error is
// set, mcpgen.ErrFeedRecorded for a feed already moved past its cursor;
// the error returned fails them all.
func (s *Store) appendTx(ctx context.Context, batch []*pendingAppend) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st := txStmts{tx: tx, feed: tx.StmtContext(ctx, s.feed), head: tx.StmtContext(ctx, s.head), insert: tx.StmtContext(ctx, s.insert)}
	for _, p := range batch {
		p.err = nil
		if p.feed {
			res, err := st.feed.ExecContext(ctx, p.source, p.at, p.from)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				p.err = mcpgen.ErrFeedRecorded
				continue
			}
		}
		if err := s.append(ctx, st, p.es, p.to); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// FeedCursor implements [mcpgen.EventStore].
func (s *Store) FeedCursor(ctx context.Context, source string) (int64, bool, error) {
	var at int64
	err := s.cursor.QueryRowContext(ctx, source).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return at, err == nil, err
}

// txStmts are the prepared statements of a group commit, bound to its
// transaction once.
type txStmts struct {
	tx                 *sql.Tx
	feed, head, insert *sql.Stmt
}

// append stores es, assigning their Seqs, with their deliveries in tx:
// the head moved once, then one INSERT per event and one per delivery.
func (s *Store) append(ctx context.Context, st txStmts, es []*mcpgen.EventRecord, to [][]string) error {
	if len(es) == 0 {
		return nil
	}
	var last int64
	if err := st.head.QueryRowContext(ctx, len(es)).Scan(&last); err != nil {
		return err
	}
	first := last - int64(len(es)) + 1
	for i, e := range es {
		e.Seq = first + int64(i)
		if _, err := st.insert.ExecContext(ctx, e.Seq, e.ID, e.Name, e.Partition, nanos(e.Time), []byte(e.Data)); err != nil {
			return err
		}
		for _, id := range to[i] {
			if _, err := st.tx.ExecContext(ctx, s.q(`INSERT INTO {p}event_outbox (sub, seq, due) VALUES (?, ?, ?)`), id, e.Seq, nanos(e.Time)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Events implements [mcpgen.EventStore].
func (s *Store) Events(ctx context.Context, name, partition string, after, upto int64, limit int) ([]mcpgen.EventRecord, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT seq, id, name, part, ts, data FROM {p}events
		WHERE name = ? AND part = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?`), name, partition, after, upto, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []mcpgen.EventRecord
	for rows.Next() {
		var e mcpgen.EventRecord
		var ts int64
		var data []byte
		if err := rows.Scan(&e.Seq, &e.ID, &e.Name, &e.Partition, &ts, &data); err != nil {
			return nil, err
		}
		e.Time, e.Data = fromNanos(ts), data
		out = append(out, e)
	}
	return out, rows.Err()
}

// Bounds implements [mcpgen.EventStore].
func (s *Store) Bounds(ctx context.Context) (oldest, newest int64, err error) {
	var o sql.NullInt64
	err = s.db.QueryRowContext(ctx, s.q(`SELECT (SELECT MIN(seq) FROM {p}events), seq FROM {p}event_head WHERE k = 0`)).Scan(&o, &newest)
	return o.Int64, newest, err
}

// SaveSubscription implements [mcpgen.EventStore].
func (s *Store) SaveSubscription(ctx context.Context, sub *mcpgen.EventSubscription) error {
	body, err := json.Marshal(sub)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, s.q(`INSERT INTO {p}event_subscriptions (id, name, part, principal, expires, body) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, part = excluded.part, principal = excluded.principal,
		expires = excluded.expires, body = excluded.body`), sub.ID, sub.Name, sub.Partition, sub.PrincipalKey, nanos(sub.Expires), string(body))
	return err
}

// Subscription implements [mcpgen.EventStore].
func (s *Store) Subscription(ctx context.Context, id string) (*mcpgen.EventSubscription, error) {
	var body string
	err := s.db.QueryRowContext(ctx, s.q(`SELECT body FROM {p}event_subscriptions WHERE id = ?`), id).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var sub mcpgen.EventSubscription
	if err := json.Unmarshal([]byte(body), &sub); err != nil {
		return nil, fmt.Errorf("subscription %s: %w", id, err)
	}
	return &sub, nil
}

// DeleteSubscription implements [mcpgen.EventStore].
func (s *Store) DeleteSubscription(ctx context.Context, id string) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`DELETE FROM {p}event_subscriptions WHERE id = ?`), id)
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM {p}event_outbox WHERE sub = ?`), id); err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n > 0, tx.Commit()
}

// Subscriptions implements [mcpgen.EventStore].
func (s *Store) Subscriptions(ctx context.Context, name, partition string) ([]mcpgen.EventSubscription, error) {
	rows, err := s.subs.QueryContext(ctx, name, partition)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []mcpgen.EventSubscription
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		var sub mcpgen.EventSubscription
		if err := json.Unmarshal([]byte(body), &sub); err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// CountSubscriptions implements [mcpgen.EventStore].
func (s *Store) CountSubscriptions(ctx context.Context, principal string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM {p}event_subscriptions WHERE principal = ?`), principal).Scan(&n)
	return n, err
}

// Enqueue implements [mcpgen.EventStore].
func (s *Store) Enqueue(ctx context.Context, ds []mcpgen.EventDelivery) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, d := range ds {
		var control []byte
		if d.Control != nil {
			control = d.Control
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO {p}event_outbox (sub, seq, control, due) VALUES (?, ?, ?, ?)`),
			d.Subscription, d.Seq, control, nanos(d.Due)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Claim implements [mcpgen.EventStore]. On PostgreSQL the rows are
// locked with SKIP LOCKED: replicas claiming at once get different rows.
func (s *Store) Claim(ctx context.Context, owner string, now time.Time, lease time.Duration, max int) ([]mcpgen.EventDelivery, error) {
	lock := ""
	if s.d == Postgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, s.q(`UPDATE {p}event_outbox SET owner = ?, lease = ?
		WHERE id IN (SELECT id FROM {p}event_outbox WHERE due <= ? AND lease <= ? ORDER BY id LIMIT ?`+lock+`)
		RETURNING id, sub, seq, control, attempts, due`), owner, nanos(now.Add(lease)), nanos(now), nanos(now), max)
	if err != nil {
		return nil, err
	}
	var out []mcpgen.EventDelivery
	for rows.Next() {
		var d mcpgen.EventDelivery
		var control []byte
		var due int64
		if err := rows.Scan(&d.ID, &d.Subscription, &d.Seq, &control, &d.Attempts, &due); err != nil {
			rows.Close()
			return nil, err
		}
		if control != nil {
			d.Control = control
		}
		d.Due = fromNanos(due)
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Seq == 0 {
			continue
		}
		var e mcpgen.EventRecord
		var ts int64
		var data []byte
		err := tx.QueryRowContext(ctx, s.q(`SELECT seq, id, name, part, ts, data FROM {p}events WHERE seq = ?`), out[i].Seq).
			Scan(&e.Seq, &e.ID, &e.Name, &e.Partition, &ts, &data)
		if errors.Is(err, sql.ErrNoRows) {
			continue // pruned
		}
		if err != nil {
			return nil, err
		}
		e.Time, e.Data = fromNanos(ts), data
		out[i].Event = &e
	}
	return out, tx.Commit()
}

// Complete implements [mcpgen.EventStore].
func (s *Store) Complete(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, s.q(`DELETE FROM {p}event_outbox WHERE id = ?`), id)
	return err
}

// Retry implements [mcpgen.EventStore].
func (s *Store) Retry(ctx context.Context, id int64, due time.Time, attempts int) error {
	_, err := s.db.ExecContext(ctx, s.q(`UPDATE {p}event_outbox SET due = ?, attempts = ?, owner = '', lease = 0 WHERE id = ?`), nanos(due), attempts, id)
	return err
}

// PendingBelow implements [mcpgen.EventStore].
func (s *Store) PendingBelow(ctx context.Context, sub string, except int64) (int64, error) {
	var low sql.NullInt64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT MIN(seq) FROM {p}event_outbox WHERE sub = ? AND id <> ? AND seq > 0`), sub, except).Scan(&low)
	return low.Int64, err
}

// Prune implements [mcpgen.EventStore].
func (s *Store) Prune(ctx context.Context, now, before time.Time, keep int) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var head int64
	if err := tx.QueryRowContext(ctx, s.q(`SELECT seq FROM {p}event_head WHERE k = 0`)).Scan(&head); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM {p}events WHERE ts < ? OR seq <= ?`), nanos(before), head-int64(keep)); err != nil {
		return err
	}
	expired := s.q(`SELECT id FROM {p}event_subscriptions WHERE expires > 0 AND expires < ?`)
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM {p}event_outbox WHERE sub IN (`)+expired+`)`, nanos(now)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM {p}event_subscriptions WHERE expires > 0 AND expires < ?`), nanos(now)); err != nil {
		return err
	}
	return tx.Commit()
}

var _ mcpgen.EventStore = (*Store)(nil)
