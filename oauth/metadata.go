package oauth

import (
	"encoding/json"
	"net/http"
)

// wellKnown is the RFC 9728 well-known path prefix.
const wellKnown = "/.well-known/oauth-protected-resource"

// protectedResource is an RFC 9728 metadata document.
type protectedResource struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
}

// MetadataPaths are the URL paths the metadata document is served at:
// the endpoint's path-suffixed form (/.well-known/oauth-protected-resource/mcp)
// and, when the endpoint is not at the root, the root form.
func (rs *ResourceServer) MetadataPaths() []string { return append([]string(nil), rs.paths...) }

// MetadataHandler serves the Protected Resource Metadata document (GET or
// HEAD; CORS-readable, since browser clients fetch it).
func (rs *ResourceServer) MetadataHandler() http.Handler {
	doc, _ := json.Marshal(protectedResource{
		Resource:               rs.cfg.Audience,
		AuthorizationServers:   []string{rs.cfg.Issuer},
		ScopesSupported:        rs.supported,
		BearerMethodsSupported: []string{"header"},
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Cache-Control", "max-age=3600")
		_, _ = w.Write(doc)
	})
}
