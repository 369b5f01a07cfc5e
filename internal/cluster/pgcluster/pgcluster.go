// Package pgcluster is the PostgreSQL [cluster.Backend]: legacy sessions,
// tasks, signing keys and the replicas' subscriptions in tables of one
// schema, and publish/subscribe over LISTEN/NOTIFY on one channel per
// schema.
//
// The URL is an ordinary PostgreSQL URL (postgres://user:pass@host:5432/db)
// with one extra, optional query parameter, schema, which names the schema
// that holds the tables (mcp_sessions, mcp_tasks, mcp_signing_keys,
// mcp_messages, mcp_subscribers); without it, the first schema of the
// search_path parameter, else "mcpgen". It is created on first start.
// Replicas of one deployment use the same URL.
//
// One pool of connections serves the queries (MaxConns from pool_max_conns
// in the URL, as pgx reads it; default 4 here) and one more connection
// LISTENs. When the database cannot be reached, calls fail with an error
// wrapping [cluster.ErrUnavailable], the outage is logged once, and the
// backend reconnects by itself: the pool on the next call, the listener
// with a backoff, after which subscribers are told that messages may have
// been lost.
package pgcluster

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/pgdsn"
)

// opTimeout bounds one query, so that a database that stopped answering
// (a cut network) fails requests instead of hanging them.
const opTimeout = 5 * time.Second

// maxInline is the largest payload sent inside a NOTIFY (PostgreSQL's
// limit is 8000 bytes); larger ones go through a table.
const maxInline = 7000

// Backend is the PostgreSQL implementation of [cluster.Backend].
type Backend struct {
	id      string
	pool    *pgxpool.Pool
	cfg     *pgx.ConnConfig
	channel string
	schema  string
	url     string // redacted, for messages
	log     *zap.Logger
	q       queries

	down      atomic.Bool // an outage was logged and has not ended
	listening atomic.Bool // the LISTEN connection is up: subscriptions are renewed

	mu   sync.Mutex
	subs map[*sub]struct{}

	pub publisher // messages waiting for their NOTIFY

	stop chan struct{}
	wg   sync.WaitGroup
}

type sub struct {
	prefix string
	fn     func(cluster.Message)
	ch     chan cluster.Message
	done   chan struct{}
}

// Redact returns rawURL with its passwords hidden, for messages: the
// user's and the query's password in a URL, and the password of a libpq
// key=value string (host=... password=...), which is not a URL but may
// be given by mistake.
func Redact(rawURL string) string { return pgdsn.Redact(rawURL) }

// Open connects to the database at rawURL, creates the schema and tables
// when missing, and starts listening. It fails when the database cannot be
// reached; the error names the URL without its password.
func Open(ctx context.Context, rawURL string, log *zap.Logger) (*Backend, error) {
	if log == nil {
		log = zap.NewNop()
	}
	red := Redact(rawURL)
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return nil, fmt.Errorf("cluster URL %s: want postgres://user@host:port/database", red)
	}
	schema := schemaOf(u)
	pcfg, err := pgxpool.ParseConfig(u.String())
	if err != nil {
		return nil, fmt.Errorf("cluster URL %s: %s", red, pgdsn.Scrub(err.Error(), rawURL))
	}
	if !strings.Contains(u.RawQuery, "pool_max_conns") {
		pcfg.MaxConns = 4
	}
	if pcfg.ConnConfig.ConnectTimeout == 0 {
		pcfg.ConnConfig.ConnectTimeout = opTimeout
	}
	sum := sha256.Sum256([]byte(schema))
	b := &Backend{
		id: cluster.NewID(), cfg: pcfg.ConnConfig.Copy(), schema: schema, url: red, log: log,
		channel: "mcpgen_" + hex.EncodeToString(sum[:8]),
		subs:    map[*sub]struct{}{}, stop: make(chan struct{}),
		pub: publisher{wake: make(chan struct{}, 1), maxSize: maxNotify},
	}
	b.q = newQueries(pgx.Identifier{schema}.Sanitize())
	b.pool, err = pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("cluster database %s: %s", red, pgdsn.Scrub(err.Error(), rawURL))
	}
	octx, cancel := context.WithTimeout(ctx, 3*opTimeout)
	defer cancel()
	if err := b.migrate(octx); err != nil {
		b.pool.Close()
		if unavailable(err) {
			return nil, fmt.Errorf("cannot reach the cluster database %s: %w: %s", red, cluster.ErrUnavailable, pgdsn.Scrub(err.Error(), rawURL))
		}
		return nil, fmt.Errorf("cluster database %s: %s", red, pgdsn.Scrub(err.Error(), rawURL))
	}
	conn, err := b.listen(octx)
	if err != nil {
		b.pool.Close()
		return nil, fmt.Errorf("cluster database %s: listen: %s", red, pgdsn.Scrub(err.Error(), rawURL))
	}
	b.listening.Store(true)
	b.wg.Add(3)
	go b.listenLoop(conn)
	go b.maintain()
	go b.publishLoop()
	return b, nil
}

// ID returns this replica's identifier.
func (b *Backend) ID() string { return b.id }

// Close stops listening and renewing leases and closes the connections.
func (b *Backend) Close() error {
	select {
	case <-b.stop:
		return nil
	default:
	}
	close(b.stop)
	b.wg.Wait()
	st := b.PublishStats()
	b.log.Info("cluster messages published", zap.Int64("messages", st.Messages), zap.Int64("merged", st.Merged),
		zap.Int64("notifies", st.Notifies), zap.Int64("bytes", st.Bytes))
	ctx, cancel := b.ctx(context.Background())
	if _, err := b.pool.Exec(ctx, b.q.dropSubs, b.id); err != nil { // the others stop counting on us
		b.log.Debug("subscriptions not removed", zap.Error(err))
	}
	cancel()
	b.pool.Close()
	b.mu.Lock()
	for s := range b.subs {
		delete(b.subs, s)
		close(s.done)
	}
	b.mu.Unlock()
	return nil
}

// migrate creates the schema and tables, serialised by an advisory lock so
// that replicas starting together do not race.
func (b *Backend) migrate(ctx context.Context) error {
	return pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "mcpgen cluster "+b.schema); err != nil {
			return err
		}
		for _, stmt := range b.q.migrate {
			if _, err := tx.Exec(ctx, stmt); err != nil {
				return fmt.Errorf("migrate: %w", err)
			}
		}
		return nil
	})
}

// fail wraps a database error: connection-level ones wrap
// cluster.ErrUnavailable and start an outage (logged once).
func (b *Backend) fail(op string, err error) error {
	if !unavailable(err) {
		return fmt.Errorf("cluster %s: %w", op, err)
	}
	if b.down.CompareAndSwap(false, true) {
		b.log.Warn("cluster database unreachable; requests that need it are answered 503 until it is back",
			zap.String("url", b.url), zap.Error(err))
	}
	return fmt.Errorf("cluster %s: %w: %v", op, cluster.ErrUnavailable, err)
}

// ok ends an outage, if one was logged.
func (b *Backend) ok() {
	if b.down.Load() && b.down.CompareAndSwap(true, false) {
		b.log.Info("cluster database reachable again", zap.String("url", b.url))
	}
}

// unavailable tells connection trouble (retryable) from SQL errors.
func unavailable(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"), strings.HasPrefix(pe.Code, "57P"):
			return true
		}
		return false
	}
	return true
}

// dataError reports whether PostgreSQL refused a value we sent (SQLSTATE
// class 22, data exception: invalid UTF-8 or a NUL byte in text, say).
// That is the client's data, not an outage: a lookup by such an id finds
// nothing.
func dataError(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && strings.HasPrefix(pe.Code, "22")
}

// storable reports whether id can be held in a text column: PostgreSQL
// rejects invalid UTF-8 and NUL bytes. Such an id (an Mcp-Session-Id
// header is any bytes the client sent) names no session or task, so it is
// not looked up at all.
func storable(id string) bool {
	return utf8.ValidString(id) && !strings.ContainsRune(id, 0)
}

func (b *Backend) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, opTimeout)
}

// CreateSession stores a new legacy session.
func (b *Backend) CreateSession(ctx context.Context, s cluster.Session) error {
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	_, err := b.pool.Exec(ctx, b.q.createSession, s.ID, s.Subject, s.Version, s.Client, s.ClientCaps,
		s.LogLevel, nonNil(s.Subscribed), s.Initialized, s.Created, s.Expires)
	if err != nil {
		return b.fail("create session", err)
	}
	b.ok()
	return nil
}

// LoadSession returns a live session or cluster.ErrNotFound, also for an
// id that cannot be stored (see storable).
func (b *Backend) LoadSession(ctx context.Context, id string) (cluster.Session, error) {
	if !storable(id) {
		return cluster.Session{}, cluster.ErrNotFound
	}
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	s := cluster.Session{ID: id}
	err := b.pool.QueryRow(ctx, b.q.loadSession, id).Scan(&s.Subject, &s.Version, &s.Client, &s.ClientCaps,
		&s.LogLevel, &s.Subscribed, &s.Initialized, &s.Created, &s.Expires)
	if errors.Is(err, pgx.ErrNoRows) || dataError(err) {
		b.ok()
		return cluster.Session{}, cluster.ErrNotFound
	}
	if err != nil {
		return cluster.Session{}, b.fail("load session", err)
	}
	b.ok()
	return s, nil
}

// UpdateSession changes a session's mutable state in one statement, each
// field from its stored value, so that concurrent changes all stay.
func (b *Backend) UpdateSession(ctx context.Context, id string, u cluster.SessionUpdate) (cluster.Session, error) {
	if !storable(id) {
		return cluster.Session{}, cluster.ErrNotFound
	}
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	s := cluster.Session{ID: id}
	err := b.pool.QueryRow(ctx, b.q.updateSession, id, u.LogLevel, u.Initialized, u.Subscribe, u.Unsubscribe, u.Expires).
		Scan(&s.Subject, &s.Version, &s.Client, &s.ClientCaps, &s.LogLevel, &s.Subscribed, &s.Initialized, &s.Created, &s.Expires)
	if errors.Is(err, pgx.ErrNoRows) {
		b.ok()
		return cluster.Session{}, cluster.ErrNotFound
	}
	if err != nil {
		return cluster.Session{}, b.fail("update session", err)
	}
	b.ok()
	return s, nil
}

// TouchSession moves a session's expiry.
func (b *Backend) TouchSession(ctx context.Context, id string, expires time.Time) error {
	if !storable(id) {
		return cluster.ErrNotFound
	}
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	tag, err := b.pool.Exec(ctx, b.q.touchSession, id, expires)
	if dataError(err) {
		b.ok()
		return cluster.ErrNotFound
	}
	if err != nil {
		return b.fail("touch session", err)
	}
	b.ok()
	if tag.RowsAffected() == 0 {
		return cluster.ErrNotFound
	}
	return nil
}

// DeleteSession removes a session.
func (b *Backend) DeleteSession(ctx context.Context, id string) (bool, error) {
	if !storable(id) {
		return false, nil
	}
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	tag, err := b.pool.Exec(ctx, b.q.deleteSession, id)
	if dataError(err) {
		b.ok()
		return false, nil
	}
	if err != nil {
		return false, b.fail("delete session", err)
	}
	b.ok()
	return tag.RowsAffected() > 0, nil
}

// PutTask creates or updates a task unless it is already terminal. The
// owner's lease starts (or is renewed) with every write.
func (b *Backend) PutTask(ctx context.Context, t cluster.Task) (bool, error) {
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	tag, err := b.pool.Exec(ctx, b.q.putTask, t.ID, t.Subject, t.Owner, t.Status, t.Message,
		t.InputRequests, t.Result, t.Error, t.Created, t.Updated, t.Expires, cluster.LeaseTimeout.Seconds())
	if err != nil {
		return false, b.fail("put task", err)
	}
	b.ok()
	return tag.RowsAffected() > 0, nil
}

// LoadTask returns a task, failing it first when its owner's lease ran out.
func (b *Backend) LoadTask(ctx context.Context, id string) (cluster.Task, error) {
	if !storable(id) {
		return cluster.Task{}, cluster.ErrNotFound
	}
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	if _, err := b.pool.Exec(ctx, b.q.failDead+" AND id = $3", cluster.DeadTaskMessage, []byte(cluster.DeadTaskError), id); dataError(err) {
		b.ok()
		return cluster.Task{}, cluster.ErrNotFound
	} else if err != nil {
		return cluster.Task{}, b.fail("load task", err)
	}
	t := cluster.Task{ID: id}
	err := b.pool.QueryRow(ctx, b.q.loadTask, id).Scan(&t.Subject, &t.Owner, &t.Status, &t.Message,
		&t.InputRequests, &t.Result, &t.Error, &t.Created, &t.Updated, &t.Expires)
	if errors.Is(err, pgx.ErrNoRows) || dataError(err) {
		b.ok()
		return cluster.Task{}, cluster.ErrNotFound
	}
	if err != nil {
		return cluster.Task{}, b.fail("load task", err)
	}
	b.ok()
	return t, nil
}

// SigningKeys returns the signing keys, newest first, creating or rotating
// under an advisory lock.
func (b *Backend) SigningKeys(ctx context.Context) ([][]byte, error) {
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	var keys [][]byte
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "mcpgen keys "+b.schema); err != nil {
			return err
		}
		var fresh bool
		if err := tx.QueryRow(ctx, b.q.freshKey, cluster.KeyRotate.Seconds()).Scan(&fresh); err != nil {
			return err
		}
		if !fresh {
			k := make([]byte, 32)
			_, _ = rand.Read(k)
			if _, err := tx.Exec(ctx, b.q.addKey, k); err != nil {
				return err
			}
		}
		rows, err := tx.Query(ctx, b.q.keys, (cluster.KeyRotate + cluster.KeyRetain).Seconds())
		if err != nil {
			return err
		}
		keys, err = pgx.CollectRows(rows, pgx.RowTo[[]byte])
		return err
	})
	if err != nil {
		return nil, b.fail("signing keys", err)
	}
	b.ok()
	return keys, nil
}

// Subscribe registers fn for messages on topics starting with prefix, and
// records the subscription in the store (see Subscribers) before it
// returns; a failure to record it is logged, and the next renewal
// retries.
func (b *Backend) Subscribe(prefix string, fn func(cluster.Message)) func() {
	s := &sub{prefix: prefix, fn: fn, ch: make(chan cluster.Message, 4096), done: make(chan struct{})}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	ctx, cancel := b.ctx(context.Background())
	if _, err := b.pool.Exec(ctx, b.q.subscribe, b.id, prefix); err != nil {
		b.log.Warn("subscription not recorded; retried with the next renewal", zap.String("prefix", prefix), zap.Error(b.fail("subscribe", err)))
	}
	cancel()
	go func() {
		for {
			select {
			case m := <-s.ch:
				fn(m)
			case <-s.done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			_, ok := b.subs[s]
			if ok {
				delete(b.subs, s)
				close(s.done)
			}
			last := ok && !slices.Contains(b.prefixesLocked(), prefix)
			b.mu.Unlock()
			if last {
				ctx, cancel := b.ctx(context.Background())
				defer cancel()
				if _, err := b.pool.Exec(ctx, b.q.unsubscribe, b.id, prefix); err != nil {
					b.log.Debug("subscription not removed; it lapses", zap.String("prefix", prefix), zap.Error(err))
				}
			}
		})
	}
}

// prefixesLocked returns the prefixes this replica subscribes to.
func (b *Backend) prefixesLocked() []string {
	var out []string
	for s := range b.subs {
		if !slices.Contains(out, s.prefix) {
			out = append(out, s.prefix)
		}
	}
	return out
}

// Subscribers returns the replicas whose subscription to prefix was
// renewed within cluster.LeaseTimeout.
func (b *Backend) Subscribers(ctx context.Context, prefix string) ([]string, error) {
	ctx, cancel := b.ctx(ctx)
	defer cancel()
	rows, err := b.pool.Query(ctx, b.q.subscribers, prefix, cluster.LeaseTimeout.Seconds())
	if err != nil {
		return nil, b.fail("subscribers", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, b.fail("subscribers", err)
	}
	b.ok()
	return ids, nil
}

func (b *Backend) dispatch(m cluster.Message) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s := range b.subs {
		if m.Lost || strings.HasPrefix(m.Topic, s.prefix) {
			select {
			case s.ch <- m:
			case <-s.done:
			}
		}
	}
}

// listen opens the dedicated LISTEN connection.
func (b *Backend) listen(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, b.cfg)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{b.channel}.Sanitize()); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// listenLoop receives notifications and hands them to the subscribers; on
// a broken connection it reconnects with a backoff and reports the gap.
func (b *Backend) listenLoop(conn *pgx.Conn) {
	defer b.wg.Done()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-b.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	backoff := 100 * time.Millisecond
	for {
		if conn == nil {
			var err error
			cctx, ccancel := context.WithTimeout(ctx, opTimeout)
			conn, err = b.listen(cctx)
			ccancel()
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				_ = b.fail("listen", err)
				select {
				case <-time.After(backoff):
				case <-ctx.Done():
					return
				}
				backoff = min(2*backoff, 5*time.Second)
				continue
			}
			backoff = 100 * time.Millisecond
			b.ok()
			b.listening.Store(true)
			b.dispatch(cluster.Message{Lost: true})
		}
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			b.listening.Store(false)
			conn.Close(context.Background())
			conn = nil
			if ctx.Err() != nil {
				return
			}
			_ = b.fail("listen", err)
			continue
		}
		ms, err := b.decode(ctx, n.Payload)
		for _, m := range ms {
			b.dispatch(m)
		}
		if err != nil {
			b.log.Warn("cluster message lost", zap.Error(err))
		}
	}
}

// maintain renews the leases of this replica's running tasks and, while
// its listener is connected, its subscriptions; about once a minute it
// removes expired sessions, tasks, messages, keys and subscriptions, and
// fails the tasks of dead replicas.
func (b *Backend) maintain() {
	defer b.wg.Done()
	tick := time.NewTicker(cluster.LeaseRenew)
	defer tick.Stop()
	var last time.Time
	for {
		select {
		case <-b.stop:
			return
		case <-tick.C:
		}
		ctx, cancel := b.ctx(context.Background())
		if _, err := b.pool.Exec(ctx, b.q.renew, b.id, cluster.LeaseTimeout.Seconds()); err != nil {
			_ = b.fail("renew task leases", err)
			cancel()
			continue
		}
		b.mu.Lock()
		prefixes := b.prefixesLocked()
		b.mu.Unlock()
		// A replica that hears no messages cannot confirm them: its
		// subscriptions lapse until its listener is back.
		if len(prefixes) > 0 && b.listening.Load() {
			if _, err := b.pool.Exec(ctx, b.q.renewSubs, b.id, prefixes); err != nil {
				_ = b.fail("renew subscriptions", err)
			}
		}
		if time.Since(last) > time.Minute {
			last = time.Now()
			for _, stmt := range b.q.cleanup {
				if _, err := b.pool.Exec(ctx, stmt); err != nil {
					_ = b.fail("clean up", err)
					break
				}
			}
			if _, err := b.pool.Exec(ctx, b.q.failDead, cluster.DeadTaskMessage, []byte(cluster.DeadTaskError)); err != nil {
				_ = b.fail("fail dead tasks", err)
			}
		}
		cancel()
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// DropSchema removes the schema rawURL names (its schema parameter, default
// mcpgen) with everything in it: cleanup for tests and benchmarks that
// made a fresh one.
func DropSchema(ctx context.Context, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return fmt.Errorf("cluster URL %s: %w", Redact(rawURL), err)
	}
	schema := schemaOf(u)
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		return fmt.Errorf("cluster database %s: %w", Redact(rawURL), err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
	return err
}

// SchemaOf is schemaOf for the other stores on the cluster's database
// (pgcluster.OpenEventStore), so that they share its schema.
func SchemaOf(u *url.URL) string { return schemaOf(u) }

// schemaOf returns the schema a cluster URL names and removes the schema
// parameter (ours, not PostgreSQL's) from u: the schema parameter, else
// the first schema of search_path (so that a store and the cluster given
// one URL share a schema), else "mcpgen".
func schemaOf(u *url.URL) string {
	q := u.Query()
	schema := q.Get("schema")
	q.Del("schema")
	u.RawQuery = q.Encode()
	if schema == "" {
		first, _, _ := strings.Cut(q.Get("search_path"), ",")
		schema = strings.Trim(strings.TrimSpace(first), `"`)
	}
	if schema == "" || schema == "$user" {
		schema = "mcpgen"
	}
	return schema
}
