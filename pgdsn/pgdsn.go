// Package pgdsn hides the secrets of PostgreSQL connection strings before
// they are printed, in both forms libpq and pgx accept: URLs
// (postgres://user:secret@host/db?password=secret) and key=value strings
// (host=db user=app password='a secret').
package pgdsn

import (
	"net/url"
	"strings"
)

// Mask replaces each secret.
const Mask = "xxxxx"

// secretKey reports whether a connection parameter holds a secret.
func secretKey(k string) bool {
	return strings.EqualFold(k, "password") || strings.EqualFold(k, "sslpassword")
}

// isURL reports whether dsn is in URL form rather than key=value.
func isURL(dsn string) bool { return strings.Contains(dsn, "://") }

// Redact returns dsn with every secret replaced by Mask: the password of
// a URL's user information and of its query (password=, sslpassword=),
// and the values of those keys in a key=value string. A string that
// cannot be parsed is returned as a placeholder, since it might hold a
// secret anywhere.
func Redact(dsn string) string {
	if isURL(dsn) {
		u, err := url.Parse(dsn)
		if err != nil {
			return "(unparsable URL)"
		}
		q := u.Query()
		masked := false
		for k, vs := range q {
			if secretKey(k) {
				for i := range vs {
					vs[i] = Mask
				}
				masked = true
			}
		}
		if masked {
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	}
	pairs, ok := parseKeyValue(dsn)
	if !ok {
		return "(unparsable connection string)"
	}
	var b strings.Builder
	last := 0
	for _, p := range pairs {
		if secretKey(p.key) {
			b.WriteString(dsn[last:p.start])
			b.WriteString(Mask)
			last = p.end
		}
	}
	b.WriteString(dsn[last:])
	return b.String()
}

// Secrets returns the secrets dsn holds, as written and as they may be
// escaped in a URL, for scrubbing them from messages that quote the
// connection string (a driver's error, say).
func Secrets(dsn string) []string {
	var raw []string
	if isURL(dsn) {
		u, err := url.Parse(dsn)
		if err != nil {
			return nil
		}
		if pw, ok := u.User.Password(); ok {
			raw = append(raw, pw)
		}
		for k, vs := range u.Query() {
			if secretKey(k) {
				raw = append(raw, vs...)
			}
		}
	} else if pairs, ok := parseKeyValue(dsn); ok {
		for _, p := range pairs {
			if secretKey(p.key) {
				raw = append(raw, p.value, dsn[p.start:p.end])
			}
		}
	}
	var out []string
	for _, s := range raw {
		if s == "" {
			continue
		}
		out = append(out, s, url.QueryEscape(s), url.PathEscape(s))
	}
	return out
}

// Scrub returns msg with every secret of dsn replaced by Mask.
func Scrub(msg, dsn string) string {
	for _, s := range Secrets(dsn) {
		msg = strings.ReplaceAll(msg, s, Mask)
	}
	return msg
}

// pair is one key=value of a connection string; start and end delimit
// the value as written (with its quotes, if any).
type pair struct {
	key, value string
	start, end int
}

// parseKeyValue splits a libpq key=value connection string: keys and
// values separated by '=' with optional spaces around it, values
// unquoted (up to the next space) or single-quoted, with backslash
// escapes in both.
func parseKeyValue(s string) ([]pair, bool) {
	var pairs []pair
	i := 0
	space := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v') {
			i++
		}
	}
	for {
		space()
		if i == len(s) {
			return pairs, true
		}
		k := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			i++
		}
		key := s[k:i]
		space()
		if key == "" || i == len(s) || s[i] != '=' {
			return nil, false
		}
		i++
		space()
		p := pair{key: key, start: i}
		var v strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				i++
				if c == '\\' && i < len(s) {
					v.WriteByte(s[i])
					i++
					continue
				}
				if c == '\'' {
					closed = true
					break
				}
				v.WriteByte(c)
			}
			if !closed {
				return nil, false
			}
		} else {
			for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' && s[i] != '\f' && s[i] != '\v' {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				v.WriteByte(s[i])
				i++
			}
		}
		p.value, p.end = v.String(), i
		pairs = append(pairs, p)
	}
}
