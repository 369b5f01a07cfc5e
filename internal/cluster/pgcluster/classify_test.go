package pgcluster

import (
	"context"
	"testing"

	"github.com/mcpgen/mcpgen/internal/testutil/pgtest"
)

// TestDataErrorIsNotAnOutage: the error PostgreSQL returns for a value it
// refuses (class 22, here 22021 for invalid UTF-8) is a data error, not
// an outage, so that a lookup by such a value finds nothing instead of
// answering 503.
func TestDataErrorIsNotAnOutage(t *testing.T) {
	conn := pgtest.Connect(t)
	defer conn.Close(context.Background())
	var s string
	err := conn.QueryRow(context.Background(), `SELECT $1::text`, "\xff\xfe").Scan(&s)
	if err == nil {
		t.Fatal("PostgreSQL accepted invalid UTF-8")
	}
	if !dataError(err) || unavailable(err) {
		t.Fatalf("%v: dataError %v, unavailable %v; want a data error, not an outage", err, dataError(err), unavailable(err))
	}
}
