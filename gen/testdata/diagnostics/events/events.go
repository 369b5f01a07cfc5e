// Package events holds the mistakes of //mcp:event (see ../mistakes/doc.go
// for the want comments).
//
//mcp:server name=eventmistakes
package events

import (
	"context"

	"github.com/mcpgen/mcpgen"
)

// Gone names a filter that does not exist.
//
/* want `filter type "Nope" not found` */ //mcp:event name=gone filter=Nope
type Gone struct {
	A string `json:"a"`
}

// NotStruct names a filter that is not a struct.
//
/* want `filter type Kind is not a struct` */ //mcp:event name=not.struct filter=Kind
type NotStruct struct {
	A string `json:"a"`
}

// Kind is a string.
type Kind string

// Keyed has a key events do not have.
//
/* want `//mcp:event: unknown key "readonly"\n\tknown keys: name, title, description, scope, filter` */ //mcp:event name=keyed readonly
type Keyed struct {
	A string `json:"a"`
}

// BadName has a name that is not dotted lower-case words.
//
/* want `event Bad..Name: invalid event name` */ //mcp:event name=Bad..Name
type BadName struct {
	A string `json:"a"`
}

// WrongMatch's filter has a Match of another signature.
//
//mcp:event name=wrong.match filter=WrongFilter
type WrongMatch struct {
	A string `json:"a"`
}

// WrongFilter is a filter.
type WrongFilter struct {
	A string `json:"a"`
}

func (WrongFilter) Match(s string) bool { return s == "" } // want `WrongFilter.Match: Match of an event filter has the wrong signature\n\tdeclare func \(f WrongFilter\) Match\(e WrongMatch\) bool`

// Emits calls mcpgen.Emit right and wrong: with an event, with a type
// parameter that allows only events, with a type that is no event and
// with a type parameter that allows anything.
func Emits(ctx context.Context) error {
	_ = mcpgen.Emit(ctx, WrongMatch{})
	_ = emitSome(ctx, []WrongMatch{{}})
	_ = emitAny(ctx, []Kind{"x"})
	return mcpgen.Emit(ctx, Kind("x")) // want `mcpgen.Emit: Kind is not an //mcp:event type: recording it would fail when it runs\n\temit a value of an //mcp:event type of this package: .*WrongMatch`
}

func emitSome[E WrongMatch | Gone](ctx context.Context, evs []E) error {
	for _, ev := range evs {
		if err := mcpgen.Emit(ctx, ev); err != nil {
			return err
		}
	}
	return nil
}

func emitAny[E any](ctx context.Context, evs []E) error {
	for _, ev := range evs {
		if err := mcpgen.Emit(ctx, ev); err != nil { // want `mcpgen.Emit: E is not an //mcp:event type`
			return err
		}
	}
	return nil
}

// Feed gives mcpgen.FeedEvent literals right and wrong: an event, keyed
// and positional, and a type that is no event.
func Feed() []mcpgen.FeedEvent {
	return []mcpgen.FeedEvent{
		{Partition: "", Event: WrongMatch{}},
		{"", WrongMatch{}},
		{Event: Kind("x")}, // want `mcpgen.FeedEvent: Kind is not an //mcp:event type: recording it would fail when it runs`
		{"p", 3},           // want `mcpgen.FeedEvent: int is not an //mcp:event type`
	}
}
