// Package jsontag reads `json` struct tags exactly as encoding/json does,
// so that the generator (working on go/types) and its schema program
// (working on reflect) agree with the encoder about every field's name and
// options.
package jsontag

import (
	"reflect"
	"strings"
	"unicode"
)

// Tag is a field's json tag, parsed.
type Tag struct {
	Skip      bool   // `json:"-"`: encoding/json ignores the field
	Name      string // the name from the tag; "" when absent or invalid
	Invalid   string // a name encoding/json refuses (it then uses the Go name)
	OmitEmpty bool
	OmitZero  bool
	String    bool     // the ",string" option
	Unknown   []string // options encoding/json does not know (they are ignored)
}

// Parse reads the json key of a struct tag (the whole tag string, as
// reflect.StructTag holds it).
func Parse(structTag string) Tag {
	v, ok := reflect.StructTag(structTag).Lookup("json")
	if !ok {
		return Tag{}
	}
	if v == "-" {
		return Tag{Skip: true}
	}
	name, opts, _ := strings.Cut(v, ",")
	var t Tag
	if name != "" {
		if ValidName(name) {
			t.Name = name
		} else {
			t.Invalid = name
		}
	}
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		switch o {
		case "omitempty":
			t.OmitEmpty = true
		case "omitzero":
			t.OmitZero = true
		case "string":
			t.String = true
		case "":
		default:
			t.Unknown = append(t.Unknown, o)
		}
	}
	return t
}

// ValidName reports whether encoding/json accepts name as a key from a
// tag: letters, digits and the punctuation it allows (no quotes,
// backslashes or commas).
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
