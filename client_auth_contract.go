package mcpgen

import (
	"context"
	"net/http"
)

// ClientAuth supplies credentials for the HTTP requests of a client's
// HTTPTransport and reacts when the server refuses them. Package
// oauthclient implements it with full MCP authorization (OAuth 2.1).
//
// This file carries only the interface, as fixed in the client API
// contract, so that oauthclient builds before the client runtime lands;
// the runtime branch defines the same interface and the merge keeps one.
type ClientAuth interface {
	// Authorize adds credentials (usually Authorization: Bearer ...) to a
	// request about to be sent.
	Authorize(ctx context.Context, req *http.Request) error
	// Refused is told of a 401 or 403 answer to req. Returning nil means
	// "credentials were renewed, send the request again"; an error is
	// returned to the caller. The transport retries a request at most a
	// small, fixed number of times.
	Refused(ctx context.Context, req *http.Request, resp *http.Response) error
}
