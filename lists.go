package mcpgen

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// list holds the encoded pages of one list method, for each era, built once
// at start-up: answering a list request copies no item.
type list struct {
	method string
	legacy []json.RawMessage // page i, legacy encoding
	modern []json.RawMessage // page i, with resultType and cache hints
}

// buildLists encodes every list page, with cursors sealed by the current
// key; in a cluster it runs again when the deployment's key rotates.
func (s *Server) buildLists() error {
	lists := map[string]*list{}
	tools := make([]any, 0, len(s.def.Tools))
	for _, t := range s.def.Tools { // generated in a deterministic (sorted) order
		if t.UI != nil && t.UI.AppOnly() {
			continue // listed only to clients that show views (apps.go)
		}
		tools = append(tools, t.Tool)
	}
	resources := make([]any, 0, len(s.def.Resources))
	for _, r := range s.def.Resources {
		resources = append(resources, r.Resource)
	}
	templates := make([]any, 0, len(s.def.Templates))
	for _, t := range s.def.Templates {
		templates = append(templates, t.Template)
	}
	prompts := make([]any, 0, len(s.def.Prompts))
	for _, p := range s.def.Prompts {
		prompts = append(prompts, p.Prompt)
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
		built, err := s.buildList(l.method, l.key, l.items)
		if err != nil {
			return err
		}
		lists[l.method] = built
	}
	if hasSkills(s) {
		if err := s.buildSkillList(lists); err != nil {
			return err
		}
	}
	if s.apps != nil {
		if err := s.apps.buildLists(s, lists); err != nil {
			return err
		}
	}
	s.lists.Store(&lists)
	return nil
}

func (s *Server) buildList(method, key string, items []any) (*list, error) {
	l := &list{method: method}
	size := s.opts.PageSize
	for start := 0; ; start += size {
		end := min(start+size, len(items))
		body, err := json.Marshal(items[start:end])
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", method, err)
		}
		next := ""
		if end < len(items) {
			next = fmt.Sprintf(`,"nextCursor":%q`, s.signer.cursor(method, end))
		}
		l.legacy = append(l.legacy, json.RawMessage(fmt.Sprintf(`{%q:%s%s}`, key, body, next)))
		l.modern = append(l.modern, json.RawMessage(fmt.Sprintf(`{"resultType":%q,%q:%s%s,"ttlMs":%d,"cacheScope":%q}`,
			resultComplete, key, body, next, s.opts.ListCache.TTLMs, s.opts.ListCache.Scope)))
		if end == len(items) {
			return l, nil
		}
	}
}

// page returns the encoded page a cursor points at.
func (l *list) page(s *Server, cursor *string, modern bool) (json.RawMessage, error) {
	i := 0
	if cursor != nil && *cursor != "" {
		off, ok := s.signer.offset(l.method, *cursor)
		if !ok || off%s.opts.PageSize != 0 || off/s.opts.PageSize >= len(l.legacy) {
			return nil, fmt.Errorf("%w: invalid cursor", jsonrpc.ErrInvalidParams)
		}
		i = off / s.opts.PageSize
	}
	if modern {
		return l.modern[i], nil
	}
	return l.legacy[i], nil
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
