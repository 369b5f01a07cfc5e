package oauthclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// Token types of token exchange (RFC 8693) for enterprise-managed
// authorization.
const (
	tokenTypeIDToken = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG   = "urn:ietf:params:oauth:token-type:id-jag"
	grantExchange    = "urn:ietf:params:oauth:grant-type:token-exchange"
)

// IdentityAssertion is enterprise-managed authorization (the MCP
// extension of the Identity Assertion JWT Authorization Grant): the
// user's ID token from the enterprise identity provider is exchanged
// there (RFC 8693) for an ID-JAG naming the MCP server's authorization
// server and resource, which the client then presents with the JWT
// bearer grant. Use its Assertion method as [Config.Assertion], with
// GrantJWTBearer, the authorization server's issuer in ClientIssuer and
// the client's credentials there in ClientID and ClientSecret.
type IdentityAssertion struct {
	// TokenURL is the identity provider's token endpoint.
	TokenURL string
	// ClientID is the client's identifier at the identity provider.
	ClientID string
	// ClientSecret is the client's secret at the identity provider; it
	// may be empty.
	ClientSecret string
	// IDToken returns the user's ID token from the identity provider.
	IDToken func(ctx context.Context) (string, error)
	// HTTPClient makes the request; default one with a 30 second timeout.
	// Either way the request follows no redirect.
	HTTPClient *http.Client
}

// Assertion exchanges the ID token for an ID-JAG for the authorization
// server issuer and resource.
func (ia *IdentityAssertion) Assertion(ctx context.Context, issuer, resource string) (string, error) {
	if ia.TokenURL == "" || ia.IDToken == nil {
		return "", errors.New("oauthclient: IdentityAssertion needs TokenURL and IDToken")
	}
	if err := checkEndpoint(ia.TokenURL); err != nil {
		return "", fmt.Errorf("oauthclient: identity provider: %w", err)
	}
	idToken, err := ia.IDToken(ctx)
	if err != nil {
		return "", fmt.Errorf("oauthclient: ID token: %w", err)
	}
	// x/oauth2's client credentials flow lets grant_type be replaced.
	cc := clientcredentials.Config{
		ClientID: ia.ClientID, ClientSecret: ia.ClientSecret, TokenURL: ia.TokenURL,
		AuthStyle: oauth2.AuthStyleInParams,
		EndpointParams: url.Values{
			"grant_type":           {grantExchange},
			"requested_token_type": {tokenTypeIDJAG},
			"subject_token":        {idToken},
			"subject_token_type":   {tokenTypeIDToken},
			"audience":             {issuer},
			"resource":             {resource},
		},
	}
	hc := &http.Client{Timeout: 30 * time.Second}
	if ia.HTTPClient != nil {
		c := *ia.HTTPClient
		hc = &c
	}
	hc.CheckRedirect = refuseRedirect // the ID token and secret go to TokenURL only
	tok, err := cc.Token(context.WithValue(ctx, oauth2.HTTPClient, hc))
	if err != nil {
		return "", fmt.Errorf("oauthclient: token exchange at the identity provider: %w", err)
	}
	if t, _ := tok.Extra("issued_token_type").(string); t != "" && t != tokenTypeIDJAG {
		return "", fmt.Errorf("oauthclient: the identity provider issued a %s, not an ID-JAG", t)
	}
	return tok.AccessToken, nil
}
