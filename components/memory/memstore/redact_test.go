package memstore

import (
	"strings"
	"testing"
)

// TestRedactURL: RedactURL hid only the user information's password, so
// mcp-memory printed postgres://u:xxxxx@h/x?password=SECRET in its errors
// and its "store ready" log line. Every password libpq reads is hidden,
// in URLs and in key=value strings.
func TestRedactURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:s3cret@h/db", "postgres://u:xxxxx@h/db"},
		{"postgres://u:pw@h/x?password=s3cret", "postgres://u:xxxxx@h/x?password=xxxxx"},
		{"postgresql://h/x?sslpassword=s3cret&sslmode=require", "postgresql://h/x?sslmode=require&sslpassword=xxxxx"},
		{"host=db user=app password='s3 cret' dbname=x", "host=db user=app password=xxxxx dbname=x"},
		{"postgres://u:s3cret@h:port/db", "(unparsable URL)"},
	} {
		if got := RedactURL(c.in); got != c.want || strings.Contains(got, "s3") {
			t.Errorf("RedactURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if msg := redactErr(errorString("cannot parse `postgres://u@h/x?password=s3cret%21`"), "postgres://u@h/x?password=s3cret!"); strings.Contains(msg, "s3cret") {
		t.Errorf("redactErr left the password: %s", msg)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
