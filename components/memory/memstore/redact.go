package memstore

// Redaction of PostgreSQL connection strings for messages, in both forms
// libpq and pgx accept: URLs (postgres://user:secret@host/db?password=...)
// and key=value strings (host=db password='a secret'). The cluster backend
// has the same code in internal/pgdsn; components import only public
// packages, hence this copy.

import (
	"net/url"
	"strings"
)

// redactMask replaces each secret.
const redactMask = "xxxxx"

// dsnSecretKey reports whether a connection parameter holds a secret.
func dsnSecretKey(k string) bool {
	return strings.EqualFold(k, "password") || strings.EqualFold(k, "sslpassword")
}

// dsnIsURL reports whether dsn is in URL form rather than key=value.
func dsnIsURL(dsn string) bool { return strings.Contains(dsn, "://") }

// redactDSN returns dsn with every secret replaced by redactMask: the
// password of a URL's user information and of its query (password=,
// sslpassword=), and the values of those keys in a key=value string. A string that
// cannot be parsed is returned as a placeholder, since it might hold a
// secret anywhere.
func redactDSN(dsn string) string {
	if dsnIsURL(dsn) {
		u, err := url.Parse(dsn)
		if err != nil {
			return "(unparsable URL)"
		}
		q := u.Query()
		masked := false
		for k, vs := range q {
			if dsnSecretKey(k) {
				for i := range vs {
					vs[i] = redactMask
				}
				masked = true
			}
		}
		if masked {
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	}
	pairs, ok := parseDSN(dsn)
	if !ok {
		return "(unparsable connection string)"
	}
	var b strings.Builder
	last := 0
	for _, p := range pairs {
		if dsnSecretKey(p.key) {
			b.WriteString(dsn[last:p.start])
			b.WriteString(redactMask)
			last = p.end
		}
	}
	b.WriteString(dsn[last:])
	return b.String()
}

// dsnSecrets returns the secrets dsn holds, as written and as they may be
// escaped in a URL, for scrubbing them from messages that quote the
// connection string (a driver's error, say).
func dsnSecrets(dsn string) []string {
	var raw []string
	if dsnIsURL(dsn) {
		u, err := url.Parse(dsn)
		if err != nil {
			return nil
		}
		if pw, ok := u.User.Password(); ok {
			raw = append(raw, pw)
		}
		for k, vs := range u.Query() {
			if dsnSecretKey(k) {
				raw = append(raw, vs...)
			}
		}
	} else if pairs, ok := parseDSN(dsn); ok {
		for _, p := range pairs {
			if dsnSecretKey(p.key) {
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

// scrubDSN returns msg with every secret of dsn replaced by redactMask.
func scrubDSN(msg, dsn string) string {
	for _, s := range dsnSecrets(dsn) {
		msg = strings.ReplaceAll(msg, s, redactMask)
	}
	return msg
}

// dsnPair is one key=value of a connection string; start and end delimit
// the value as written (with its quotes, if any).
type dsnPair struct {
	key, value string
	start, end int
}

// parseDSN splits a libpq key=value connection string: keys and
// values separated by '=' with optional spaces around it, values
// unquoted (up to the next space) or single-quoted, with backslash
// escapes in both.
func parseDSN(s string) ([]dsnPair, bool) {
	var pairs []dsnPair
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
		p := dsnPair{key: key, start: i}
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
