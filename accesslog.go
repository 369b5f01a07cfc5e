package mcpgen

import (
	"context"
	"time"

	"go.uber.org/zap"
)

// accessLog writes one debug line per request: method, component,
// outcome, duration, subject and client (never a token or arguments).
type accessLog struct{ log *zap.Logger }

// NewAccessLog returns an [Observer] that logs one debug line per request
// on log (method, component, outcome, duration, subject and client; never
// a token or arguments), or nil when log does not write debug lines, so
// that a server at info level pays nothing for it.
func NewAccessLog(log *zap.Logger) Observer {
	if log == nil || !log.Core().Enabled(zap.DebugLevel) {
		return nil
	}
	return &accessLog{log: log.Named("access")}
}

// Event implements [Observer]; the access log only follows requests.
func (*accessLog) Event(string, ...Tag) {}

// Timing implements [Observer].
func (*accessLog) Timing(string, time.Duration, ...Tag) {}

// StartRequest implements [RequestObserver].
func (*accessLog) StartRequest(ctx context.Context, _ *RequestInfo) context.Context {
	return ctx
}

// EndRequest logs the request.
func (a *accessLog) EndRequest(_ context.Context, info *RequestInfo) {
	fields := make([]zap.Field, 0, 8)
	fields = append(fields, zap.String("method", info.Method))
	if info.Component != "" {
		fields = append(fields, zap.String("component", info.Component))
	}
	fields = append(fields, zap.String("outcome", info.Outcome), zap.Duration("duration", info.Duration))
	if info.Error != nil {
		fields = append(fields, zap.Int64("code", info.Error.Code))
	}
	if info.Auth.Subject != "" {
		fields = append(fields, zap.String("subject", info.Auth.Subject))
	}
	if info.Auth.ClientID != "" {
		fields = append(fields, zap.String("client_id", info.Auth.ClientID))
	}
	if info.SessionID != "" {
		fields = append(fields, zap.String("session", info.SessionID))
	}
	a.log.Debug("request", fields...)
}
