package memstore

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const defaultTestPG = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// sqliteOnly skips a test of SQLite internals in the PostgreSQL run,
// naming the test that covers the same ground there, if any.
func sqliteOnly(t *testing.T, pgTest string) {
	t.Helper()
	if engineOf(t) == enginePostgres {
		if pgTest == "" {
			t.Skip("SQLite-specific")
		}
		t.Skipf("SQLite-specific; %s covers PostgreSQL", pgTest)
	}
}

// postgresTestURL creates a fresh schema in the test database, dropped at
// cleanup, and returns a URL whose search_path selects it. It skips the
// test (fails it under CI=true) when PostgreSQL is unreachable.
func postgresTestURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("MCP_TEST_POSTGRES")
	if base == "" {
		base = defaultTestPG
	}
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		if inCI() {
			t.Fatalf("PostgreSQL is required under CI=true but %s is unreachable: %v", RedactURL(base), err)
		}
		t.Skipf("PostgreSQL at %s unreachable (set MCP_TEST_POSTGRES): %v", RedactURL(base), err)
	}
	defer conn.Close(ctx)
	var b [6]byte
	crand.Read(b[:])
	name := strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "_"))
	schema := fmt.Sprintf("memstore_%.30s_%s", name, hex.EncodeToString(b[:]))
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{schema}.Sanitize()); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(bg, 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		// The schemas of the store's named graphs (Graphs) go too.
		var graphs []string
		_ = conn.QueryRow(ctx, "SELECT coalesce(array_agg(schema), '{}') FROM "+pgx.Identifier{schema, "memory_graphs"}.Sanitize()).Scan(&graphs)
		for _, g := range graphs {
			if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{g}.Sanitize()+" CASCADE"); err != nil {
				t.Errorf("drop schema %s: %v", g, err)
			}
		}
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("MCP_TEST_POSTGRES: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func openPostgresTest(t *testing.T, opts ...Option) (*Postgres, string) {
	t.Helper()
	where := postgresTestURL(t)
	s, err := OpenPostgres(bg, where, opts...)
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, where
}

func TestPgEncKeepsEqualityOrderAndSubstrings(t *testing.T) {
	alphabet := []string{"\x00", "\x01", "\x02", "a", "b", "é", "\x7f"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 20000 {
		a, b := word(), word()
		ea, eb := pgEnc(a), pgEnc(b)
		if pgDec(ea) != a {
			t.Fatalf("pgDec(pgEnc(%q)) = %q", a, pgDec(ea))
		}
		if strings.IndexByte(ea, 0) >= 0 {
			t.Fatalf("pgEnc(%q) = %q holds NUL", a, ea)
		}
		if strings.Compare(a, b) != strings.Compare(ea, eb) {
			t.Fatalf("order of %q, %q not kept: %q, %q", a, b, ea, eb)
		}
		if strings.HasPrefix(b, a) != strings.HasPrefix(eb, ea) {
			t.Fatalf("prefix relation of %q, %q not kept", a, b)
		}
		if strings.Contains(b, a) && !strings.Contains(eb, ea) {
			t.Fatalf("substring %q of %q lost", a, b)
		}
	}
}

func TestPostgresUnreachableNamesURLWithoutPassword(t *testing.T) {
	// Port 1 on the loopback refuses connections.
	u := "postgres://alice:s3cret@127.0.0.1:1/memory?sslmode=disable&connect_timeout=5"
	_, err := OpenPostgres(bg, u)
	if err == nil {
		t.Fatal("OpenPostgres succeeded on a closed port")
	}
	msg := err.Error()
	if strings.Contains(msg, "s3cret") || !strings.Contains(msg, "postgres://alice:xxxxx@127.0.0.1:1/memory") {
		t.Fatalf("error %q must name the URL without the password", msg)
	}
	if _, err := OpenPostgres(bg, "/tmp/x.db"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("non-URL: %v", err)
	}
}

func TestPostgresRejectsNewerSchema(t *testing.T) {
	s, where := openPostgresTest(t)
	_, err := s.pool.Exec(bg, `INSERT INTO memory_schema_version (version) VALUES ($1)`, len(pgMigrations)+1)
	mustNil(t, err)
	s.Close()
	if _, err := OpenPostgres(bg, where); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("open newer schema: %v", err)
	}
}

// TestPostgresConcurrentOpenMigratesOnce starts several replicas on one
// empty schema at once: all open, each migration is applied once.
func TestPostgresConcurrentOpenMigratesOnce(t *testing.T) {
	where := postgresTestURL(t)
	const n = 6
	stores := make([]*Postgres, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = OpenPostgres(bg, where) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("replica %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	var versions []int
	rows, err := stores[0].pool.Query(bg, `SELECT version FROM memory_schema_version ORDER BY version`)
	mustNil(t, err)
	versions, err = pgx.CollectRows(rows, pgx.RowTo[int])
	mustNil(t, err)
	if len(versions) != len(pgMigrations) || versions[0] != 1 {
		t.Fatalf("versions %v", versions)
	}
	must[[]Entity](t)(stores[n-1].CreateEntities(bg, []Entity{{"A", "t", nil}}))
	if g := readGraph(t, stores[0]); len(g.Entities) != 1 {
		t.Fatalf("graph %+v", g)
	}
}

func TestPostgresRefoldsWhenFoldVersionChanges(t *testing.T) {
	s, where := openPostgresTest(t)
	must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"ΟΔΟΣ", "place", []string{"İstanbul trip"}}}))
	// Simulate texts folded by another version: spoil them and the marker.
	_, err := s.pool.Exec(bg, `UPDATE memory_entities SET search = 'x', name_fold = 'x';
		UPDATE memory_observations SET search = 'x';
		UPDATE memory_meta SET value = 'old' WHERE key = 'fold_version'`)
	mustNil(t, err)
	if g := must[Graph](t)(s.SearchNodes(bg, "trip")); len(g.Entities) != 0 {
		t.Fatalf("expected stale texts to miss, got %+v", g)
	}
	s.Close()
	s2 := reopenTest(t, where)
	for _, q := range []string{"trip", "i\u0307stanbul", "İSTANBUL", "οδος", "ΟΔΟΣ", "PLACE"} {
		if g := must[Graph](t)(s2.SearchNodes(bg, q)); len(g.Entities) != 1 {
			t.Fatalf("search %q after refold: %+v", q, g)
		}
	}
	if g := must[Graph](t)(s2.SearchNodes(bg, "istanbul")); len(g.Entities) != 0 {
		t.Fatalf("search istanbul: %+v", g)
	}
	if got := must[[]string](t)(s2.EntityNames(bg, "οδ", 10)); !slices.Equal(got, []string{"ΟΔΟΣ"}) {
		t.Fatalf("completion after refold: %q", got)
	}
}

// TestPostgresChangeFeedAcrossReplicas has two replicas write at once
// while a reader on a third follows the feed with cursors: it sees every
// change exactly once, in sequence, and the cursor is valid everywhere.
func TestPostgresChangeFeedAcrossReplicas(t *testing.T) {
	a, where := openPostgresTest(t)
	b := reopenTest(t, where)
	c := reopenTest(t, where)
	const perWriter = 60
	var wg sync.WaitGroup
	errs := make(chan error, 2*perWriter)
	for i, s := range []Store{a, b} {
		wg.Go(func() {
			for j := range perWriter {
				if _, err := s.CreateEntities(bg, []Entity{{fmt.Sprintf("w%d-%d", i, j), "t", []string{"o"}}}); err != nil {
					errs <- err
				}
			}
		})
	}
	seen := map[string]bool{}
	var cursor int64
	follow := func() {
		t.Helper()
		page, next, err := c.Changes(bg, cursor, 7)
		mustNil(t, err)
		for _, ch := range page {
			if ch.Seq != cursor+1 {
				t.Fatalf("change %d after cursor %d", ch.Seq, cursor)
			}
			if seen[ch.Subject] {
				t.Fatalf("%s seen twice", ch.Subject)
			}
			seen[ch.Subject] = true
			cursor = ch.Seq
		}
		if next != cursor {
			t.Fatalf("next %d, cursor %d", next, cursor)
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		follow()
	}
	for cursor < must[int64](t)(a.Head(bg)) {
		follow()
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(seen) != 2*perWriter || cursor != 2*perWriter {
		t.Fatalf("saw %d changes, cursor %d", len(seen), cursor)
	}
	if h := must[int64](t)(b.Head(bg)); h != cursor {
		t.Fatalf("head on b %d, cursor %d", h, cursor)
	}
}

// testControlBytesInNamesAndSearch runs on both stores (PostgreSQL stores
// NUL and \x01 escaped): search, completion order and lookups treat them
// as ordinary characters, exactly as the reference model does.
func testControlBytesInNamesAndSearch(t *testing.T) {
	s, _ := openTest(t)
	names := []string{"\x00", "\x01", "\x00\x02", "\x01\x02", "a\x00b", "a\x01b", "A\x02", "\x02", "x\x01\x01y"}
	var ents []Entity
	for i, n := range names {
		ents = append(ents, Entity{Name: n, EntityType: "t" + n, Observations: []string{"obs" + names[(i+3)%len(names)]}})
	}
	must[[]Entity](t)(s.CreateEntities(bg, ents))
	must[[]Relation](t)(s.CreateRelations(bg, []Relation{{"\x00", "\x01", "\x00\x01"}, {"\x01\x02", "\x00\x02", "r"}}))
	m := refModel{g: readGraph(t, s)}
	for _, q := range []string{"\x00", "\x01", "\x02", "\x00\x02", "\x01\x02", "\x01\x01", "a\x00", "\x01b", "T\x00", "OBS\x01", "%", "_", "\\"} {
		assertGraph(t, fmt.Sprintf("SearchNodes(%q)", q), must[Graph](t)(s.SearchNodes(bg, q)), m.SearchNodes(q))
	}
	for _, n := range names {
		assertGraph(t, fmt.Sprintf("OpenNodes(%q)", n), must[Graph](t)(s.OpenNodes(bg, []string{n})), m.OpenNodes([]string{n}))
	}
	want := slices.Clone(names)
	slices.SortFunc(want, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	if got := must[[]string](t)(s.EntityNames(bg, "", 100)); !slices.Equal(got, want) {
		t.Fatalf("EntityNames order %q, want %q", got, want)
	}
	if got := must[[]string](t)(s.EntityNames(bg, "\x00", 100)); !slices.Equal(got, []string{"\x00", "\x00\x02"}) {
		t.Fatalf("EntityNames(NUL) = %q", got)
	}
	mustNil(t, s.DeleteRelations(bg, []Relation{{"\x00", "\x01", "\x00\x01"}}))
	mustNil(t, s.DeleteEntities(bg, []string{"\x01\x02"}))
	if g := readGraph(t, s); len(g.Relations) != 0 || len(g.Entities) != len(names)-1 {
		t.Fatalf("after deletes: %+v", g)
	}
}

// TestPostgresInstallsTrgm opens stores on fresh databases: pg_trgm is
// installed in schema public, or, when there is no public schema, in the
// store's schema, and search works either way.
func TestPostgresInstallsTrgm(t *testing.T) {
	base := postgresTestURL(t) // skips when unreachable
	conn, err := pgx.Connect(bg, base)
	mustNil(t, err)
	defer conn.Close(bg)
	for _, dropPublic := range []bool{false, true} {
		t.Run(fmt.Sprint("dropPublic=", dropPublic), func(t *testing.T) {
			var b [6]byte
			crand.Read(b[:])
			dbName := "memstore_trgm_" + hex.EncodeToString(b[:])
			if _, err := conn.Exec(bg, "CREATE DATABASE "+dbName); err != nil {
				t.Skipf("cannot create a database to test the installation: %v", err)
			}
			t.Cleanup(func() {
				if _, err := conn.Exec(bg, "DROP DATABASE "+dbName+" WITH (FORCE)"); err != nil {
					t.Errorf("drop database: %v", err)
				}
			})
			u, err := url.Parse(base)
			mustNil(t, err)
			u.Path = "/" + dbName
			q := u.Query()
			q.Del("search_path")
			want := "public"
			if dropPublic {
				admin, err := pgx.Connect(bg, u.String())
				mustNil(t, err)
				_, err = admin.Exec(bg, "DROP SCHEMA public; CREATE SCHEMA mem")
				admin.Close(bg)
				mustNil(t, err)
				q.Set("search_path", "mem")
				want = "mem"
			}
			u.RawQuery = q.Encode()
			s := reopenTest(t, u.String()).(*Postgres)
			var nsp string
			mustNil(t, s.pool.QueryRow(bg, `SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'pg_trgm'`).Scan(&nsp))
			if nsp != want {
				t.Fatalf("pg_trgm in schema %s, want %s", nsp, want)
			}
			must[[]Entity](t)(s.CreateEntities(bg, []Entity{{"Trigram", "t", []string{"indexed text"}}}))
			if g := must[Graph](t)(s.SearchNodes(bg, "XED TE")); len(g.Entities) != 1 {
				t.Fatalf("search: %+v", g)
			}
			s.Close() // before DROP DATABASE
		})
	}
}

// TestPostgresAnalyzesAsItGrows: large writes to a new store analyze its
// tables (a named graph's too, in its own schema), so that statements
// prepared while the tables were empty are planned again for their size;
// small writes afterwards do not, until the tables have grown as much
// again.
func TestPostgresAnalyzesAsItGrows(t *testing.T) {
	g, err := OpenGraphs(bg, postgresTestURL(t))
	mustNil(t, err)
	t.Cleanup(func() { g.Close() })
	for _, name := range []string{DefaultGraph, "team"} {
		s := use(t, g, name).(*Postgres)
		analyses := func() (n int64) {
			t.Helper()
			tx, err := s.pool.BeginTx(bg, pgx.TxOptions{BeginQuery: s.beginRead})
			mustNil(t, err)
			defer tx.Rollback(bg)
			mustNil(t, tx.QueryRow(bg, `SELECT analyze_count FROM pg_stat_user_tables
				WHERE relid = 'memory_entities'::regclass`).Scan(&n))
			return n
		}
		before := analyses()
		ents := make([]Entity, 2000)
		for i := range ents {
			ents[i] = Entity{Name: fmt.Sprintf("e%05d", i), EntityType: "t"}
		}
		must[[]Entity](t)(s.CreateEntities(bg, ents))
		// The statistics collector reports with a delay.
		var after int64
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if after = analyses(); after > before {
				break
			}
		}
		if after != before+1 {
			t.Fatalf("%s: entities analyzed %d times after a write of 2,000, want %d", name, after, before+1)
		}
		must[[]Entity](t)(s.CreateEntities(bg, []Entity{{Name: "one more", EntityType: "t"}}))
		time.Sleep(200 * time.Millisecond)
		if n := analyses(); n != after {
			t.Errorf("%s: a small write analyzed again (%d times)", name, n)
		}
	}
}
