package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
)

// debtTerms are the words search_nodes looks for when gathering what the
// graph records as technical debt.
var debtTerms = []string{"debt", "todo", "fixme", "hack", "workaround", "deprecated", "legacy"}

// Review what the knowledge graph records as technical debt (observations mentioning debt, TODO, FIXME, hacks, workarounds, deprecations), optionally scoped to one entity and its neighbours, and propose what to pay down first.
//
//mcp:prompt name=analyze_tech_debt title="Analyze technical debt" scope=memory:read
type AnalyzeTechDebt struct {
	// Limit the review to this entity and the entities related to it.
	Entity *string `json:"entity,omitempty"`
}

// Get gathers the matching observations into a review request.
func (p AnalyzeTechDebt) Get(ctx context.Context, store memstore.Store) (string, error) {
	var scope map[string]bool
	if p.Entity != nil && *p.Entity != "" {
		g, err := store.OpenNodes(ctx, []string{*p.Entity})
		if err != nil {
			return "", err
		}
		if len(g.Entities) == 0 {
			return "", fmt.Errorf("%w: no entity named %q", errInvalidArgument, *p.Entity)
		}
		scope = map[string]bool{*p.Entity: true}
		for _, r := range g.Relations {
			scope[r.From], scope[r.To] = true, true
		}
	}
	found := map[string][]string{}
	var order []string
	for _, term := range debtTerms {
		g, err := store.SearchNodes(ctx, term)
		if err != nil {
			return "", err
		}
		for _, e := range g.Entities {
			if scope != nil && !scope[e.Name] {
				continue
			}
			for _, o := range e.Observations {
				if strings.Contains(strings.ToLower(o), term) && !contains(found[e.Name], o) {
					if _, seen := found[e.Name]; !seen {
						order = append(order, e.Name)
					}
					found[e.Name] = append(found[e.Name], o)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("Review the technical debt recorded in the knowledge graph")
	if scope != nil {
		fmt.Fprintf(&b, " around %q", *p.Entity)
	}
	b.WriteString(". For each item say what it costs, what paying it down takes, and rank the items by value for effort.\n\n")
	if len(order) == 0 {
		b.WriteString("The graph records no observations mentioning technical debt. Say so, and suggest where debt is likely to hide given the entities in the graph.\n")
	}
	for _, name := range order {
		fmt.Fprintf(&b, "## %s\n", name)
		for _, o := range found[name] {
			fmt.Fprintf(&b, "- %s\n", o)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

// Complete offers entity names for the entity argument.
func (AnalyzeTechDebt) Complete(ctx context.Context, c mcpgen.CompleteRequest, store memstore.Store) ([]string, error) {
	return completeEntity(ctx, store, c.Value)
}

// Draft a hand-off note for whoever picks up the work next, from the active tasks and the most recent changes to the knowledge graph.
//
//mcp:prompt name=handoff_routine title="Hand-off routine" scope=memory:read
type HandoffRoutine struct {
	// Focus the hand-off on tasks linked to this entity.
	Focus *string `json:"focus,omitempty"`
}

// Get collects active tasks and recent changes into a drafting request.
func (p HandoffRoutine) Get(ctx context.Context, store memstore.Store) (string, error) {
	f := memstore.TaskFilter{ActiveOnly: true}
	if p.Focus != nil {
		f.Entity = *p.Focus
	}
	tasks, err := store.ListTasks(ctx, f)
	if err != nil {
		return "", err
	}
	head, err := store.Head(ctx)
	if err != nil {
		return "", err
	}
	recent, _, err := store.Changes(ctx, max(0, head-50), 50)
	if err != nil {
		return "", err
	}
	tb, _ := json.MarshalIndent(tasks, "", "  ")
	cb, _ := json.MarshalIndent(recent, "", "  ")
	var b strings.Builder
	b.WriteString("Draft a concise hand-off note for the next person (or agent) taking over this work: what is in flight, what is blocked and why, what changed recently, and the first three things to do next.\n\n")
	fmt.Fprintf(&b, "Active tasks:\n```json\n%s\n```\n\nRecent changes (oldest first):\n```json\n%s\n```\n", tb, cb)
	return b.String(), nil
}

// Complete offers entity names for the focus argument.
func (HandoffRoutine) Complete(ctx context.Context, c mcpgen.CompleteRequest, store memstore.Store) ([]string, error) {
	return completeEntity(ctx, store, c.Value)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
