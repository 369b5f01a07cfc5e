// Package interop holds no code: its tests run the client runtime of the
// root package against MCP servers written with other SDKs, installed
// from the npm registry by scripts/tools.sh under .tools/:
//
//   - @modelcontextprotocol/server-memory, the reference knowledge-graph
//     server, over stdio;
//   - the TypeScript SDK's example servers: progressExample.js over stdio;
//     simpleStreamableHttp.js (sessions, SSE, an event store),
//     simpleStatelessStreamableHttp.js (no sessions) and
//     jsonResponseStreamableHttp.js (JSON bodies) over Streamable HTTP,
//     and the first through a proxy that cuts a call's stream, which the
//     client must resume; simpleStreamableHttp.js's delay tool also runs
//     as a task (2025-11-25 tasks);
//   - testdata/features.mjs, a server of ours written with the SDK's
//     low-level Server over stdio: log levels, resource subscriptions and
//     a paged tool list, which no example server offers.
//
// These servers speak only the legacy revisions (initialize and
// sessions), so what the tests exercise is the client's fallback from
// server/discover to initialize, and the legacy revisions asked for by
// name. They need Node 22 and the npm registry on their first run; they
// are skipped (with a line saying why) when those are missing, unless
// $CI is set, and skipped under -short.
//
//	go test ./internal/interop -v
package interop
