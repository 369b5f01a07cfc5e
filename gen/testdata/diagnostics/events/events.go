// Package events holds the mistakes of //mcp:event (see ../mistakes/doc.go
// for the want comments).
//
//mcp:server name=eventmistakes
package events

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
