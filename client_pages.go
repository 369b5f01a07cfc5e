package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
)

// This file lists page by page: a method per list that fetches one page
// at a cursor and returns the next cursor, and an iterator per list that
// follows the cursors within the client's bounds (ClientOptions.MaxPages
// and MaxListBytes) without holding more than one page. The List* methods
// collect the iterator.

// ListToolsPage fetches one page of tools.list: the first with cursor "",
// the next with the cursor the previous page returned; next is "" after
// the last page. As [Client.ListTools] does, over HTTP in the stateless
// era it leaves out a tool whose x-mcp-header annotations break the rules
// of the transport.
func (c *Client) ListToolsPage(ctx context.Context, cursor string) (tools []ToolInfo, next string, err error) {
	tools, next, _, err = fetchPage[ToolInfo](ctx, c, "tools/list", "tools", cursor)
	if err != nil {
		return nil, "", err
	}
	return c.keepTools(tools), next, nil
}

// ListResourcesPage fetches one page of resources/list; see
// [Client.ListToolsPage] for the cursors.
func (c *Client) ListResourcesPage(ctx context.Context, cursor string) (resources []ResourceInfo, next string, err error) {
	resources, next, _, err = fetchPage[ResourceInfo](ctx, c, "resources/list", "resources", cursor)
	return resources, next, err
}

// ListResourceTemplatesPage fetches one page of resources/templates/list;
// see [Client.ListToolsPage] for the cursors.
func (c *Client) ListResourceTemplatesPage(ctx context.Context, cursor string) (templates []TemplateInfo, next string, err error) {
	templates, next, _, err = fetchPage[TemplateInfo](ctx, c, "resources/templates/list", "resourceTemplates", cursor)
	return templates, next, err
}

// ListPromptsPage fetches one page of prompts/list; see
// [Client.ListToolsPage] for the cursors.
func (c *Client) ListPromptsPage(ctx context.Context, cursor string) (prompts []PromptInfo, next string, err error) {
	prompts, next, _, err = fetchPage[PromptInfo](ctx, c, "prompts/list", "prompts", cursor)
	return prompts, next, err
}

// ListSkillsPage fetches one page of skills/list; see
// [Client.ListToolsPage] for the cursors.
func (c *Client) ListSkillsPage(ctx context.Context, cursor string) (skills []SkillInfo, next string, err error) {
	skills, next, _, err = fetchPage[SkillInfo](ctx, c, "skills/list", "skills", cursor)
	return skills, next, err
}

// Tools iterates over the server's tools page by page, fetching a page
// when the loop reaches it and holding one page at a time. It stops with
// an error (the pair's second value) when a page fails, or with
// [ErrListLimit] past ClientOptions.MaxPages pages or MaxListBytes bytes;
// breaking out of the loop fetches no more pages.
//
//	for tool, err := range c.Tools(ctx) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(tool.Name)
//	}
func (c *Client) Tools(ctx context.Context) iter.Seq2[ToolInfo, error] {
	return listSeq(ctx, c, "tools/list", "tools", c.keepTools)
}

// Resources iterates over the server's resources page by page; see
// [Client.Tools].
func (c *Client) Resources(ctx context.Context) iter.Seq2[ResourceInfo, error] {
	return listSeq[ResourceInfo](ctx, c, "resources/list", "resources", nil)
}

// ResourceTemplates iterates over the server's resource templates page
// by page; see [Client.Tools].
func (c *Client) ResourceTemplates(ctx context.Context) iter.Seq2[TemplateInfo, error] {
	return listSeq[TemplateInfo](ctx, c, "resources/templates/list", "resourceTemplates", nil)
}

// Prompts iterates over the server's prompts page by page; see
// [Client.Tools].
func (c *Client) Prompts(ctx context.Context) iter.Seq2[PromptInfo, error] {
	return listSeq[PromptInfo](ctx, c, "prompts/list", "prompts", nil)
}

// Skills iterates over the server's skills page by page; see
// [Client.Tools].
func (c *Client) Skills(ctx context.Context) iter.Seq2[SkillInfo, error] {
	return listSeq[SkillInfo](ctx, c, "skills/list", "skills", nil)
}

// keepTools drops the tools whose x-mcp-header annotations break the
// rules of the transport (stateless HTTP only) and remembers the input
// schemas of the others, for the headers of their calls.
func (c *Client) keepTools(tools []ToolInfo) []ToolInfo {
	kept := tools[:0]
	c.toolsMu.Lock()
	defer c.toolsMu.Unlock()
	for _, t := range tools {
		if _, err := headerPaths(t.InputSchema); err != nil && c.mirrorsHeaders() {
			continue
		}
		if _, known := c.toolCache[t.Name]; known || len(c.toolCache) < maxToolCache {
			c.toolCache[t.Name] = t.InputSchema
		}
		kept = append(kept, t)
	}
	return kept
}

// maxToolCache bounds the input schemas the client remembers: a server
// listing more tools than that has the headers of the rest computed
// without their schema (no Mcp-Param-* headers).
const maxToolCache = 10000

// fetchPage calls a list method once at cursor and returns the items
// under key, the next cursor and the size of the answer.
func fetchPage[T any](ctx context.Context, c *Client, method, key, cursor string) ([]T, string, int64, error) {
	var params map[string]any
	if cursor != "" {
		params = map[string]any{"cursor": cursor}
	}
	raw, err := c.call(ctx, method, params, "")
	if err != nil {
		return nil, "", 0, fmt.Errorf("%s: %w", method, err)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, "", 0, fmt.Errorf("%s: decode result: %w: %w", method, ErrUnexpectedResult, err)
	}
	var items []T
	if b := res[key]; len(b) > 0 {
		if err := json.Unmarshal(b, &items); err != nil {
			return nil, "", 0, fmt.Errorf("%s: decode %s: %w: %w", method, key, ErrUnexpectedResult, err)
		}
	}
	var next string
	if b := res["nextCursor"]; len(b) > 0 && string(b) != "null" {
		if err := json.Unmarshal(b, &next); err != nil {
			return nil, "", 0, fmt.Errorf("%s: decode nextCursor: %w: %w", method, ErrUnexpectedResult, err)
		}
	}
	return items, next, int64(len(raw)), nil
}

// listSeq iterates over a list page by page, at most MaxPages pages of
// MaxListBytes together; keep, if set, filters each page.
func listSeq[T any](ctx context.Context, c *Client, method, key string, keep func([]T) []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		var cursor string
		var size int64
		seen := map[string]bool{}
		for page := 0; ; page++ {
			if page == c.opts.MaxPages {
				yield(zero, fmt.Errorf("%s: %w: more than %d pages (ClientOptions.MaxPages)", method, ErrListLimit, c.opts.MaxPages))
				return
			}
			items, next, n, err := fetchPage[T](ctx, c, method, key, cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			if size += n; size > c.opts.MaxListBytes {
				yield(zero, fmt.Errorf("%s: %w: more than %d bytes in %d pages (ClientOptions.MaxListBytes)", method, ErrListLimit, c.opts.MaxListBytes, page+1))
				return
			}
			if keep != nil {
				items = keep(items)
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			if seen[next] {
				yield(zero, fmt.Errorf("%s: the server repeated the cursor %q", method, next))
				return
			}
			seen[next] = true
			cursor = next
		}
	}
}

// listAll collects a list's iterator: every item, or the first error.
func listAll[T any](ctx context.Context, c *Client, method, key string, keep func([]T) []T) ([]T, error) {
	var all []T
	for it, err := range listSeq(ctx, c, method, key, keep) {
		if err != nil {
			return nil, err
		}
		all = append(all, it)
	}
	return all, nil
}
