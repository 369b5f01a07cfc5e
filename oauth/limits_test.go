package oauth

import (
	"fmt"
	"testing"
	"time"
)

// TestVerdictsBounded: the cache never holds more than its size, drops
// expired entries first and never stores one already expired.
func TestVerdictsBounded(t *testing.T) {
	now := time.Now()
	c := newVerdicts(10)
	for i := range 25 {
		c.put(keyOf(fmt.Sprint(i)), verdict{reason: "inactive", until: now.Add(time.Minute)}, now)
		if c.len() > 10 {
			t.Fatalf("%d entries, want at most 10", c.len())
		}
	}
	c.put(keyOf("past"), verdict{until: now}, now)
	if _, ok := c.get(keyOf("past"), now); ok {
		t.Errorf("an expired verdict was stored")
	}
	if _, ok := c.get(keyOf("24"), now.Add(time.Minute)); ok {
		t.Errorf("a verdict outlived its until")
	}
}

// TestAddressLimiter: a bucket holds burst tokens and refills at rate;
// the buckets of idle addresses are forgotten when the map is full.
func TestAddressLimiter(t *testing.T) {
	now := time.Now()
	l := newAddressLimiter(10, 3)
	for i := range 3 {
		if ok, _ := l.allow("a", now); !ok {
			t.Fatalf("token %d of the burst refused", i)
		}
	}
	if ok, wait := l.allow("a", now); ok || wait <= 0 || wait > 100*time.Millisecond {
		t.Errorf("past the burst: %v, retry after %v, want refused and 100ms", ok, wait)
	}
	if ok, _ := l.allow("a", now.Add(100*time.Millisecond)); !ok {
		t.Errorf("after a refill: refused")
	}
	for i := range 2 * maxAddresses {
		l.allow(fmt.Sprint(i), now.Add(time.Duration(i)*time.Second))
		if len(l.buckets) > maxAddresses {
			t.Fatalf("%d buckets, want at most %d", len(l.buckets), maxAddresses)
		}
	}
}
