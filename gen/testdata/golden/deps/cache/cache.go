// Package cache is a second dependency of the deps golden case whose type
// name collides with store.Store.
package cache

// Store counts hits.
type Store struct{ Hits int }

// Server names the upstream; as a dependency its parameter would be called
// server, which New's body needs for the runtime package.
type Server struct{ Name string }
