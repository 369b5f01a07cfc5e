package oauth

import (
	"crypto/sha256"
	"math"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen"
)

// This file holds what keeps introspection from being an amplifier: a
// cache of answers keyed by a hash of the token, and token buckets per
// remote address. Both are bounded in memory.

// tokenKey is the SHA-256 of a token: the cache never holds the token.
type tokenKey [sha256.Size]byte

func keyOf(token string) tokenKey { return sha256.Sum256([]byte(token)) }

// verdict is a remembered answer of introspection: a principal, or the
// reason of a refusal.
type verdict struct {
	p      mcpgen.Principal
	reason string // "" when p is valid
	err    error
	until  time.Time
}

// verdicts is a bounded map of verdicts that expire. When full, it drops
// the expired entries, and then arbitrary ones (Go's map order): an
// attacker can at worst make honest tokens be introspected again, which
// the per-address limit and the other cache bound.
type verdicts struct {
	max int

	mu sync.Mutex
	m  map[tokenKey]verdict
}

func newVerdicts(max int) *verdicts { return &verdicts{max: max, m: map[tokenKey]verdict{}} }

func (c *verdicts) get(k tokenKey, now time.Time) (verdict, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	if ok && !now.Before(v.until) {
		delete(c.m, k)
		return verdict{}, false
	}
	return v, ok
}

func (c *verdicts) put(k tokenKey, v verdict, now time.Time) {
	if !now.Before(v.until) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		for k2, v2 := range c.m {
			if !now.Before(v2.until) {
				delete(c.m, k2)
			}
		}
		for k2 := range c.m {
			if len(c.m) < c.max {
				break
			}
			delete(c.m, k2)
		}
	}
	c.m[k] = v
}

func (c *verdicts) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// maxAddresses bounds the buckets remembered by [addressLimiter].
const maxAddresses = 10_000

// addressLimiter is a token bucket per remote address. A bucket that has
// refilled to its burst is the same as no bucket, so idle addresses are
// forgotten when the map is full; if every address is active, arbitrary
// ones are (they start again with a full bucket).
type addressLimiter struct {
	rate  float64 // tokens per second
	burst float64

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newAddressLimiter(rate float64, burst int) *addressLimiter {
	return &addressLimiter{rate: rate, burst: float64(burst), buckets: map[string]*bucket{}}
}

// allow takes a token from addr's bucket. When it is empty it returns
// false and how long until the next token.
func (l *addressLimiter) allow(addr string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[addr]
	if !ok {
		if len(l.buckets) >= maxAddresses {
			l.evict(now)
		}
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[addr] = b
	}
	b.refill(l, now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	wait := time.Duration(math.Ceil((1 - b.tokens) / l.rate * float64(time.Second)))
	return false, wait
}

func (b *bucket) refill(l *addressLimiter, now time.Time) {
	if d := now.Sub(b.last); d > 0 {
		b.tokens = min(l.burst, b.tokens+d.Seconds()*l.rate)
		b.last = now
	}
}

// evict forgets the addresses whose buckets are full again, then, if
// none was, arbitrary ones until a tenth of the room is free.
func (l *addressLimiter) evict(now time.Time) {
	for a, b := range l.buckets {
		b.refill(l, now)
		if b.tokens >= l.burst {
			delete(l.buckets, a)
		}
	}
	for a := range l.buckets {
		if len(l.buckets) < maxAddresses-maxAddresses/10 {
			break
		}
		delete(l.buckets, a)
	}
}
