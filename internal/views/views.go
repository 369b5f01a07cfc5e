// Package views holds the rules of the MCP Apps extension
// (io.modelcontextprotocol/ui, SEP-1865) that the generator and the runtime
// share: the extension's identifiers, what a view's URI, its HTML and the
// Content-Security-Policy origins of its metadata must look like, and the
// values of a tool's visibility. Both sides apply the same functions, so
// that a definition the generator accepts is one the runtime serves.
package views

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Identifiers of the extension.
const (
	// Extension is the key under capabilities.extensions, in the client's
	// capabilities (it can show views) and in the server's (it has some).
	Extension = "io.modelcontextprotocol/ui"
	// MimeType is the MIME type of a view's resource and contents.
	MimeType = "text/html;profile=mcp-app"
	// Scheme starts every view's URI.
	Scheme = "ui://"
	// LegacyURIKey is the flat _meta key older hosts read a tool's view
	// from; the specification deprecates it for _meta.ui.resourceUri, and
	// servers send both.
	LegacyURIKey = "ui/resourceUri"
)

// Who may call a tool (_meta.ui.visibility): the model, the views of the
// same server, or both (the default).
const (
	Model = "model"
	App   = "app"
)

// Permissions are the browser permissions a view may ask its host for
// (_meta.ui.permissions), by their names on the wire.
var Permissions = []string{"camera", "microphone", "geolocation", "clipboardWrite"}

// CheckURI reports why uri cannot be a view's URI, or "" when it can: the
// ui:// scheme, something after it, no spaces, and a URI Go can parse.
func CheckURI(uri string) string {
	rest, ok := strings.CutPrefix(uri, Scheme)
	switch {
	case !ok:
		return "does not start with " + Scheme
	case rest == "":
		return "names nothing after " + Scheme
	case strings.IndexFunc(uri, unicode.IsSpace) >= 0:
		return "contains a space"
	case strings.ContainsAny(uri, "{}"):
		return "is a URI template; a view has one fixed URI"
	}
	if _, err := url.Parse(uri); err != nil {
		return "is not a valid URI: " + strings.TrimPrefix(err.Error(), "parse \""+uri+"\": ")
	}
	return ""
}

// CheckOrigin reports why s cannot be a domain of a view's
// Content-Security-Policy (connectDomains, resourceDomains, frameDomains,
// baseUriDomains), or "" when it can. The specification calls them
// origins: a scheme (https, http, wss or ws), a host, which may start
// with a wildcard label (https://*.example.com), and an optional port;
// no path, no CSP keyword ('self'), and not the wildcard * alone, which
// would allow every origin.
func CheckOrigin(s string) string {
	switch {
	case s == "":
		return "is empty"
	case s == "*" || s == "https:" || s == "http:" || s == "https://*" || s == "http://*":
		return "allows every origin"
	case strings.HasPrefix(s, "'"):
		return "is a CSP keyword, not an origin"
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		return "contains a space"
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return "has no scheme"
	}
	switch scheme {
	case "https", "http", "wss", "ws":
	default:
		return fmt.Sprintf("has the scheme %q; use https, http, wss or ws", scheme)
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		return "has a path; a CSP domain is an origin (scheme://host[:port])"
	}
	if strings.Contains(rest, "@") {
		return "has user information; a CSP domain is an origin (scheme://host[:port])"
	}
	host, port := rest, ""
	if strings.HasPrefix(rest, "[") { // an IPv6 literal
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "has an unclosed [ in its host"
		}
		host, port = rest[:end+1], strings.TrimPrefix(rest[end+1:], ":")
		if port == "" && len(rest) > end+1 {
			return "has an empty port"
		}
	} else if h, p, ok := strings.Cut(rest, ":"); ok {
		host, port = h, p
		if port == "" {
			return "has an empty port"
		}
	}
	if port != "" && port != "*" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("has the port %q; write a number from 1 to 65535, or *", port)
		}
	}
	if strings.HasPrefix(host, "[") {
		return ""
	}
	host = strings.TrimPrefix(host, "*.")
	if host == "" {
		return "has no host"
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" {
			return fmt.Sprintf("has the host %q with an empty label", host)
		}
		for _, c := range label {
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				if c == '*' {
					return "has a wildcard that is not the first label of the host (https://*.example.com)"
				}
				return fmt.Sprintf("has %q in its host", c)
			}
		}
	}
	return ""
}

// CheckPermission reports why p is not a permission a view may ask for,
// or "".
func CheckPermission(p string) string {
	if slices.Contains(Permissions, p) {
		return ""
	}
	return fmt.Sprintf("is not a permission of the specification (%s)", strings.Join(Permissions, ", "))
}

// CheckVisibility reports why vis cannot be a tool's visibility, or "":
// "model", "app" or both, each once.
func CheckVisibility(vis []string) string {
	if len(vis) == 0 {
		return "is empty"
	}
	for i, v := range vis {
		if v != Model && v != App {
			return fmt.Sprintf("holds %q; the values are model and app", v)
		}
		if slices.Contains(vis[:i], v) {
			return fmt.Sprintf("holds %q twice", v)
		}
	}
	return ""
}

// AppOnly reports whether a tool of this visibility is offered to views
// only, not to the model. An empty visibility is the default, both.
func AppOnly(vis []string) bool {
	return len(vis) > 0 && !slices.Contains(vis, Model)
}

// CheckHTML reports why content cannot be served as a view, or "": the
// specification wants a valid HTML5 document, so it must be UTF-8 text
// that starts (after an optional byte order mark, white space and
// comments) with <!DOCTYPE html>. Nothing else of the document is
// checked.
func CheckHTML(content []byte) string {
	if !utf8.Valid(content) {
		return "is not UTF-8 text"
	}
	rest := bytes.TrimPrefix(content, []byte("\ufeff"))
	for {
		rest = bytes.TrimLeftFunc(rest, unicode.IsSpace)
		if !bytes.HasPrefix(rest, []byte("<!--")) {
			break
		}
		end := bytes.Index(rest, []byte("-->"))
		if end < 0 {
			return "opens a comment it does not close"
		}
		rest = rest[end+3:]
	}
	const doctype = "<!doctype html"
	if len(rest) < len(doctype)+1 || !strings.EqualFold(string(rest[:len(doctype)]), doctype) {
		if len(rest) == 0 {
			return "is empty"
		}
		return "does not start with <!DOCTYPE html>"
	}
	if c := rest[len(doctype)]; c != '>' && !unicode.IsSpace(rune(c)) {
		return "does not start with <!DOCTYPE html>"
	}
	return ""
}
