// Package schemaprog is what mcpgen's temporary schema program runs. The
// generator writes a tiny main package into the user's module (through a
// build overlay, never on disk there) that lists the Go types to describe
// and calls [Main]; Main derives one JSON Schema per type and prints one
// JSON line per job on stdout.
//
// The schemas describe the JSON that encoding/json actually writes (output
// schemas) or reads (input schemas): names, omitempty/omitzero, ",string",
// embedded structs and their conflicts, the bounds of integers under 64 bits,
// null where a pointer, slice or map may be nil, and the types that carry
// their own JSON form (json.Marshaler, encoding.TextMarshaler, a
// JSONSchema() method). Where the form cannot be known, Main reports an
// error naming the field, which the generator turns into a positioned
// diagnostic. The rules are documented in docs/annotations.md.
//
// It is a package of its own, outside internal/, because the program is
// built inside the user's module: whatever it imports must be importable
// from there, and must be among mcpgen's own dependencies, so that
// `go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen` records every checksum
// the program needs. It is not meant to be used directly.
package schemaprog

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
)

// ImportPath is this package's import path, as the generated program
// imports it.
const ImportPath = "github.com/mcpgen/mcpgen/gen/schemaprog"

// Job is one schema to derive: Value is a pointer to a zero value of the
// type to describe, Key names the schema in the output. A key ending in
// "/output" describes what the encoder writes; any other, what the decoder
// reads.
type Job struct {
	Key   string
	Value any
}

// Line is what Main prints for one job.
type Line struct {
	Key    string          `json:"key"`
	Schema json.RawMessage `json:"schema,omitempty"`
	// Exact says that every value of the Go type encodes to JSON the
	// schema accepts: nothing in it came from a JSONSchema method, a
	// format or a constraint tag.
	Exact  bool    `json:"exact"`
	Errors []Error `json:"errors,omitempty"`
}

// Error is a mistake found while deriving a schema.
type Error struct {
	// Field is "pkgpath.Type.Field", the struct field at fault, or "" for
	// the job's type itself.
	Field string `json:"field,omitempty"`
	Msg   string `json:"msg"`
	Hint  string `json:"hint,omitempty"`
}

// Main derives the schema of every job and prints them on stdout, one per
// line. comments maps "pkgpath.Type.Field" to the field's doc comment, which
// becomes its description. On failure it prints the error on stderr and
// exits 1.
func Main(comments map[string]string, jobs []Job) {
	if err := Run(bufio.NewWriter(os.Stdout), comments, jobs); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen schema program:", err)
		os.Exit(1)
	}
}

// Run is Main writing to w, which it flushes.
func Run(w *bufio.Writer, comments map[string]string, jobs []Job) error {
	for _, j := range jobs {
		line := Derive(j.Key, reflect.TypeOf(j.Value).Elem(), strings.HasSuffix(j.Key, "/output"), comments)
		b, err := json.Marshal(line)
		if err != nil {
			return fmt.Errorf("%s: %w", j.Key, err)
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	return w.Flush()
}

// Derive derives the schema of t: of what encoding/json writes for it when
// output is set, else of what it reads into it.
func Derive(key string, t reflect.Type, output bool, comments map[string]string) Line {
	d := newDeriver(output, comments)
	doc := d.document(t)
	line := Line{Key: key, Errors: d.errs, Exact: !d.inexact}
	if len(d.errs) == 0 {
		b, err := json.Marshal(doc)
		if err != nil {
			line.Errors = append(line.Errors, Error{Msg: fmt.Sprintf("encode schema: %v", err)})
		} else {
			line.Schema = b
		}
	}
	return line
}
