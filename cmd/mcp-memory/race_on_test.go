//go:build race

package main

// raceEnabled: under `go test -race` the server binary is built with -race
// too, so the end-to-end tests also look for data races in the server.
const raceEnabled = true
