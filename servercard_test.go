package mcpgen_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen"
)

// TestServerCardHandler serves a card as SEP-2127 asks: its media type,
// CORS, a strong ETag and 304 to If-None-Match, application/json to a
// client that accepts only that (with its own ETag), 404 without a card.
func TestServerCardHandler(t *testing.T) {
	card := `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json","name":"com.example/cards","version":"1.0.0","description":"Cards."}` + "\n"
	srv := mcpgen.New(mcpgen.Definition{Name: "cards", ServerCard: []byte(card)}, mcpgen.Options{})
	defer srv.Close()
	hs := httptest.NewServer(mcpgen.ServerCardHandler(srv))
	defer hs.Close()
	get := func(method string, hdr ...string) (*http.Response, string) {
		req, _ := http.NewRequest(method, hs.URL, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Add(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	resp, body := get(http.MethodGet, "Accept", mcpgen.ServerCardMediaType)
	etag := resp.Header.Get("ETag")
	switch {
	case resp.StatusCode != 200 || body != card:
		t.Fatalf("GET: %d %q", resp.StatusCode, body)
	case resp.Header.Get("Content-Type") != "application/mcp-server-card+json":
		t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
	case !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 10:
		t.Errorf("ETag %q, want a strong entity tag", etag)
	case resp.Header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "ETag"):
		t.Errorf("CORS headers %v", resp.Header)
	case !strings.Contains(resp.Header.Get("Cache-Control"), "max-age="):
		t.Errorf("Cache-Control %q", resp.Header.Get("Cache-Control"))
	}
	if resp, _ := get(http.MethodGet); resp.Header.Get("ETag") != etag || resp.Header.Get("Content-Type") != mcpgen.ServerCardMediaType {
		t.Errorf("without Accept: %q %q", resp.Header.Get("Content-Type"), resp.Header.Get("ETag"))
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		if resp, body := get(http.MethodGet, "If-None-Match", inm); resp.StatusCode != http.StatusNotModified || body != "" || resp.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match %s: %d %q, want 304 without a body", inm, resp.StatusCode, body)
		}
	}
	if resp, body := get(http.MethodGet, "If-None-Match", `"stale"`); resp.StatusCode != 200 || body != card {
		t.Errorf("If-None-Match of another version: %d", resp.StatusCode)
	}
	resp, body = get(http.MethodGet, "Accept", "application/json")
	if resp.Header.Get("Content-Type") != "application/json" || body != card || resp.Header.Get("ETag") == etag || resp.Header.Get("Vary") != "Accept" {
		t.Errorf("Accept: application/json: %q %q %q", resp.Header.Get("Content-Type"), resp.Header.Get("ETag"), body)
	}
	if resp, body := get(http.MethodHead); resp.StatusCode != 200 || body != "" || resp.Header.Get("ETag") != etag {
		t.Errorf("HEAD: %d %q", resp.StatusCode, body)
	}
	if resp, _ := get(http.MethodOptions, "Origin", "https://app.example", "Access-Control-Request-Method", "GET"); resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Methods") != "GET" {
		t.Errorf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	if resp, _ := get(http.MethodPost); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}

	none := mcpgen.New(mcpgen.Definition{Name: "none"}, mcpgen.Options{})
	defer none.Close()
	rec := httptest.NewRecorder()
	mcpgen.ServerCardHandler(none).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/mcp/server-card", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("a server without a card: %d", rec.Code)
	}
}

// TestServerCardNamesTheRunningVersion: a card generated without
// version= (0.0.0) names the version the binary reports instead; a card
// that already names it is served as generated.
func TestServerCardNamesTheRunningVersion(t *testing.T) {
	card := []byte("{\n  \"name\": \"io.example/notes\",\n  \"version\": \"0.0.0\",\n  \"description\": \"Notes\"\n}\n")
	got := mcpgen.CardWithVersion(card, "1.4.2")
	var fields map[string]string
	if err := json.Unmarshal(got, &fields); err != nil {
		t.Fatal(err)
	}
	if fields["version"] != "1.4.2" || fields["name"] != "io.example/notes" || fields["description"] != "Notes" {
		t.Errorf("card %s", got)
	}
	if same := mcpgen.CardWithVersion(card, "0.0.0"); string(same) != string(card) {
		t.Errorf("a card naming the running version was rewritten:\n%s", same)
	}
}
