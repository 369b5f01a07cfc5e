package memstore

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mcpgen/mcpgen/pgdsn"
)

// Postgres is the Store backed by a PostgreSQL database, so that several
// mcp-memory replicas can serve one graph. Its tables (all named memory_*)
// live in the connection's current schema: the first schema of the
// search_path, which a URL can set with "?search_path=NAME".
//
// It runs the same operations as SQLite (ops.go) and so behaves exactly
// like it; the differences are in how it stores and finds rows:
//
// Writes: every mutating call is one transaction that first takes a
// transaction-scoped advisory lock (one per schema), so the writes of all
// replicas are serialized as SQLite's are. This makes the change feed's
// order the commit order: a reader that has seen change N never later
// finds a change below N appear, so cursors work across replicas. The
// feed's sequence is a counter row (memory_feed), not a PostgreSQL
// sequence, so it has no gaps and Head never runs ahead of what is
// visible. Statements whose results the call does not need are pipelined
// in batches and sent before the next query or the commit; many rows go
// by COPY; the call's feed rows are written once, at its end.
//
// Reads: every read call is one REPEATABLE READ, READ ONLY transaction,
// i.e. one consistent snapshot.
//
// Text: PostgreSQL text cannot hold NUL, which the reference accepts in
// any string; every stored string therefore goes through pgEnc (NUL and
// \x01 become two-byte escapes), an order- and prefix-preserving code, and
// text columns use the "C" collation, so ordering is byte order as in Go.
// Names are looked up by a SHA-256 key column, since btree entries are
// limited to about 2.7 KB and names may be 4 KiB.
//
// Search: the lower-cased text (jsLower, JavaScript's rules) of names,
// types and observations is stored beside the original and indexed with
// pg_trgm; LIKE on it finds the candidates and every candidate is then
// checked with the reference's predicate, so results equal the
// reference's. The folded texts are recomputed on open when the
// lower-casing changed (foldVersion).
//
// Migrations are versioned (memory_schema_version), run in one
// transaction under an advisory lock, so replicas starting at once
// migrate exactly once.
type Postgres struct {
	ops // the Store operations, over this engine (see update and view)

	pool      *pgxpool.Pool
	retention int64
	history   int64 // history rows kept (WithHistoryRetention)
	writeLock int64 // advisory lock key serializing writes in this schema

	schema     string // the schema holding the tables
	searchPath string // the connection's search_path, the URL's
	// The statements beginning a write and a read transaction: for a
	// named graph (see Graphs) they put its schema first in the
	// search_path; empty for the URL's own schema.
	beginWrite, beginRead string

	// Rows this process wrote since it last analyzed the tables, and
	// before (see analyzeIfGrown).
	grown, analyzed atomic.Int64
}

var _ Store = (*Postgres)(nil)

// IsPostgresURL reports whether db names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// RedactURL returns u with its passwords replaced by "xxxxx", for
// messages and logs: the user's password and the query's password= (and
// sslpassword=), which libpq reads too. A string that does not parse is
// returned as a placeholder since it might hold a password anywhere.
func RedactURL(u string) string { return pgdsn.Redact(u) }

// OpenPostgres connects to the PostgreSQL database at dbURL (a postgres://
// URL), brings the schema up to date and returns the store. The options
// WithChangeRetention and WithReadConns (the pool size) apply; the SQLite
// file options are ignored. An unreachable server is an error naming the
// URL without its password.
func OpenPostgres(ctx context.Context, dbURL string, opts ...Option) (*Postgres, error) {
	o := defaultOptions()
	for _, f := range opts {
		f(&o)
	}
	where := RedactURL(dbURL)
	if !IsPostgresURL(dbURL) {
		return nil, fmt.Errorf("%w: %s is not a postgres:// URL", ErrInvalid, where)
	}
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, fmt.Errorf("%w: database URL %s: %v", ErrInvalid, where, redactErr(err, dbURL))
	}
	if o.readConns > 0 {
		cfg.MaxConns = int32(o.readConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("memstore: connect to %s: %v", where, redactErr(err, dbURL))
	}
	s := &Postgres{pool: pool, retention: int64(max(o.retention, 1)), history: int64(max(o.historyRetention, 1))}
	s.ops = ops{eng: s, d: postgresDialect}
	var schema *string
	err = pool.QueryRow(ctx, `SELECT current_schema(), current_setting('search_path'), hashtextextended('mcp-memory write ' || coalesce(current_schema(), ''), 0)`).Scan(&schema, &s.searchPath, &s.writeLock)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("memstore: connect to %s: %v", where, redactErr(err, dbURL))
	}
	if schema == nil {
		pool.Close()
		return nil, fmt.Errorf("memstore: open %s: no schema selected (the search_path names no existing schema)", where)
	}
	s.schema = *schema
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("memstore: open %s: %w", where, err)
	}
	return s, nil
}

// redactErr returns err's message with the URL's passwords, if any,
// removed, in case a driver quotes the connection string.
func redactErr(err error, dbURL string) string {
	return pgdsn.Scrub(err.Error(), dbURL)
}

// Close closes the connection pool; a named graph's store (see Graphs)
// shares its pool with the default graph's, which closes it.
func (s *Postgres) Close() error {
	if s.beginWrite == "" {
		s.pool.Close()
	}
	return nil
}

// migrate applies pending migrations in one transaction under an advisory
// lock scoped to the schema, so replicas that start at once migrate
// exactly once, and recomputes the folded search texts if they were made
// with another foldVersion.
func (s *Postgres) migrate(ctx context.Context) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{BeginQuery: s.beginWrite})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// The write lock too, after the migration lock (writers take only the
	// write lock, so the order cannot deadlock): a replica of an older
	// version that is still writing never meets a half-changed schema.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('mcp-memory migrate ' || current_schema(), 0))`); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, s.writeLock); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS memory_schema_version (
		version    integer PRIMARY KEY,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("schema version table: %w", err)
	}
	var v int
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM memory_schema_version`).Scan(&v); err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if v > len(pgMigrations) {
		return fmt.Errorf("database schema version %d is newer than this program supports (%d)", v, len(pgMigrations))
	}
	if v < len(pgMigrations) {
		trgm, err := ensureTrgm(ctx, tx)
		if err != nil {
			return err
		}
		for ; v < len(pgMigrations); v++ {
			ddl := strings.ReplaceAll(pgMigrations[v], "{trgm}", pgx.Identifier{trgm}.Sanitize())
			if _, err := tx.Exec(ctx, ddl); err != nil {
				return fmt.Errorf("migration %d: %w", v+1, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO memory_schema_version (version) VALUES ($1)`, v+1); err != nil {
				return fmt.Errorf("migration %d: %w", v+1, err)
			}
		}
	}
	var fv string
	err = tx.QueryRow(ctx, `SELECT value FROM memory_meta WHERE key = 'fold_version'`).Scan(&fv)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	if fv != foldVersion {
		if err := refold(ctx, tx); err != nil {
			return fmt.Errorf("rebuild search texts: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO memory_meta (key, value) VALUES ('fold_version', $1)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, foldVersion); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// ensureTrgm installs the pg_trgm extension unless it is installed and
// returns the schema holding it. A new installation goes to schema public
// when it exists and we may create in it (so that dropping one store's
// schema never drops the extension other schemas' indexes use), else to
// the current schema. A
// database-wide advisory lock keeps concurrent installers apart.
func ensureTrgm(ctx context.Context, tx pgx.Tx) (string, error) {
	const find = `SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm'`
	var nsp string
	err := tx.QueryRow(ctx, find).Scan(&nsp)
	if err == nil {
		return nsp, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("look for pg_trgm: %w", err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('mcp-memory pg_trgm', 0))`); err != nil {
		return "", fmt.Errorf("pg_trgm lock: %w", err)
	}
	if err := tx.QueryRow(ctx, find).Scan(&nsp); err == nil {
		return nsp, nil
	}
	var public bool
	var current string
	err = tx.QueryRow(ctx, `SELECT coalesce((SELECT has_schema_privilege(oid, 'CREATE') FROM pg_namespace WHERE nspname = 'public'), false),
		current_schema()`).Scan(&public, &current)
	if err != nil {
		return "", fmt.Errorf("pg_trgm schema: %w", err)
	}
	target := current
	if public {
		target = "public"
	}
	if _, err := tx.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA `+pgx.Identifier{target}.Sanitize()); err != nil {
		return "", fmt.Errorf("install pg_trgm in schema %s (needed for search; a superuser can run CREATE EXTENSION pg_trgm): %w", target, err)
	}
	return target, nil
}

// refold recomputes every folded column from the stored text.
func refold(ctx context.Context, tx pgx.Tx) error {
	type row struct {
		id               int64
		name, typ, other string
	}
	var ents []row
	err := pgEachRow(ctx, tx, `SELECT id, name, entity_type FROM memory_entities`, nil, func(r pgx.Rows) error {
		var e row
		err := r.Scan(&e.id, &e.name, &e.typ)
		ents = append(ents, e)
		return err
	})
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, e := range ents {
		name, typ := pgDec(e.name), pgDec(e.typ)
		b.Queue(`UPDATE memory_entities SET name_fold = $2, search = $3 WHERE id = $1`,
			e.id, pgEnc(strings.ToLower(name)), pgEnc(pgHeaderText(name, typ)))
	}
	var obs []row
	err = pgEachRow(ctx, tx, `SELECT id, content FROM memory_observations`, nil, func(r pgx.Rows) error {
		var o row
		err := r.Scan(&o.id, &o.other)
		obs = append(obs, o)
		return err
	})
	if err != nil {
		return err
	}
	for _, o := range obs {
		b.Queue(`UPDATE memory_observations SET search = $2 WHERE id = $1`, o.id, obsSearch(pgDec(o.other)))
	}
	return tx.SendBatch(ctx, b).Close()
}

// pgWriter is the state of one write transaction.
type pgWriter struct {
	ctx      context.Context
	tx       pgx.Tx
	now      int64      // Unix nanoseconds, the same for all changes of the call
	batch    *pgx.Batch // queued statements whose results are not needed
	head     int64      // seq of the newest change, including this call's
	changes  [][]any    // rows for memory_changes, written at the end
	history  [][]any    // rows for memory_history, written at the end
	author   string     // whom the call's changes are recorded as (authorOf), not encoded
	inserted int        // rows inserted (insertRows), for analyzeIfGrown
	err      error      // first failure of a flush made by queue, reported by the next flush
}

// maxQueued is the number of queued statements sent in one round trip.
const maxQueued = 1000

// write runs fn in one transaction holding the schema's write lock, then
// records the feed's new head, prunes it and commits. If anything fails the
// transaction is rolled back and nothing changes.
func (s *Postgres) write(ctx context.Context, fn func(w *pgWriter) error) (err error) {
	defer func() { err = pgUnreachable(ctx, err) }()
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{BeginQuery: s.beginWrite})
	if err != nil {
		return fmt.Errorf("memstore: begin write: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
		}
	}()
	w := &pgWriter{ctx: ctx, tx: tx, now: time.Now().UnixNano(), batch: &pgx.Batch{}, author: authorOf(ctx)}
	// Two statements: in READ COMMITTED each statement reads a snapshot
	// taken when it starts, so the head must be read after the lock is
	// held, by a later statement (pipelined in one round trip).
	lock := &pgx.Batch{}
	lock.Queue(`SELECT pg_advisory_xact_lock($1)`, s.writeLock)
	lock.Queue(`SELECT head FROM memory_feed`).QueryRow(func(r pgx.Row) error { return r.Scan(&w.head) })
	if err = tx.SendBatch(ctx, lock).Close(); err != nil {
		return fmt.Errorf("memstore: begin write: %w", err)
	}
	if err = fn(w); err != nil {
		return err
	}
	// The prunes bound their range on both sides (the lower bound always
	// holds): with one side only, the planner of a prepared statement
	// guesses a third of the table and scans all of it, 30 ms a write at
	// 300,000 history rows; a two-sided range is an index scan.
	if len(w.changes) > 0 {
		// Changes the retention would prune at once are not written.
		keep := w.changes[max(0, int64(len(w.changes))-s.retention):]
		if err = w.insertRows("memory_changes", []string{"seq", "kind", "subject", "detail", "rel_to", "rel_type", "task_id", "at", "author"}, keep); err != nil {
			return err
		}
		w.queue(`UPDATE memory_feed SET head = $1`, w.head)
		w.queue(`DELETE FROM memory_changes WHERE seq >= (SELECT min(seq) FROM memory_changes) AND seq <= $1`, w.head-s.retention)
	}
	if len(w.history) > 0 {
		if err = w.insertRows("memory_history", []string{"entity", "seq", "kind", "detail", "rel_from", "rel_to", "rel_type", "author", "at"}, w.history); err != nil {
			return err
		}
		w.queue(`DELETE FROM memory_history WHERE id >= (SELECT min(id) FROM memory_history) AND id <= (SELECT max(id) FROM memory_history) - $1`, s.history)
	}
	if err = w.flush(); err != nil {
		return err
	}
	if err = tx.Commit(ctx); err != nil {
		return fmt.Errorf("memstore: commit: %w", err)
	}
	s.analyzeIfGrown(ctx, w.inserted)
	return nil
}

// analyzeMinRows is the growth (rows written) that makes a store analyze
// its tables, and then at least their number at the last analysis.
const analyzeMinRows = 1000

// analyzeIfGrown analyzes the tables once the rows written since the last
// analysis (inserted more now) reach the rows written before it, or
// analyzeMinRows: each time a store filled by this process has about
// doubled (one reopened large analyzes a few more times, the first
// thousands of rows apart, and then rarely). A statement's plan
// is cached (pgx prepares them) from the table's size when it was first
// planned, and autovacuum analyzes a table a minute or more after it
// grew: an empty store filled by large writes (an import, the bench's
// batches of 5,000) kept planning sequential scans of entities and
// relations for lookups by name, 30 to 80 ms a small call at 100,000
// entities and seconds a batch while growing. ANALYZE updates the
// statistics and makes PostgreSQL plan those statements again. It runs
// after the write's commit, in a transaction of its own (it locks no
// writer out); a failure only leaves the statistics as they were.
func (s *Postgres) analyzeIfGrown(ctx context.Context, inserted int) {
	grown := s.grown.Add(int64(inserted))
	if grown < max(analyzeMinRows, s.analyzed.Load()) || !s.grown.CompareAndSwap(grown, 0) {
		return
	}
	s.analyzed.Add(grown)
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{BeginQuery: s.beginWrite})
	if err != nil {
		return
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `ANALYZE memory_entities, memory_observations, memory_relations, memory_history`); err == nil {
		_ = tx.Commit(ctx)
	}
}

// queue adds a statement to the pipeline; it is sent before the next query
// (see flush) or as soon as maxQueued statements are waiting. A failure
// is reported by the next flush, which every write ends with.
func (w *pgWriter) queue(query string, args ...any) {
	w.batch.Queue(query, args...)
	if w.batch.Len() >= maxQueued {
		_ = w.flush()
	}
}

// flush sends the queued statements and reports the first failure.
func (w *pgWriter) flush() error {
	if w.err == nil && w.batch.Len() > 0 {
		b := w.batch
		w.batch = &pgx.Batch{}
		if err := w.tx.SendBatch(w.ctx, b).Close(); err != nil {
			w.err = fmt.Errorf("memstore: %w", err)
		}
	}
	return w.err
}

// copyThreshold is the number of rows from which insertRows uses COPY
// rather than queued INSERTs.
const copyThreshold = 64

// insertRows inserts rows into table: by COPY when there are many, else
// as queued INSERTs.
func (w *pgWriter) insertRows(table string, columns []string, rows [][]any) error {
	w.inserted += len(rows)
	if len(rows) >= copyThreshold {
		if err := w.flush(); err != nil {
			return err
		}
		if _, err := w.tx.CopyFrom(w.ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("memstore: copy into %s: %w", table, err)
		}
		return nil
	}
	marks := make([]string, len(columns))
	for i := range marks {
		marks[i] = fmt.Sprintf("$%d", i+1)
	}
	q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (%s)", table, strings.Join(columns, ", "), strings.Join(marks, ", "))
	for _, r := range rows {
		w.queue(q, r...)
	}
	return nil
}

// query flushes the pipeline and runs a query, calling scan for each row.
func (w *pgWriter) query(query string, args []any, scan func(pgx.Rows) error) error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := pgEachRow(w.ctx, w.tx, query, args, scan); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	return nil
}

// queryRow flushes the pipeline and runs a single-row query.
func (w *pgWriter) queryRow(query string, args []any, dest ...any) error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.tx.QueryRow(w.ctx, query, args...).Scan(dest...); err != nil {
		return fmt.Errorf("memstore: %w", err)
	}
	return nil
}

// allocIDs returns n new ids, ascending, from sequence seq.
func (w *pgWriter) allocIDs(seq string, n int) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	ids, err := appendIDs(w, make([]int64, 0, n), `SELECT nextval($1::regclass) FROM generate_series(1, $2)`, []any{seq, n})
	if err != nil {
		return nil, err
	}
	if len(ids) != n {
		return nil, fmt.Errorf("memstore: %s gave %d ids, want %d", seq, len(ids), n)
	}
	// nextval's values are increasing in call order; sorting makes no
	// assumption about the order rows come back in.
	slices.Sort(ids)
	return ids, nil
}

// logChange implements writeTx: the rows of the change feed and of the
// histories are written by write at the end of the call.
func (w *pgWriter) logChange(kind ChangeKind, subject, detail string, rel *Relation, taskID int64) error {
	var relTo, relType *string
	var tid *int64
	if rel != nil {
		to, typ := pgEnc(rel.To), pgEnc(rel.RelationType)
		subject, relTo, relType = rel.From, &to, &typ
	}
	if taskID != 0 {
		tid = &taskID
	}
	w.head++
	detail = truncate(detail, MaxChangeDetailBytes)
	w.changes = append(w.changes, []any{w.head, string(kind), pgEnc(subject), pgEnc(detail), relTo, relType, tid, w.now, pgEnc(w.author)})
	for _, e := range historyEntities(kind, subject, rel) {
		_ = w.addHistory(historyLine{Entity: e, Seq: w.head, Kind: kind, Detail: detail, Relation: rel, Author: w.author, At: time.Unix(0, w.now)})
	}
	return nil
}

// addHistory implements writeTx: the row is written by write at the end
// of the call.
func (w *pgWriter) addHistory(h historyLine) error {
	var from, to, typ *string
	if r := h.Relation; r != nil {
		f, t, ty := pgEnc(r.From), pgEnc(r.To), pgEnc(r.RelationType)
		from, to, typ = &f, &t, &ty
	}
	w.history = append(w.history, []any{pgEnc(h.Entity), h.Seq, string(h.Kind), pgEnc(h.Detail), from, to, typ, pgEnc(h.Author), h.At.UnixNano()})
	return nil
}

// read runs fn in one REPEATABLE READ, READ ONLY transaction: one
// consistent snapshot.
func (s *Postgres) read(ctx context.Context, fn func(tx pgx.Tx) error) (err error) {
	defer func() { err = pgUnreachable(ctx, err) }()
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly, BeginQuery: s.beginRead})
	if err != nil {
		return fmt.Errorf("memstore: begin read: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// update implements engine.
func (s *Postgres) update(ctx context.Context, fn func(w writeTx) error) error {
	return s.write(ctx, func(w *pgWriter) error { return fn(w) })
}

// view implements engine.
func (s *Postgres) view(ctx context.Context, fn func(r readTx) error) error {
	return s.read(ctx, func(tx pgx.Tx) error { return fn(pgView{ctx: ctx, tx: tx}) })
}

// pgUnreachable marks an error that means the database could not be
// reached (refused, reset, timed out, closed mid-call) with
// ErrUnavailable, so that the client gets a retryable error rather
// than a failed tool call; errors the server answered pass unchanged.
func pgUnreachable(ctx context.Context, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, ErrUnavailable) {
		return err
	}
	var answered *pgconn.PgError
	if errors.As(err, &answered) {
		return err
	}
	var connect *pgconn.ConnectError
	var netErr net.Error
	if errors.As(err, &connect) || errors.As(err, &netErr) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		pgconn.Timeout(err) || pgconn.SafeToRetry(err) {
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// pgEachRow runs query and calls scan for every row.
func pgEachRow(ctx context.Context, tx pgx.Tx, query string, args []any, scan func(pgx.Rows) error) error {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	return scanRows(rows, scan)
}

// pgEnc encodes s for a PostgreSQL text column, which cannot hold NUL:
// \x00 becomes \x01\x01 and \x01 becomes \x01\x02. The code is prefix-free
// and keeps byte order, so equality, prefixes and "C" collation order of
// encoded strings are those of the originals, and a substring of s encodes
// to a substring of pgEnc(s).
func pgEnc(s string) string {
	if !strings.ContainsAny(s, "\x00\x01") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case 0, 1:
			b.WriteByte(1)
			b.WriteByte(c + 1)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// pgDec reverses pgEnc.
func pgDec(s string) string {
	if strings.IndexByte(s, 1) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 1 && i+1 < len(s) {
			i++
			c = s[i] - 1
		}
		b.WriteByte(c)
	}
	return b.String()
}

// nameKey is the lookup key of an entity name.
func nameKey(name string) []byte {
	k := sha256.Sum256([]byte(name))
	return k[:]
}

// relationKey is the lookup key of a relation triple: SHA-256 over the
// three strings, each preceded by its length, so distinct triples never
// share an input.
func relationKey(r Relation) []byte {
	h := sha256.New()
	var n [8]byte
	for _, s := range []string{r.From, r.To, r.RelationType} {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}

// obsSearch is the memory_observations.search value of content: its
// encoded lower-cased form, or nil when that equals the encoded content.
func obsSearch(content string) *string {
	l := jsLower(content)
	if l == content {
		return nil
	}
	e := pgEnc(l)
	return &e
}

// likeContains returns the LIKE pattern matching any text containing the
// (encoded) needle.
func likeContains(needle string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(needle) + "%"
}
