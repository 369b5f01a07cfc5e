package mcpgen

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// list holds the encoded pages of one list method, for each era, built once
// at start-up: answering a list request copies no item.
type list struct {
	method string
	legacy []json.RawMessage // page i, legacy encoding
	modern []json.RawMessage // page i, with resultType and cache hints
}

// lists answers the list methods (tools/list, resources/list,
// resources/templates/list, prompts/list, skills/list and the views'
// variants) from pages encoded at start-up, and again when the
// deployment's signing key rotates (the cursors are sealed into them).
// What is listed is decided by fill, which New sets.
type lists struct {
	pages  atomic.Pointer[map[string]*list] // by method
	size   int                              // Options.PageSize
	cache  Cache                            // Options.ListCache
	signer *signer
	fill   func(*listPages) error
}

// listPages is the set of lists being built.
type listPages struct {
	ls    *lists
	pages map[string]*list
}

// rebuild encodes every list again, with cursors sealed by the current
// key.
func (ls *lists) rebuild() error {
	b := &listPages{ls: ls, pages: map[string]*list{}}
	if err := ls.fill(b); err != nil {
		return err
	}
	ls.pages.Store(&b.pages)
	return nil
}

// add encodes the pages of method, whose result holds items under key.
// With hinted, the legacy pages carry the 2026-07-28 cache hints too (an
// extension may define its results as cacheable in every revision).
func (b *listPages) add(method, key string, items []any, hinted bool) error {
	l := &list{method: method}
	size := b.ls.size
	hints := fmt.Sprintf(`,"ttlMs":%d,"cacheScope":%q`, b.ls.cache.TTLMs, b.ls.cache.Scope)
	legacyHints := ""
	if hinted {
		legacyHints = hints
	}
	for start := 0; ; start += size {
		end := min(start+size, len(items))
		body, err := json.Marshal(items[start:end])
		if err != nil {
			return fmt.Errorf("encode %s: %w", method, err)
		}
		next := ""
		if end < len(items) {
			next = fmt.Sprintf(`,"nextCursor":%q`, b.ls.signer.cursor(method, end))
		}
		l.legacy = append(l.legacy, json.RawMessage(fmt.Sprintf(`{%q:%s%s%s}`, key, body, next, legacyHints)))
		l.modern = append(l.modern, json.RawMessage(fmt.Sprintf(`{"resultType":%q,%q:%s%s%s}`, resultComplete, key, body, next, hints)))
		if end == len(items) {
			b.pages[method] = l
			return nil
		}
	}
}

// page returns the encoded page of method a cursor points at.
func (ls *lists) page(method string, cursor *string, modern bool) (json.RawMessage, error) {
	l := (*ls.pages.Load())[method]
	i, err := ls.offset(method, cursor, len(l.legacy)*ls.size)
	if err != nil || i%ls.size != 0 {
		return nil, fmt.Errorf("%w: invalid cursor", jsonrpc.ErrInvalidParams)
	}
	if modern {
		return l.modern[i/ls.size], nil
	}
	return l.legacy[i/ls.size], nil
}

// offset is where a cursor of method points, among n items (0 for none);
// an invalid cursor is invalid params.
func (ls *lists) offset(method string, cursor *string, n int) (int, error) {
	if cursor == nil || *cursor == "" {
		return 0, nil
	}
	off, ok := ls.signer.offset(method, *cursor)
	if !ok || off >= n {
		return 0, fmt.Errorf("%w: invalid cursor", jsonrpc.ErrInvalidParams)
	}
	return off, nil
}

// addComponents adds the lists of def's tools, resources, templates and
// prompts, in the generator's (sorted) order; tools offered to views only
// are listed only to clients that show views (apps.go).
func (b *listPages) addComponents(def *Definition) error {
	tools := make([]any, 0, len(def.Tools))
	for _, t := range def.Tools {
		if t.UI == nil || !t.UI.AppOnly() {
			tools = append(tools, t.Info)
		}
	}
	resources := make([]any, 0, len(def.Resources))
	for _, r := range def.Resources {
		resources = append(resources, r.Info)
	}
	templates := make([]any, 0, len(def.Templates))
	for _, t := range def.Templates {
		templates = append(templates, t.Info)
	}
	prompts := make([]any, 0, len(def.Prompts))
	for _, p := range def.Prompts {
		prompts = append(prompts, p.Info)
	}
	for _, l := range []struct {
		method, key string
		items       []any
	}{
		{"tools/list", "tools", tools},
		{"resources/list", "resources", resources},
		{"resources/templates/list", "resourceTemplates", templates},
		{"prompts/list", "prompts", prompts},
	} {
		if err := b.add(l.method, l.key, l.items, false); err != nil {
			return err
		}
	}
	return nil
}

// cursor encodes a list offset as an opaque, signed token.
func (g signer) cursor(method string, offset int) string {
	return g.seal(method + "\x00" + strconv.Itoa(offset))
}

// offset verifies a cursor and returns its offset.
func (g signer) offset(method, cursor string) (int, bool) {
	payload, ok := g.open(cursor)
	if !ok {
		return 0, false
	}
	prefix := method + "\x00"
	if len(payload) <= len(prefix) || payload[:len(prefix)] != prefix {
		return 0, false
	}
	n, err := strconv.Atoi(payload[len(prefix):])
	return n, err == nil && n >= 0
}
