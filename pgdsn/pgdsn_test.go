package pgdsn

import (
	"strings"
	"testing"
)

// TestRedact: no form of a PostgreSQL connection string keeps its
// secrets: a URL's user password and its query's password= (which a URL's
// Redacted method leaves in place), and key=value strings, quoted or not.
func TestRedact(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://u:s3cret@h/db", "postgres://u:xxxxx@h/db"},
		{"postgres://u:pw@h/x?password=s3cret", "postgres://u:xxxxx@h/x?password=xxxxx"},
		{"postgres://h/x?sslmode=disable&user=u&password=s3cret", "postgres://h/x?password=xxxxx&sslmode=disable&user=u"},
		{"postgresql://h/x?sslpassword=s3cret", "postgresql://h/x?sslpassword=xxxxx"},
		{"postgres://u@h/db?sslmode=disable", "postgres://u@h/db?sslmode=disable"},
		{"host=db user=app password=s3cret dbname=x", "host=db user=app password=xxxxx dbname=x"},
		{"host=db password = 's3 c\\'ret' dbname=x", "host=db password = xxxxx dbname=x"},
		{"password=s3cret", "password=xxxxx"},
		{"host=db password='s3cret", "(unparsable connection string)"},
		{"postgres://u:s3cret@h:port/db", "(unparsable URL)"},
		{"/var/lib/memory.db", "(unparsable connection string)"},
		{"memory.db", "(unparsable connection string)"},
	} {
		got := Redact(c.in)
		if got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(got, "s3") {
			t.Errorf("Redact(%q) = %q keeps the secret", c.in, got)
		}
	}
}

func TestScrub(t *testing.T) {
	for _, c := range []struct{ dsn, msg string }{
		{"postgres://u:s3cret%21@h/db?password=s3cret2", "s3cret! s3cret2 s3cret%21"},
		{"host=db password='s3cret! x'", "s3cret! x s3cret%21+x"},
	} {
		msg := Scrub("failed: "+c.dsn+" "+c.msg, c.dsn)
		if strings.Contains(msg, "s3cret") {
			t.Errorf("Scrub(%q) left a secret: %s", c.dsn, msg)
		}
	}
}
