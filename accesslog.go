package mcpgen

import (
	"context"
	"time"

	"go.uber.org/zap"
)

// AccessLog writes one debug line per request: method, component,
// outcome, duration, subject and client (never a token or arguments).
type AccessLog struct{ log *zap.Logger }

// NewAccessLog returns an access log on log, or nil when log does not
// write debug lines, so that a server at info level pays nothing for it.
func NewAccessLog(log *zap.Logger) *AccessLog {
	if log == nil || !log.Core().Enabled(zap.DebugLevel) {
		return nil
	}
	return &AccessLog{log: log.Named("access")}
}

// Event implements server.Observer; the access log only follows requests.
func (*AccessLog) Event(string, ...Tag) {}

// Timing implements server.Observer.
func (*AccessLog) Timing(string, time.Duration, ...Tag) {}

// StartRequest implements server.RequestObserver.
func (*AccessLog) StartRequest(ctx context.Context, _ *RequestInfo) context.Context {
	return ctx
}

// EndRequest logs the request.
func (a *AccessLog) EndRequest(_ context.Context, info *RequestInfo) {
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
