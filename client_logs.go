package mcpgen

import (
	"context"
	"encoding/json"
	"fmt"
)

// This file sets the level of the log messages the server sends
// (notifications/message) and hands them to ClientOptions.OnLog: per
// session with logging/setLevel in the legacy era, per request with the
// io.modelcontextprotocol/logLevel key of _meta in 2026-07-28, where a
// server sends no log message for a request that does not carry it.

// LogMessage is one log message of the server (notifications/message):
// its level ("debug" ... "emergency"), the logger that wrote it, if
// named, and its data, any JSON value.
type LogMessage struct {
	// Level is the message's severity, "debug" ... "emergency".
	Level string `json:"level"`
	// Logger names what wrote the message, if the server said.
	Logger string `json:"logger,omitempty"`
	// Data is the message itself, any JSON value.
	Data json.RawMessage `json:"data"`
}

// SetLogLevel asks the server for the log messages at level or above
// ("debug", "info", "notice", "warning", "error", "critical", "alert",
// "emergency"): in a legacy session it sends logging/setLevel, which the
// session keeps; in the stateless era (2026-07-28) it sends nothing, and
// every request from now on carries the level in its _meta, as the
// revision asks. The messages reach ClientOptions.OnLog (and
// OnNotification). [WithLogLevel] sets the level of one call instead.
func (c *Client) SetLogLevel(ctx context.Context, level string) error {
	if !validLogLevel(level) {
		return fmt.Errorf("set log level: %w: unknown log level %q (debug, info, notice, warning, error, critical, alert, emergency)", ErrInvalidParams, level)
	}
	if c.legacy {
		if _, err := c.call(ctx, "logging/setLevel", map[string]any{"level": level}, ""); err != nil {
			return fmt.Errorf("logging/setLevel: %w", err)
		}
	}
	c.logLevel.Store(&level)
	return nil
}

// LogLevel is the level set with [Client.SetLogLevel], or "" for none.
func (c *Client) LogLevel() string {
	if l := c.logLevel.Load(); l != nil {
		return *l
	}
	return ""
}

type logLevelKey struct{}

// WithLogLevel returns a context under which calls to a 2026-07-28 server
// ask for the log messages at level or above (the logLevel of the
// request's _meta), whatever [Client.SetLogLevel] chose. A legacy session
// has one level for all its requests: there, only SetLogLevel sets it, and
// the context's level is not sent. An unknown level makes the calls fail
// with [ErrInvalidParams] before anything is sent.
func WithLogLevel(ctx context.Context, level string) context.Context {
	return context.WithValue(ctx, logLevelKey{}, level)
}

// requestLogLevel is the log level a 2026-07-28 request carries: the
// context's, else the client's.
func (c *Client) requestLogLevel(ctx context.Context) (string, error) {
	if l, ok := ctx.Value(logLevelKey{}).(string); ok {
		if !validLogLevel(l) {
			return "", fmt.Errorf("%w: unknown log level %q (WithLogLevel)", ErrInvalidParams, l)
		}
		return l, nil
	}
	return c.LogLevel(), nil
}

// onLog hands a notifications/message to ClientOptions.OnLog.
func (c *Client) onLog(params json.RawMessage) {
	if c.opts.OnLog == nil {
		return
	}
	var m LogMessage
	if json.Unmarshal(params, &m) == nil && m.Level != "" {
		c.opts.OnLog(m)
	}
}
