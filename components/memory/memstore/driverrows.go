package memstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
)

// tableRows are the rows of one query of the tables' walk (readBatches):
// driverRows, or a tableReader's readerRows. next steps to the next row
// (false at the end); int64 and text read its columns; the strings may be
// kept.
type tableRows interface {
	next() (bool, error)
	int64(i int) (int64, error)
	text(i int) (string, error)
	close() error
}

// tableQuerier runs a query without parameters for readBatches.
type tableQuerier func(query string) (tableRows, error)

// driverRows reads the rows of one query from the SQLite driver directly,
// below database/sql: read_graph past the mirror's budget reads every row
// of three tables, and database/sql costs per row (a lock, a context
// check, a conversion of each value into its destination) about as much
// as the driver's own work (docs/bench/log.md, item 69). The values of a
// row are in a slice reused for the next row; a text column's string is
// the driver's own copy, safe to keep.
type driverRows struct {
	rows driver.Rows
	dest []driver.Value
}

// driverQuerier runs queries on the driver connection dc of a SQLite
// transaction.
func driverQuerier(ctx context.Context, dc any) tableQuerier {
	return func(query string) (tableRows, error) { return driverQuery(ctx, dc, query) }
}

// driverQuery runs query (without arguments) on the driver connection dc
// of a SQLite transaction; the rows must be closed.
func driverQuery(ctx context.Context, dc any, query string) (*driverRows, error) {
	q, ok := dc.(driver.QueryerContext)
	if !ok {
		return nil, fmt.Errorf("internal error: the SQLite driver's connection (%T) cannot query, please report", dc)
	}
	rows, err := q.QueryContext(ctx, query, nil)
	if err != nil {
		return nil, err
	}
	return &driverRows{rows: rows, dest: make([]driver.Value, len(rows.Columns()))}, nil
}

// next reads the next row; false at the end.
func (r *driverRows) next() (bool, error) {
	err := r.rows.Next(r.dest)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	return err == nil, err
}

// int64 is column i of the row as an integer (the tables' ids).
func (r *driverRows) int64(i int) (int64, error) {
	if v, ok := r.dest[i].(int64); ok {
		return v, nil
	}
	return 0, fmt.Errorf("column %d holds %T, not an integer", i, r.dest[i])
}

// text is column i of the row as a string (the tables' texts, NOT NULL);
// a blob, which no write of the store makes, is taken as its bytes.
func (r *driverRows) text(i int) (string, error) {
	switch v := r.dest[i].(type) {
	case string:
		return v, nil
	case []byte:
		return string(v), nil
	}
	return "", fmt.Errorf("column %d holds %T, not a text", i, r.dest[i])
}

// close closes the rows.
func (r *driverRows) close() error { return r.rows.Close() }

// raw runs f with the driver connection of tx, on which tx is open: a
// query f runs there reads tx's snapshot. f must not use tx meanwhile
// (database/sql holds the connection's lock).
func (t *txn) raw(f func(dc any) error) error { return t.c.c.Raw(f) }
