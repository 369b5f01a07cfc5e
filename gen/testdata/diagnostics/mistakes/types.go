package mistakes

import (
	"context"
	"encoding/json"
	"unsafe"
)

// Unjsonable has fields JSON cannot carry.
//
//mcp:tool
type Unjsonable struct {
	Events  chan string     `json:"events"`  // want `Unjsonable.Events: type chan string cannot be carried in JSON: channels`
	Hook    func()          `json:"hook"`    // want `Unjsonable.Hook: type func\(\) cannot be carried in JSON: functions`
	Phase   complex128      `json:"phase"`   // want `Unjsonable.Phase: type complex128 cannot be carried in JSON: complex numbers`
	Payload any             `json:"payload"` // want `Unjsonable.Payload: type any cannot be carried in JSON: interfaces`
	Counts  map[[2]int]int  `json:"counts"`  // want `Unjsonable.Counts: type map\[\[2\]int\]int cannot be carried in JSON: maps with keys other than strings, integers and text marshalers`
	Addr    unsafe.Pointer  `json:"addr"`    // want `Unjsonable.Addr: type unsafe.Pointer cannot be carried in JSON: pointers`
	Raw     json.RawMessage `json:"raw"`     // want `Unjsonable.Raw: json.RawMessage has no schema`
	Nested  Inner           `json:"nested"`
	Again   chan string     `json:"again"` // want `Unjsonable.Again: type chan string cannot be carried in JSON: channels`
	Skipped chan int        `json:"-"`
	hidden  chan int
}

// Inner is nested in Unjsonable.
type Inner struct {
	Err error `json:"err"` // want `Unjsonable.Nested.Err: type error cannot be carried in JSON: interfaces`
}

func (Unjsonable) Call(context.Context) (string, error) { _ = Unjsonable{}.hidden; return "", nil }

// Tree holds a recursive type: accepted, described through $ref.
//
//mcp:tool
type Tree struct {
	Root Node `json:"root"`
}

// Node refers to itself.
type Node struct {
	Children []Node `json:"children"`
}

func (Tree) Call(context.Context) (string, error) { return "", nil }

// ListResult returns an array as its structured result.
//
//mcp:tool
type ListResult struct{}

func (ListResult) Call(context.Context) ([]string, error) { return nil, nil } // want `ListResult.Call: structured result \[\]string is not a JSON object`

// FuncResult returns a function.
//
//mcp:tool
type FuncResult struct{}

func (FuncResult) Call(context.Context) (func(), error) { return nil, nil } // want `FuncResult.Call result: type func\(\) cannot be carried in JSON`

// ChanResource reads a struct with a channel inside.
//
//mcp:resource uri=chan://x
type ChanResource struct{}

// ChanBody is what ChanResource reads.
type ChanBody struct {
	C chan int `json:"c"` // want `ChanResource.Read result.C: type chan int cannot be carried in JSON`
}

func (ChanResource) Read(context.Context) (ChanBody, error) { return ChanBody{}, nil }

// SharedBad is a type two tools take, with a field JSON cannot carry: one
// mistake, one diagnostic.
type SharedBad struct {
	C chan int `json:"c"` // want `Uses[AB]\.S\.C: type chan int cannot be carried in JSON: channels`
}

// UsesA takes a SharedBad.
//
//mcp:tool
type UsesA struct {
	S SharedBad `json:"s"`
}

func (UsesA) Call(context.Context) (string, error) { return "", nil }

// UsesB takes a SharedBad too.
//
//mcp:tool
type UsesB struct {
	S SharedBad `json:"s"`
}

func (UsesB) Call(context.Context) (string, error) { return "", nil }
