package memstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// conn is one connection of the SQLite store with its prepared
// statements, used by one goroutine at a time (the write connection under
// wconn, a read connection while taken from its pool). Every query is
// prepared once per connection: SQLite's parser, compiled from C to Go,
// costs tens of microseconds a statement, more than many of the lookups it
// prepares, and a call runs several. The set of query texts is fixed (IN
// lists come in a few padded sizes, see inList), so nothing is evicted.
//
// The statements belong to the connection, not to a transaction: SQLite's
// transactions are per connection, so a statement run on the connection
// while a transaction is open on it runs inside that transaction.
type conn struct {
	c     *sql.Conn
	stmts map[string]*sql.Stmt
}

// openConn takes a connection of db for the store's own use.
func openConn(ctx context.Context, db *sql.DB) (*conn, error) {
	c, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &conn{c: c, stmts: map[string]*sql.Stmt{}}, nil
}

// stmt returns query prepared on the connection.
func (c *conn) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := c.c.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("memstore: prepare: %w", err)
	}
	c.stmts[query] = st
	return st, nil
}

// begin starts a transaction on the connection.
func (c *conn) begin(ctx context.Context, opts *sql.TxOptions) (*txn, error) {
	tx, err := c.c.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txn{Tx: tx, c: c}, nil
}

// close closes the statements and gives the connection back to
// database/sql (which closes it when its pool is closed).
func (c *conn) close() error {
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = nil
	return c.c.Close()
}

// connPool hands out the read connections, opening up to its capacity.
type connPool struct {
	db   *sql.DB
	free chan *conn    // idle connections
	open chan struct{} // a token per open connection
}

func newConnPool(db *sql.DB, n int) *connPool {
	return &connPool{db: db, free: make(chan *conn, n), open: make(chan struct{}, n)}
}

// get takes an idle connection, opens one if the pool is not full, or
// waits for one.
func (p *connPool) get(ctx context.Context) (*conn, error) {
	select {
	case c := <-p.free:
		return c, nil
	default:
	}
	select {
	case c := <-p.free:
		return c, nil
	case p.open <- struct{}{}:
		c, err := openConn(ctx, p.db)
		if err != nil {
			<-p.open
			return nil, err
		}
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put gives back a connection taken with get; a broken one is closed.
func (p *connPool) put(c *conn, broken bool) {
	if broken {
		c.close()
		<-p.open
		return
	}
	p.free <- c
}

// close closes the idle connections.
func (p *connPool) close() {
	for {
		select {
		case c := <-p.free:
			c.close()
		default:
			return
		}
	}
}

// txn is a transaction of the SQLite store; its queries run on the
// connection's prepared statements.
type txn struct {
	*sql.Tx
	c *conn
}

// QueryContext is sql.Tx's, on a prepared statement.
func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := t.c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext is sql.Tx's, on a prepared statement.
func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := t.c.stmt(ctx, query)
	if err != nil {
		// Only a query can make a Row carrying an error to Scan.
		return t.Tx.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// ExecContext is sql.Tx's, on a prepared statement.
func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := t.c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// inList returns the placeholders of an IN (...) list for values and the
// arguments to bind to them: the list is padded to the next power of two
// by repeating the last value (IN tests membership, so a repeat changes
// nothing), so that the statement cache sees a few query texts, not one
// per list length. values must not be empty.
func inList[T any](values []T) (placeholders string, args []any) {
	n := 1
	for n < len(values) {
		n *= 2
	}
	args = make([]any, n)
	for i := range args {
		args[i] = values[min(i, len(values)-1)]
	}
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", "), args
}
