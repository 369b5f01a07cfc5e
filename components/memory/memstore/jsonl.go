package memstore

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
	"unicode"
)

// The reference's memory.jsonl format: one JSON object per line, lines
// joined by "\n" with no trailing newline, entities first then relations,
// each in insertion order, keys in this order:
//
//	{"type":"entity","name":…,"entityType":…,"observations":[…]}
//	{"type":"relation","from":…,"to":…,"relationType":…}
//
// Strings are escaped as JavaScript's JSON.stringify does.

// jsonlItem is one parsed line of a memory file.
type jsonlItem struct {
	entity   *Entity
	relation *Relation
	history  *historyLine // a line of ExportWithHistory
}

// parseJSONL parses a memory file into entities and relations, in file
// order, and the history lines of an export with history, and counts
// ignored lines.
func parseJSONL(r io.Reader) (items []jsonlItem, history []historyLine, ignored int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for lineNo := 1; ; lineNo++ {
		line, rerr := br.ReadBytes('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return nil, nil, 0, fmt.Errorf("memstore: import: read: %w", rerr)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		if !jsBlank(line) {
			it, ok, err := parseJSONLLine(line, lineNo)
			if err != nil {
				return nil, nil, 0, err
			}
			switch {
			case ok && it.history != nil:
				history = append(history, *it.history)
			case ok:
				items = append(items, it)
			default:
				ignored++
			}
		}
		if rerr != nil { // io.EOF
			return items, history, ignored, nil
		}
	}
}

// parseJSONLLine parses one non-blank line; ok is false for an object of
// another type.
func parseJSONLLine(line []byte, lineNo int) (it jsonlItem, ok bool, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: import line %d: %s", ErrInvalid, lineNo, fmt.Sprintf(format, args...))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(line, &obj); err != nil {
		return it, false, bad("%v", err)
	}
	if obj == nil {
		return it, false, bad("not a JSON object")
	}
	var typ string
	if raw, found := obj["type"]; !found || json.Unmarshal(raw, &typ) != nil {
		return it, false, nil
	}
	str := func(key string) (string, error) {
		raw, found := obj[key]
		var v string
		if !found || json.Unmarshal(raw, &v) != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return "", bad("%s has no string %q", typ, key)
		}
		return v, nil
	}
	field := fmt.Sprintf("line %d", lineNo)
	switch typ {
	case "entity":
		var e Entity
		if e.Name, err = str("name"); err != nil {
			return it, false, err
		}
		if e.EntityType, err = str("entityType"); err != nil {
			return it, false, err
		}
		e.Observations = []string{}
		if raw, found := obj["observations"]; found {
			var obs []string
			if json.Unmarshal(raw, &obs) != nil {
				return it, false, bad(`entity "observations" is not an array of strings`)
			}
			if obs != nil {
				e.Observations = obs
			}
		}
		if err := validateEntity(field, e); err != nil {
			return it, false, err
		}
		return jsonlItem{entity: &e}, true, nil
	case "history":
		var h historyLine
		if err := json.Unmarshal(line, &h); err != nil {
			return it, false, bad("history: %v", err)
		}
		if err := checkHistoryLine(field, h); err != nil {
			return it, false, err
		}
		h.Detail = truncate(h.Detail, MaxChangeDetailBytes)
		return jsonlItem{history: &h}, true, nil
	case "relation":
		var r Relation
		if r.From, err = str("from"); err != nil {
			return it, false, err
		}
		if r.To, err = str("to"); err != nil {
			return it, false, err
		}
		if r.RelationType, err = str("relationType"); err != nil {
			return it, false, err
		}
		if err := validateRelation(field, r); err != nil {
			return it, false, err
		}
		return jsonlItem{relation: &r}, true, nil
	}
	return it, false, nil
}

// jsBlank reports whether line.trim() === "" in JavaScript: only
// WhiteSpace and LineTerminator characters.
func jsBlank(line []byte) bool {
	for _, r := range string(line) {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0x00A0, 0xFEFF, 0x2028, 0x2029:
			continue
		}
		if !unicode.Is(unicode.Zs, r) {
			return false
		}
	}
	return true
}

// WriteJSONL writes g in the reference's memory.jsonl format, byte for byte
// as the reference's saveGraph would.
func WriteJSONL(w io.Writer, g Graph) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	first := true
	line := func() {
		if !first {
			buf = append(buf, '\n')
		}
		first = false
	}
	flush := func() error {
		_, err := bw.Write(buf)
		buf = buf[:0]
		return err
	}
	for _, e := range g.Entities {
		line()
		buf = append(buf, `{"type":"entity","name":`...)
		buf = appendJSString(buf, e.Name)
		buf = append(buf, `,"entityType":`...)
		buf = appendJSString(buf, e.EntityType)
		buf = append(buf, `,"observations":[`...)
		for i, o := range e.Observations {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSString(buf, o)
		}
		buf = append(buf, "]}"...)
		if err := flush(); err != nil {
			return fmt.Errorf("memstore: export: %w", err)
		}
	}
	for _, r := range g.Relations {
		line()
		buf = append(buf, `{"type":"relation","from":`...)
		buf = appendJSString(buf, r.From)
		buf = append(buf, `,"to":`...)
		buf = appendJSString(buf, r.To)
		buf = append(buf, `,"relationType":`...)
		buf = appendJSString(buf, r.RelationType)
		buf = append(buf, '}')
		if err := flush(); err != nil {
			return fmt.Errorf("memstore: export: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("memstore: export: %w", err)
	}
	return nil
}

// appendJSString appends s quoted as JSON.stringify does: only '"', '\\'
// and control characters are escaped (\b \t \n \f \r, others as \u00xx);
// everything else, including U+2028, U+2029 and '<', is written as is.
func appendJSString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"':
			buf = append(buf, `\"`...)
		case '\\':
			buf = append(buf, `\\`...)
		case '\b':
			buf = append(buf, `\b`...)
		case '\t':
			buf = append(buf, `\t`...)
		case '\n':
			buf = append(buf, `\n`...)
		case '\f':
			buf = append(buf, `\f`...)
		case '\r':
			buf = append(buf, `\r`...)
		default:
			buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		start = i + 1
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// historyLine is a line of an export with history: an entity's change.
// The reference's loader ignores lines of other types than entity and
// relation, so such a file still loads there.
type historyLine struct {
	Type     string     `json:"type"` // "history"
	Entity   string     `json:"entity"`
	Seq      int64      `json:"seq"`
	Kind     ChangeKind `json:"kind"`
	Detail   string     `json:"detail,omitempty"`
	Relation *Relation  `json:"relation,omitempty"`
	Author   string     `json:"author"`
	At       time.Time  `json:"at"`
}

// checkHistoryLine validates a history line of an import.
func checkHistoryLine(field string, h historyLine) error {
	switch h.Kind {
	case ChangeEntityCreated, ChangeEntityDeleted, ChangeObservationAdded, ChangeObservationDeleted, ChangeRelationCreated, ChangeRelationDeleted:
	default:
		return fmt.Errorf("%w: %s: history kind %q is not an entity's change", ErrInvalid, field, h.Kind)
	}
	if h.Seq < 0 || h.At.IsZero() {
		return fmt.Errorf("%w: %s: history needs a seq of at least 0 and a time", ErrInvalid, field)
	}
	if err := checkName(field+".entity", h.Entity); err != nil {
		return err
	}
	if err := checkName(field+".author", h.Author); err != nil {
		return err
	}
	if err := checkObservation(field+".detail", h.Detail); err != nil {
		return err
	}
	if h.Relation != nil {
		return validateRelation(field+".relation", *h.Relation)
	}
	return nil
}

// ExportWithHistory writes what Export writes, then the audit trail: one
// line {"type":"history","entity":…,"seq":…,"kind":…,"author":…,"at":…}
// per history row of s, oldest first.
func ExportWithHistory(ctx context.Context, s Store, w io.Writer) error {
	graph := &countWriter{w: w}
	if err := s.Export(ctx, graph); err != nil {
		return err
	}
	first := graph.n == 0
	bw := bufio.NewWriterSize(w, 64<<10)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	err := s.WalkHistory(ctx, func(entity string, c Change) error {
		line.Reset()
		if !first {
			line.WriteByte('\n') // lines are joined by newlines, as Export's
		}
		first = false
		if err := enc.Encode(historyLine{Type: "history", Entity: entity, Seq: c.Seq, Kind: c.Kind, Detail: c.Detail, Relation: c.Relation, Author: c.Author, At: c.At}); err != nil {
			return err
		}
		_, err := bw.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
