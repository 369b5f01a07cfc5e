package views

import "testing"

func TestCheckOrigin(t *testing.T) {
	for _, ok := range []string{"https://api.example.com", "wss://live.example.com:8443", "https://*.example.com", "http://localhost:3000", "https://127.0.0.1", "https://[::1]:8080", "https://cdn.example.com:*"} {
		if why := CheckOrigin(ok); why != "" {
			t.Errorf("CheckOrigin(%q) = %q, want it accepted", ok, why)
		}
	}
	for bad, want := range map[string]string{
		"":                          "is empty",
		"*":                         "allows every origin",
		"https:":                    "allows every origin",
		"'self'":                    "is a CSP keyword, not an origin",
		"api.example.com":           "has no scheme",
		"ftp://files.example.com":   `has the scheme "ftp"; use https, http, wss or ws`,
		"https://example.com/lib/":  "has a path; a CSP domain is an origin (scheme://host[:port])",
		"https://u@example.com":     "has user information; a CSP domain is an origin (scheme://host[:port])",
		"https://example.com:":      "has an empty port",
		"https://example.com:99999": `has the port "99999"; write a number from 1 to 65535, or *`,
		"https://a.*.example.com":   "has a wildcard that is not the first label of the host (https://*.example.com)",
		"https://exa_mple.com":      `has '_' in its host`,
		"https://a..b":              `has the host "a..b" with an empty label`,
		"https://a b":               "contains a space",
	} {
		if got := CheckOrigin(bad); got != want {
			t.Errorf("CheckOrigin(%q) = %q, want %q", bad, got, want)
		}
	}
}

func TestCheckURI(t *testing.T) {
	for uri, want := range map[string]string{
		"ui://weather/dashboard.html": "",
		"ui://x":                      "",
		"https://example.com/x.html":  "does not start with ui://",
		"ui://":                       "names nothing after ui://",
		"ui://a b":                    "contains a space",
		"ui://items/{id}":             "is a URI template; a view has one fixed URI",
	} {
		if got := CheckURI(uri); got != want {
			t.Errorf("CheckURI(%q) = %q, want %q", uri, got, want)
		}
	}
}

func TestCheckHTML(t *testing.T) {
	for doc, want := range map[string]string{
		"<!DOCTYPE html><html></html>":                    "",
		"\ufeff  <!-- built by vite -->\n<!doctype HTML>": "",
		"<!doctype html\n>":                               "",
		"<html></html>":                                   "does not start with <!DOCTYPE html>",
		"<!doctype htmlx>":                                "does not start with <!DOCTYPE html>",
		"<!-- unclosed":                                   "opens a comment it does not close",
		"  \n":                                            "is empty",
		"<!DOCTYPE html>\xff":                             "is not UTF-8 text",
	} {
		if got := CheckHTML([]byte(doc)); got != want {
			t.Errorf("CheckHTML(%q) = %q, want %q", doc, got, want)
		}
	}
}

func TestVisibility(t *testing.T) {
	for _, c := range []struct {
		vis     []string
		why     string
		appOnly bool
	}{
		{[]string{"model", "app"}, "", false},
		{[]string{"app"}, "", true},
		{[]string{"model"}, "", false},
		{nil, "is empty", false},
		{[]string{"app", "app"}, `holds "app" twice`, true},
		{[]string{"user"}, `holds "user"; the values are model and app`, true},
	} {
		if got := CheckVisibility(c.vis); got != c.why {
			t.Errorf("CheckVisibility(%q) = %q, want %q", c.vis, got, c.why)
		}
		if got := AppOnly(c.vis); got != c.appOnly {
			t.Errorf("AppOnly(%q) = %v, want %v", c.vis, got, c.appOnly)
		}
	}
}
