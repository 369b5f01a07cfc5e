package memstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// tableReader is a read connection to the store's file of its own, made
// through SQLite's C API as modernc.org/sqlite transpiles it to Go
// (modernc.org/sqlite/lib), below the driver: read_graph past the
// mirror's budget reads every row of three tables, and through the driver
// each value cost more than SQLite's own work for it: three calls each
// taking the connection's mutex (the driver opens every connection
// SQLITE_OPEN_FULLMUTEX), a Go string and an interface allocated
// (docs/bench/log.md, item 69). This connection is opened
// SQLITE_OPEN_NOMUTEX, used by one walk at a time (mu), and copies each
// text into chunks of memory shared by many strings.
//
// It reads its own snapshot, which is the walk's only when the change
// feed's last Seq there is the one the walk's transaction saw: every
// change to the graph logs a change and Seq values only grow (the
// mirror's rule, mirror.go); otherwise the walk reads through its
// transaction as before (walkTables).
type tableReader struct {
	mu      sync.Mutex
	uri     string // the file, as a SQLite URI
	timeout int64  // busy_timeout, milliseconds
	tls     *libc.TLS
	db      uintptr // sqlite3*; 0 while not open
	closed  bool
	out     uintptr // C memory where a C call writes a pointer it returns
}

// cMem is the n bytes at p, memory of the transpiled SQLite (allocated by
// modernc.org/libc, outside the Go heap, never moved by the garbage
// collector): valid until SQLite frees or reuses it, which for a column's
// text is the statement's next step. Written with unsafe.Add from a nil
// pointer, not a conversion of p, which vet's unsafeptr check reports
// since it cannot tell such memory from Go's.
func cMem(p uintptr, n int) []byte {
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(nil), p)), n)
}

// outPtr is the pointer a C call wrote at r.out.
func (r *tableReader) outPtr() uintptr {
	return *(*uintptr)(unsafe.Add(unsafe.Pointer(nil), r.out)) // as cMem
}

// walk runs read on the reader's connection at the snapshot whose change
// feed ends at seq, opening the connection first if need be. ok is false,
// and read was not run, when the reader is in use by another walk, or
// closed, or could not open or begin (the walk's transaction serves
// instead, and reports what is wrong with the file), or its snapshot is
// not at seq.
func (r *tableReader) walk(ctx context.Context, seq int64, read func(q tableQuerier) error) (ok bool, err error) {
	if !r.mu.TryLock() {
		return false, nil
	}
	defer r.mu.Unlock()
	if r.closed || r.db == 0 && r.open() != nil || r.exec("BEGIN") != nil {
		return false, nil
	}
	defer r.exec("ROLLBACK")
	if at, err := r.seq(); err != nil || at != seq {
		return false, nil
	}
	return true, read(func(query string) (tableRows, error) { return r.query(ctx, query) })
}

// open opens the connection.
func (r *tableReader) open() error {
	if r.tls == nil {
		r.tls = libc.NewTLS()
		if r.out = libc.Xmalloc(r.tls, libc.Tsize_t(unsafe.Sizeof(uintptr(0)))); r.out == 0 {
			r.tls.Close()
			r.tls = nil
			return errors.New("out of memory")
		}
	}
	name, err := libc.CString(r.uri)
	if err != nil {
		return err
	}
	defer libc.Xfree(r.tls, name)
	rc := sqlite3.Xsqlite3_open_v2(r.tls, name, r.out,
		sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_NOMUTEX|sqlite3.SQLITE_OPEN_URI, 0)
	r.db = r.outPtr()
	if rc != sqlite3.SQLITE_OK {
		err := r.err(rc)
		r.closeDB()
		return fmt.Errorf("open %s: %w", r.uri, err)
	}
	// As the store's read connections: no writes, no memory map, the
	// same wait for a lock.
	if err := r.exec(fmt.Sprintf("PRAGMA query_only = 1; PRAGMA mmap_size = %d; PRAGMA busy_timeout = %d", mmapSize, r.timeout)); err != nil {
		r.closeDB()
		return err
	}
	return nil
}

// close closes the connection, waiting for a walk under way; later walks
// find it closed.
func (r *tableReader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	r.closeDB()
	if r.tls != nil {
		libc.Xfree(r.tls, r.out)
		r.tls.Close()
		r.tls = nil
	}
}

// closeDB closes the SQLite connection, if open.
func (r *tableReader) closeDB() {
	if r.db != 0 {
		sqlite3.Xsqlite3_close_v2(r.tls, r.db)
		r.db = 0
	}
}

// err is the connection's error for result code rc.
func (r *tableReader) err(rc int32) error {
	if r.db == 0 {
		return fmt.Errorf("sqlite: result code %d", rc)
	}
	return fmt.Errorf("%s (%d)", libc.GoString(sqlite3.Xsqlite3_errmsg(r.tls, r.db)), rc)
}

// exec runs statements without results.
func (r *tableReader) exec(sql string) error {
	z, err := libc.CString(sql)
	if err != nil {
		return err
	}
	defer libc.Xfree(r.tls, z)
	if rc := sqlite3.Xsqlite3_exec(r.tls, r.db, z, 0, 0, 0); rc != sqlite3.SQLITE_OK {
		return r.err(rc)
	}
	return nil
}

// seq is feedSeq on the connection.
func (r *tableReader) seq() (int64, error) {
	rows, err := r.query(context.Background(), `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0)`)
	if err != nil {
		return 0, err
	}
	defer rows.close()
	ok, err := rows.next()
	if !ok || err != nil {
		return 0, errors.Join(err, errors.New("no row"))
	}
	return rows.int64(0)
}

// query prepares query (without parameters) for stepping.
func (r *tableReader) query(ctx context.Context, query string) (*readerRows, error) {
	z, err := libc.CString(query)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(r.tls, z)
	if rc := sqlite3.Xsqlite3_prepare_v2(r.tls, r.db, z, -1, r.out, 0); rc != sqlite3.SQLITE_OK {
		return nil, r.err(rc)
	}
	return &readerRows{r: r, ctx: ctx, stmt: r.outPtr()}, nil
}

// readerRows are the rows of a tableReader's statement. A text is copied
// into a chunk of Go memory that later texts share (textChunk), not
// allocated alone: the strings handed out may be kept, and keep their
// chunk.
type readerRows struct {
	r     *tableReader
	ctx   context.Context
	stmt  uintptr // sqlite3_stmt*
	chunk []byte  // the rest of the current chunk
	n     int     // rows read
}

// textChunk is the size of the chunks texts are copied into; a longer
// text gets memory of its own.
const textChunk = 64 << 10

// next steps to the next row; false at the end. The context is looked at
// every 1,024 rows.
func (rs *readerRows) next() (bool, error) {
	if rs.n++; rs.n%1024 == 0 {
		if err := rs.ctx.Err(); err != nil {
			return false, err
		}
	}
	switch rc := sqlite3.Xsqlite3_step(rs.r.tls, rs.stmt); rc {
	case sqlite3.SQLITE_ROW:
		return true, nil
	case sqlite3.SQLITE_DONE:
		return false, nil
	default:
		return false, rs.r.err(rc)
	}
}

// int64 is column i of the row as an integer.
func (rs *readerRows) int64(i int) (int64, error) {
	return sqlite3.Xsqlite3_column_int64(rs.r.tls, rs.stmt, int32(i)), nil
}

// text is column i of the row as a string.
func (rs *readerRows) text(i int) (string, error) {
	tls := rs.r.tls
	p := sqlite3.Xsqlite3_column_text(tls, rs.stmt, int32(i))
	n := int(sqlite3.Xsqlite3_column_bytes(tls, rs.stmt, int32(i)))
	if p == 0 || n == 0 {
		return "", nil
	}
	var b []byte
	if n > textChunk/4 {
		b = make([]byte, n)
	} else {
		if len(rs.chunk) < n {
			rs.chunk = make([]byte, textChunk)
		}
		b, rs.chunk = rs.chunk[:n:n], rs.chunk[n:]
	}
	copy(b, cMem(p, n))
	return unsafe.String(unsafe.SliceData(b), n), nil
}

// close finalizes the statement.
func (rs *readerRows) close() error {
	if rc := sqlite3.Xsqlite3_finalize(rs.r.tls, rs.stmt); rc != sqlite3.SQLITE_OK {
		return rs.r.err(rc)
	}
	return nil
}
