package mcpgen

import (
	"flag"
	"time"
)

// Limits bound what clients can make a server hold: memory, connections,
// goroutines and stored state. Every limit of the runtime is a field here,
// with its default, its flag ([Limits.RegisterFlags]) and its place in
// docs/operations.md. In each field, 0 means the default and a negative
// value no cap, unless its comment says otherwise.
//
// A principal is the authenticated caller ([Principal.ID]); anonymous
// HTTP callers are told apart by their remote IP address (behind a
// reverse proxy they all share the proxy's), anonymous stdio callers are
// one principal per process.
type Limits struct {
	// MaxMessageBytes bounds one JSON-RPC message on every transport (an
	// HTTP POST body, a stdio line); 0 or negative: the default, 8 MiB.
	// Larger messages are refused with -32600 naming the limit (HTTP: 413).
	MaxMessageBytes int64
	// Rate is how many requests per second one principal may send on
	// average (a token bucket); 0 (the default) means no rate limit.
	Rate float64
	// Burst is how many requests a principal may send at once after being
	// quiet; 0 is Rate rounded up, at least 1.
	Burst int
	// Concurrent bounds the requests of one principal in progress at once,
	// each counted until its answer is written; 0 (the default) means no
	// limit. subscriptions/listen streams are not counted.
	Concurrent int
	// MaxPendingBytesPerPrincipal bounds the answers of one principal made
	// and not yet written to it (default 64 MiB): while they hold this
	// much, its new requests (ping and server/discover aside) are refused
	// with -31429 (HTTP 429). It is checked when a request arrives, so one
	// answer of any size goes through.
	MaxPendingBytesPerPrincipal int64
	// MaxSessions caps the legacy sessions open at once (default 10,000),
	// and MaxSessionsPerPrincipal those of one principal (default 1,000).
	// Past a cap, a new initialize ends the least recently used session
	// that has no request in progress (that principal's, for the
	// per-principal cap); when all are busy it is refused with -31429.
	MaxSessions int
	// MaxSessionsPerPrincipal caps the legacy sessions of one principal
	// (default 1,000); see MaxSessions.
	MaxSessionsPerPrincipal int
	// MaxClientInfoBytes bounds the capabilities and clientInfo of one
	// initialize together, as the session keeps them (and a cluster
	// stores them); default 64 KiB. Past it initialize is refused with
	// -32602 naming the limit.
	MaxClientInfoBytes int
	// MaxListenStreams caps the subscriptions/listen streams open at once
	// (default 1,024); past it a new one is refused with -31429 naming the
	// limit, and the open streams go on.
	MaxListenStreams int
	// MaxListenStreamsPerPrincipal caps the subscriptions/listen streams
	// one principal holds open at once (default 16), as MaxListenStreams.
	MaxListenStreamsPerPrincipal int
	// MaxActiveTasksPerPrincipal caps the tasks of one principal running
	// at once in this process (default 32): past it a task-augmented
	// tools/call is refused with -31429 until one of them has finished.
	MaxActiveTasksPerPrincipal int
	// MaxTasks caps the task records this process keeps (default 10,000):
	// past it the oldest finished task is forgotten (tasks/get then
	// answers that it is not found), and when every one is still running
	// a new task is refused with -31429.
	MaxTasks int
	// MaxTaskResultBytes caps the bytes of finished tasks' results this
	// process keeps, all together (default 64 MiB): past it the oldest
	// finished tasks are forgotten. A task whose one result is larger
	// fails, its error naming the limit.
	MaxTaskResultBytes int64

	// HTTPReadTimeout bounds the reading of a POST body, from the moment
	// the HTTP handler starts (default 30 s): a body that has not arrived
	// by then is answered 408 and its connection closed. It is set on the
	// connection, so it also works when the handler is mounted on a server
	// of your own.
	HTTPReadTimeout time.Duration
	// HTTPWriteTimeout bounds each write of an HTTP response: the JSON
	// answer, each SSE event or keep-alive (default 30 s). A client that
	// stops reading has its response abandoned and its connection closed.
	// The deadline of the last answer stays on a kept-alive connection:
	// when other handlers share the http.Server, set its WriteTimeout, or
	// clear the deadline in ConnState on StateIdle as [Flags.Run] does.
	HTTPWriteTimeout time.Duration
	// HTTPIdleTimeout is how long a kept-alive connection of [Flags.Run]'s
	// HTTP server may wait for its next request (default 60 s).
	HTTPIdleTimeout time.Duration
	// MaxConnsPerIP bounds the open connections of [Flags.Run]'s HTTP
	// server from one client address, an IPv6 /64 counting as one
	// (default 64): more are closed at once. Behind a reverse proxy every
	// connection comes from the proxy: raise it or turn it off there.
	MaxConnsPerIP int
	// MaxConns bounds the open connections of [Flags.Run]'s HTTP server in
	// all (default 4,096).
	MaxConns int
}

// Defaults of the limits that are on unless configured otherwise.
const (
	DefaultMaxMessageBytes         = 8 << 20
	DefaultMaxSessions             = 10000
	DefaultMaxSessionsPerPrincipal = 1000

	// 64 KiB holds any real client's capabilities and clientInfo many
	// times over; it bounds what a session keeps (and a cluster stores).
	DefaultMaxClientInfoBytes = 64 << 10
	// Each listen stream holds a goroutine and its transport's buffers
	// for as long as it is open; a client needs a few, not hundreds.
	DefaultMaxListenStreams             = 1024
	DefaultMaxListenStreamsPerPrincipal = 16
	// Each running task holds a goroutine and whatever its tool holds.
	DefaultMaxActiveTasksPerPrincipal = 32
	// Finished tasks are kept for an hour (taskTTL) unless these bound
	// them first.
	DefaultMaxTasks           = 10000
	DefaultMaxTaskResultBytes = 64 << 20
	// An answer is held in memory from when it is made until the client
	// has read it; 64 MiB lets any one answer through, and a client that
	// asks for more while not reading what it has is refused.
	DefaultMaxPendingBytesPerPrincipal = 64 << 20

	// DefaultReadTimeout bounds the reading of one POST body: 8 MiB (the
	// default message limit) in 30 seconds is 280 KB/s, slower than any
	// client that means to finish.
	DefaultReadTimeout = 30 * time.Second
	// DefaultWriteTimeout bounds each write of a response, the JSON answer
	// or one SSE event, so that a client that stops reading releases it.
	DefaultWriteTimeout = 30 * time.Second
	// DefaultIdleTimeout is long enough for a client between two calls of
	// one task to reuse its connection, short enough that idle connections
	// do not pile up against the caps.
	DefaultIdleTimeout = 60 * time.Second
	// DefaultMaxConnsPerIP: an MCP client holds one to three connections
	// (a POST or two, a GET or listen stream); 64 leaves room for some
	// twenty such clients behind one NAT.
	DefaultMaxConnsPerIP = 64
	// DefaultMaxConns bounds the open connections of the whole server.
	DefaultMaxConns = 4096
)

// CodeTooManyRequests is the JSON-RPC error code of a request refused by a
// rate, concurrency or session limit. MCP reserves -32768..-32000 for the
// protocol, so this application-defined code lies outside that range; over
// HTTP the refusal is also status 429 with Retry-After.
const CodeTooManyRequests = -31429

// limit describes one field of [Limits]: its flag, its default and where
// it lives, so that defaults, flags and the documentation's table come
// from one list.
type limit struct {
	field string // the Limits field
	flag  string
	usage string
	// ptr returns the field of l: an *int, *int64, *float64 or
	// *time.Duration.
	ptr func(l *Limits) any
	// def is the default as the field's type (nil: off when 0).
	def any
}

// limitTable is every limit, in the order of docs/operations.md's table.
var limitTable = []limit{
	{"MaxMessageBytes", "max-message-bytes", "largest JSON-RPC message accepted, on stdio and HTTP alike, in `bytes`",
		func(l *Limits) any { return &l.MaxMessageBytes }, int64(DefaultMaxMessageBytes)},
	{"Rate", "rate-limit", "requests per second one principal may send on average (0: no limit)",
		func(l *Limits) any { return &l.Rate }, nil},
	{"Burst", "rate-burst", "requests one principal may send at once above --rate-limit (0: the rate rounded up)",
		func(l *Limits) any { return &l.Burst }, nil},
	{"Concurrent", "max-concurrent", "requests one principal may have in progress at once (0: no limit)",
		func(l *Limits) any { return &l.Concurrent }, nil},
	{"MaxPendingBytesPerPrincipal", "max-pending-bytes-per-principal", "answers of one principal made and not yet read by it, in `bytes`; past it its new requests get 429 (-1: no cap)",
		func(l *Limits) any { return &l.MaxPendingBytesPerPrincipal }, int64(DefaultMaxPendingBytesPerPrincipal)},
	{"MaxSessions", "max-sessions", "legacy sessions open at once; past it the least recently used idle one ends (-1: no cap)",
		func(l *Limits) any { return &l.MaxSessions }, DefaultMaxSessions},
	{"MaxSessionsPerPrincipal", "max-sessions-per-principal", "legacy sessions one principal may hold (-1: no cap)",
		func(l *Limits) any { return &l.MaxSessionsPerPrincipal }, DefaultMaxSessionsPerPrincipal},
	{"MaxClientInfoBytes", "max-client-info-bytes", "largest capabilities and clientInfo of an initialize, together, in `bytes` (-1: no cap)",
		func(l *Limits) any { return &l.MaxClientInfoBytes }, DefaultMaxClientInfoBytes},
	{"MaxListenStreams", "max-listen-streams", "subscriptions/listen streams open at once (-1: no cap)",
		func(l *Limits) any { return &l.MaxListenStreams }, DefaultMaxListenStreams},
	{"MaxListenStreamsPerPrincipal", "max-listen-streams-per-principal", "subscriptions/listen streams one principal may hold open (-1: no cap)",
		func(l *Limits) any { return &l.MaxListenStreamsPerPrincipal }, DefaultMaxListenStreamsPerPrincipal},
	{"MaxActiveTasksPerPrincipal", "max-active-tasks-per-principal", "tasks one principal may have running at once (-1: no cap)",
		func(l *Limits) any { return &l.MaxActiveTasksPerPrincipal }, DefaultMaxActiveTasksPerPrincipal},
	{"MaxTasks", "max-tasks", "task records kept; past it the oldest finished ones are forgotten (-1: no cap)",
		func(l *Limits) any { return &l.MaxTasks }, DefaultMaxTasks},
	{"MaxTaskResultBytes", "max-task-result-bytes", "results of the task records kept, in `bytes`; past it the oldest finished ones are forgotten (-1: no cap)",
		func(l *Limits) any { return &l.MaxTaskResultBytes }, int64(DefaultMaxTaskResultBytes)},
	{"HTTPReadTimeout", "http-read-timeout", "how long a client may take to send a request body; a slower one gets 408 (-1s: no limit)",
		func(l *Limits) any { return &l.HTTPReadTimeout }, DefaultReadTimeout},
	{"HTTPWriteTimeout", "http-write-timeout", "how long one write of a response may block on a client that does not read; then the connection is closed (-1s: no limit)",
		func(l *Limits) any { return &l.HTTPWriteTimeout }, DefaultWriteTimeout},
	{"HTTPIdleTimeout", "http-idle-timeout", "how long a kept-alive HTTP connection may wait for its next request (-1s: no limit)",
		func(l *Limits) any { return &l.HTTPIdleTimeout }, DefaultIdleTimeout},
	{"MaxConnsPerIP", "max-conns-per-ip", "open HTTP connections from one client address (IPv6: one /64); more are closed at once (-1: no cap; raise it behind a reverse proxy)",
		func(l *Limits) any { return &l.MaxConnsPerIP }, DefaultMaxConnsPerIP},
	{"MaxConns", "max-conns", "open HTTP connections in all; more are closed at once (-1: no cap)",
		func(l *Limits) any { return &l.MaxConns }, DefaultMaxConns},
}

// RegisterFlags adds a flag for every limit to fs (--max-message-bytes,
// --rate-limit, ...), each showing its default; [Flags.Register] calls it.
func (l *Limits) RegisterFlags(fs *flag.FlagSet) {
	for _, lm := range limitTable {
		switch p := lm.ptr(l).(type) {
		case *int:
			def, _ := lm.def.(int)
			fs.IntVar(p, lm.flag, def, lm.usage)
		case *int64:
			def, _ := lm.def.(int64)
			fs.Int64Var(p, lm.flag, def, lm.usage)
		case *float64:
			def, _ := lm.def.(float64)
			fs.Float64Var(p, lm.flag, def, lm.usage)
		case *time.Duration:
			def, _ := lm.def.(time.Duration)
			fs.DurationVar(p, lm.flag, def, lm.usage)
		}
	}
}

// withDefaults returns l with every zero field that has a default set to
// it; negative fields (no cap) stay. A message always has a bound.
func (l Limits) withDefaults() Limits {
	for _, lm := range limitTable {
		if lm.def == nil {
			continue
		}
		switch p := lm.ptr(&l).(type) {
		case *int:
			if *p == 0 {
				*p = lm.def.(int)
			}
		case *int64:
			if *p == 0 {
				*p = lm.def.(int64)
			}
		case *time.Duration:
			if *p == 0 {
				*p = lm.def.(time.Duration)
			}
		}
	}
	if l.MaxMessageBytes < 0 {
		l.MaxMessageBytes = DefaultMaxMessageBytes
	}
	return l
}
