// Package schemaprog is what mcpgen's temporary schema program runs. The
// generator writes a tiny main package into the user's module (through a
// build overlay, never on disk there) that lists the Go types to describe
// and calls [Main]; Main derives one JSON Schema per type and prints it on
// stdout as "key<TAB>schema" lines.
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

	"github.com/invopop/jsonschema"
)

// ImportPath is this package's import path, as the generated program
// imports it.
const ImportPath = "github.com/mcpgen/mcpgen/gen/schemaprog"

// Job is one schema to derive: Value is a pointer to a zero value of the
// type to describe, Key names the schema in the output.
type Job struct {
	Key   string
	Value any
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
	r := &jsonschema.Reflector{
		DoNotReference: true,
		ExpandedStruct: true,
		Anonymous:      true,
		CommentMap:     comments,
		// json.Number is a string type that encodes as a JSON number.
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if t == reflect.TypeFor[json.Number]() {
				return &jsonschema.Schema{Type: "number"}
			}
			return nil
		},
	}
	for _, j := range jobs {
		b, err := json.Marshal(r.Reflect(j.Value))
		if err != nil {
			return fmt.Errorf("%s: %w", j.Key, err)
		}
		w.WriteString(j.Key)
		w.WriteByte('\t')
		w.Write(b)
		w.WriteByte('\n')
	}
	return w.Flush()
}
