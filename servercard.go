package mcpgen

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"strings"
)

// ServerCardMediaType is the media type of a Server Card.
const ServerCardMediaType = "application/mcp-server-card+json"

// ServerCardSuffix is appended to the URL of a Streamable HTTP endpoint to
// name its Server Card: the location SEP-2127 reserves
// (https://mcp.example.com/mcp/server-card).
const ServerCardSuffix = "/server-card"

// ServerCard is the server's Server Card ([Definition].ServerCard), or
// nil when it has none.
func (s *Server) ServerCard() []byte { return s.def.ServerCard }

// ServerCardHandler serves srv's Server Card (SEP-2127, the experimental
// extension io.modelcontextprotocol/server-card): a static JSON document
// describing a remote server (name, version, description, repository, its
// Streamable HTTP URLs and protocol revisions), which clients fetch before
// they connect. mcpgen writes it as generated/<server>/server-card.json;
// the generated package embeds it as [Definition].ServerCard.
//
// The handler is for a mux that mounts the endpoint itself; [Flags.Run] (every binary on [Main]) mounts it at the
// endpoint's path + [ServerCardSuffix]:
//
//	mux.Handle("/mcp", mcpgen.HTTPHandler(srv, opts))
//	mux.Handle("/mcp"+mcpgen.ServerCardSuffix, mcpgen.ServerCardHandler(srv))
//
// It answers GET and HEAD with the card as [ServerCardMediaType] (or as
// application/json to a client that accepts only that), a strong ETag
// (the card's SHA-256), Cache-Control: public, max-age=3600, and 304 Not
// Modified to an If-None-Match that names the ETag; OPTIONS is a CORS
// preflight. Every answer is readable cross-origin (the card is public
// metadata). A server without a card answers 404.
func ServerCardHandler(srv *Server) http.Handler {
	card := srv.ServerCard()
	sum := sha256.Sum256(card)
	tag := base64.RawURLEncoding.EncodeToString(sum[:18])
	etags := map[string]string{ServerCardMediaType: `"` + tag + `"`, "application/json": `"` + tag + `-json"`}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "GET")
		h.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
		h.Set("Access-Control-Expose-Headers", "ETag")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			h.Set("Allow", "GET, HEAD, OPTIONS")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			h.Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if len(card) == 0 {
			http.NotFound(w, r)
			return
		}
		ct := cardType(r.Header.Values("Accept"))
		h.Set("Vary", "Accept")
		h.Set("ETag", etags[ct])
		h.Set("Cache-Control", "public, max-age=3600")
		if noneMatch(r.Header.Values("If-None-Match"), etags[ct]) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		h.Set("Content-Type", ct)
		if r.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(card)
	})
}

// cardType is the media type to answer an Accept header with: the card's
// own, unless the client accepts application/json and not it (nor a
// wildcard covering it).
func cardType(accept []string) string {
	plain := false
	for _, v := range accept {
		for _, part := range strings.Split(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || params["q"] == "0" {
				continue
			}
			switch mt {
			case ServerCardMediaType, "*/*", "application/*":
				return ServerCardMediaType
			case "application/json":
				plain = true
			}
		}
	}
	if plain {
		return "application/json"
	}
	return ServerCardMediaType
}

// noneMatch reports whether an If-None-Match header matches etag: "*" or
// one of its entity tags, compared weakly (RFC 9110 section 13.1.2).
func noneMatch(values []string, etag string) bool {
	for _, v := range values {
		for _, t := range strings.Split(v, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// cardWithVersion is card naming version, the version the server reports
// in initialize: a card generated without version= says 0.0.0, while the
// running binary reports the version it was built as.
func cardWithVersion(card []byte, version string) []byte {
	var fields map[string]json.RawMessage
	if len(card) == 0 || json.Unmarshal(card, &fields) != nil {
		return card
	}
	v, _ := json.Marshal(version)
	if string(fields["version"]) == string(v) {
		return card
	}
	fields["version"] = v
	out, err := json.MarshalIndent(fields, "", "  ")
	if err != nil {
		return card
	}
	return append(out, '\n')
}
