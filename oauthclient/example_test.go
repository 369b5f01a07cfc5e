package oauthclient_test

import (
	"context"
	"fmt"
	"net/url"
	"os"

	"github.com/mcpgen/mcpgen/oauthclient"
)

// A client acting for a user: the user authorizes in a browser, and the
// redirect comes back to a listener of the program's own (not shown).
func ExampleNew() {
	waitForRedirect := func(ctx context.Context, authURL string) (*url.URL, error) {
		fmt.Fprintln(os.Stderr, "open", authURL)
		// ... receive the redirect at http://127.0.0.1:8765/callback
		return nil, ctx.Err()
	}
	auth, err := oauthclient.New(oauthclient.Config{
		ClientMetadataURL: "https://app.example.com/oauth/client.json", // where supported
		ClientName:        "example",
		RedirectURL:       "http://127.0.0.1:8765/callback",
		UserAgent:         waitForRedirect,
	})
	if err != nil {
		panic(err)
	}
	_ = auth // mcpgen.ClientOptions{Auth: auth}
}

// A service acting for itself with a key its authorization server knows.
func ExampleNew_clientCredentials() {
	pemKey, err := os.ReadFile("client-key.pem")
	if err != nil {
		return
	}
	key, err := oauthclient.ParsePrivateKey(pemKey)
	if err != nil {
		panic(err)
	}
	auth, err := oauthclient.New(oauthclient.Config{
		Grant:        oauthclient.GrantClientCredentials,
		ClientID:     "billing-service",
		PrivateKey:   key,
		ClientIssuer: "https://auth.example.com", // the key is presented there only
	})
	if err != nil {
		panic(err)
	}
	_ = auth
}
