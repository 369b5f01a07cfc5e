package mcpgen

import (
	"fmt"
	"math"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// Event names of refusals, for the [Observer]. EventLimitRefused carries
// the tag limit=rate|concurrency|sessions|message_size|client_info|
// listen_streams|tasks|pending_bytes (and method, when known); EventSessionEvicted
// carries reason=max_sessions|max_sessions_per_principal.
const (
	EventLimitRefused   = "mcp.limit.refused"
	EventSessionEvicted = "mcp.session.evicted"
)

// limitError is the refusal of a request over a limit: -31429 with
// data.limit and data.retryAfterMs; HTTP adds 429 and Retry-After.
type limitError struct {
	limit      string
	retryAfter time.Duration
	msg        string
}

func (e *limitError) Error() string { return e.msg }

func (e *limitError) wire() error {
	return (&jsonrpc.Error{Code: CodeTooManyRequests, Message: e.msg}).
		WithData(map[string]any{"limit": e.limit, "retryAfterMs": e.retryAfter.Milliseconds()})
}

// outcome is how e refuses a request: over a limit, retry after a
// whole number of seconds.
func (e *limitError) outcome() outcome {
	return outcome{refusal: refusedLimit, retryAfter: roundUp(e.retryAfter)}
}

// refused answers a request refused by a limit from inside its handler:
// it tells the observer and returns the -31429 error with its outcome.
func (t *telemetry) refused(req *Request, e *limitError) error {
	if t.obs != nil {
		t.obs.Event(EventLimitRefused, Tag{"limit", e.limit}, Tag{"method", req.Method})
	}
	return refuse(e.wire(), e.outcome())
}

// principalKey is the limit key of the request's caller.
func (r *Request) principalKey() string {
	if r.incoming != nil {
		return r.incoming.principalKey()
	}
	return r.Auth.ID()
}

// limiter enforces [Limits] per principal key.
type limiter struct {
	rate       float64 // tokens per second
	burst      float64
	concurrent int

	mu    sync.Mutex
	m     map[string]*allowance
	sweep time.Time
}

type allowance struct {
	tokens   float64
	last     time.Time
	inflight int
}

func newLimiter(l Limits) *limiter {
	if l.Rate <= 0 && l.Concurrent <= 0 {
		return nil
	}
	b := float64(l.Burst)
	if b <= 0 {
		b = math.Max(1, math.Ceil(l.Rate))
	}
	return &limiter{rate: l.Rate, burst: b, concurrent: l.Concurrent, m: map[string]*allowance{}}
}

// acquire admits one request of key, or says which limit refuses it and
// when to retry. counted requests hold a concurrency slot until release.
func (l *limiter) acquire(key string, counted bool) (release func(), refused *limitError) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweepLocked(now)
	a := l.m[key]
	if a == nil {
		a = &allowance{tokens: l.burst, last: now}
		l.m[key] = a
	}
	if l.rate > 0 {
		a.tokens = math.Min(l.burst, a.tokens+now.Sub(a.last).Seconds()*l.rate)
		a.last = now
		if a.tokens < 1 {
			wait := time.Duration((1 - a.tokens) / l.rate * float64(time.Second))
			return nil, &limitError{limit: "rate", retryAfter: wait,
				msg: fmt.Sprintf("Too many requests: the limit is %s requests per second (burst %d) per caller; retry after %s", formatRate(l.rate), int(l.burst), roundUp(wait))}
		}
	}
	if counted && l.concurrent > 0 && a.inflight >= l.concurrent {
		return nil, &limitError{limit: "concurrency", retryAfter: time.Second,
			msg: fmt.Sprintf("Too many requests: at most %d requests per caller may be in progress at once; retry when one has finished", l.concurrent)}
	}
	if l.rate > 0 {
		a.tokens--
	}
	if !counted || l.concurrent <= 0 {
		return func() {}, nil
	}
	a.inflight++
	return func() {
		l.mu.Lock()
		a.inflight--
		l.mu.Unlock()
	}, nil
}

// sweepLocked forgets, at most once a minute, principals with nothing in
// flight whose bucket has refilled: they are indistinguishable from new
// ones, and without this every caller ever seen would stay in memory.
func (l *limiter) sweepLocked(now time.Time) {
	if now.Sub(l.sweep) < time.Minute {
		return
	}
	l.sweep = now
	for k, a := range l.m {
		if a.inflight > 0 {
			continue
		}
		if l.rate > 0 && a.tokens+now.Sub(a.last).Seconds()*l.rate < l.burst {
			continue
		}
		delete(l.m, k)
	}
}

// pending counts, per principal, the bytes of answers made and not yet
// written to the client (Options.Limits.MaxPendingBytesPerPrincipal): an answer
// the client does not read stays in memory until the write deadline, so
// a caller past the budget gets no new work until it reads.
type pending struct {
	max int64 // <= 0: no budget

	mu sync.Mutex
	m  map[string]int64
}

// admit refuses a request of key while its answers not yet written hold
// max bytes or more. ping and server/discover are always admitted: they
// cost nothing, and they are how a client tells a busy server from a
// dead one.
func (p *pending) admit(key, method string) *limitError {
	if p.max <= 0 || method == "ping" || method == "server/discover" {
		return nil
	}
	p.mu.Lock()
	held := p.m[key]
	p.mu.Unlock()
	if held < p.max {
		return nil
	}
	return &limitError{limit: "pending_bytes", retryAfter: time.Second,
		msg: fmt.Sprintf("Too many unread answers: %s of this caller's answers are not yet read, the most allowed is %s; read them, then retry", sizeString(held), sizeString(p.max))}
}

// hold counts n bytes of an answer to key until the returned func runs.
func (p *pending) hold(key string, n int64) (release func()) {
	if p.max <= 0 || n == 0 {
		return func() {}
	}
	p.mu.Lock()
	if p.m == nil {
		p.m = map[string]int64{}
	}
	p.m[key] += n
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		if p.m[key] -= n; p.m[key] <= 0 {
			delete(p.m, key)
		}
		p.mu.Unlock()
	}
}

func formatRate(r float64) string { return strconv.FormatFloat(r, 'g', -1, 64) }

// roundUp rounds a wait up to whole seconds, as Retry-After carries it.
func roundUp(d time.Duration) time.Duration {
	s := d.Truncate(time.Second)
	if s < d || s == 0 {
		s += time.Second
	}
	return s
}

// principalKey names the caller of a message for per-principal limits:
// the authenticated principal ([Principal.ID]), else the remote IP address, else "" (the one
// anonymous stdio client).
func (in *inbound) principalKey() string {
	if id := in.Auth.ID(); id != "" {
		return id
	}
	if in.RemoteAddr != "" {
		host, _, err := net.SplitHostPort(in.RemoteAddr)
		if err != nil {
			host = in.RemoteAddr
		}
		return "addr:" + host
	}
	return ""
}

// MaxMessageBytes is the largest message a transport may hand to Handle
// (Options.Limits.MaxMessageBytes): one limit for every transport.
func (s *Server) maxMessageBytes() int64 { return s.opts.Limits.MaxMessageBytes }

// MessageTooLarge is the error a transport answers a message over
// [Server.MaxMessageBytes] with (-32600 naming the limit); calling it also
// reports the refusal to the observer.
func (s *Server) messageTooLarge() error {
	if s.tel.obs != nil {
		s.tel.obs.Event(EventLimitRefused, Tag{"limit", "message_size"})
	}
	limit := s.opts.Limits.MaxMessageBytes
	return (&jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
		Message: fmt.Sprintf("Message larger than the limit of %d bytes (%s)", limit, sizeString(limit))}).
		WithData(map[string]any{"limit": "message_size", "maxBytes": limit})
}

// sizeString writes a byte count in binary units when it is a round one.
func sizeString(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
