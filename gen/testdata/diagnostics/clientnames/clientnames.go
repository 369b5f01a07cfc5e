// Package clientnames has components whose names collide in the typed
// client: two components that would get one method, a component taking
// the name of the client's own method, a type the client declares, and
// a tool taking the name of a resource's Subscribe method.
//
//mcp:server name=clientnames
package clientnames

import "context"

// ReadStatus reads the status as a tool.
//
//mcp:tool readonly
type ReadStatus struct{}

// Call answers.
func (ReadStatus) Call(context.Context) (string, error) { return "ok", nil }

// Status is the status as a resource, whose client method is ReadStatus.
//
//mcp:resource uri=status://now
type Status struct{} // want `Status: its typed client method collides with that of ReadStatus at .*clientnames.go:14:6 \(both are ReadStatus\)`

// Read answers.
func (Status) Read(context.Context) (string, error) { return "ok", nil }

// CheckSurface is a tool named like the client's own method.
//
//mcp:tool readonly
type CheckSurface struct{} // want `CheckSurface: the typed client's method CheckSurface would collide with the client's own CheckSurface method`

// Call answers.
func (CheckSurface) Call(context.Context) (string, error) { return "ok", nil }

// Client is a tool whose type the client package declares itself.
//
//mcp:tool readonly
type Client struct{} // want `Client: the typed client package declares Client itself`

// Call answers.
func (Client) Call(context.Context) (string, error) { return "ok", nil }

// SubscribeFeed is a tool named like the client's method subscribing to
// the resource Feed.
//
//mcp:tool readonly
type SubscribeFeed struct{}

// Call answers.
func (SubscribeFeed) Call(context.Context) (string, error) { return "ok", nil }

// Feed is a resource, whose client methods are ReadFeed and SubscribeFeed.
//
//mcp:resource uri=feed://now
type Feed struct{} // want `Feed: its typed client method SubscribeFeed collides with the method of SubscribeFeed at .*clientnames.go:\d+:6`

// Read answers.
func (Feed) Read(context.Context) (string, error) { return "ok", nil }
