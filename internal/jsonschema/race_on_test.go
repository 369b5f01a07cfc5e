//go:build race

package jsonschema

const raceEnabled = true
