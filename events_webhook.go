package mcpgen

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// This file is webhook delivery: events/subscribe (the verification
// handshake, TTLs, quotas), events/unsubscribe, and the sender that
// claims due deliveries from the outbox, signs them (Standard Webhooks)
// and retries them with backoff, then sends gap or terminated.

type deliveryParams struct {
	Mode   string `json:"mode"`
	URL    string `json:"url"`
	Secret string `json:"secret"`
}

type subscribeParams struct {
	readParams
	Delivery *deliveryParams `json:"delivery"`
	TTLMs    json.RawMessage `json:"ttlMs"`
}

// Bounds of webhook subscriptions.
const (
	maxWebhookURL     = 2048
	maxReplayEvents   = 1000 // events a subscribe with a cursor queues at most
	maxChallengeReply = 4096
	deliveryWorkers   = 8
	claimBatch        = 32
)

// webhookSubscriptionID derives the subscription's id over its key.
func webhookSubscriptionID(principal, u, name string, args json.RawMessage) string {
	h := sha256.New()
	for _, part := range []string{principal, u, name, string(args)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "sub_" + hex.EncodeToString(h.Sum(nil)[:16])
}

// checkSecret accepts a Standard Webhooks secret: whsec_ and base64 of
// 24 to 64 bytes.
func checkSecret(secret string) ([]byte, error) {
	enc, ok := strings.CutPrefix(secret, "whsec_")
	if !ok {
		return nil, fmt.Errorf("%w: delivery.secret must start with whsec_", jsonrpc.ErrInvalidParams)
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(key) < 24 || len(key) > 64 {
		return nil, fmt.Errorf("%w: delivery.secret must be whsec_ followed by base64 of 24 to 64 random bytes", jsonrpc.ErrInvalidParams)
	}
	return key, nil
}

// principalOwns reports whether the request carries a principal a
// webhook subscription can belong to.
func webhookPrincipal(req *Request) (string, error) {
	if req.Auth.Anonymous() {
		return "", eventError(CodeEventForbidden, map[string]any{"reason": "unauthenticated"},
			"Forbidden: webhook subscriptions belong to an authenticated principal; this request has none (poll or stream instead)")
	}
	return req.Auth.ID(), nil
}

// subscribe answers events/subscribe: an idempotent upsert keyed on
// (principal, url, name, arguments).
func (f *events) subscribe(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	owner, err := webhookPrincipal(req)
	if err != nil {
		return nil, err
	}
	var p subscribeParams
	sub, maxAge, err := f.readRequest(ctx, req, raw, &p)
	if err != nil {
		return nil, err
	}
	if p.Delivery == nil {
		return nil, fmt.Errorf("%w: delivery is required", jsonrpc.ErrInvalidParams)
	}
	if p.Delivery.Mode != "" && p.Delivery.Mode != "webhook" {
		return nil, eventError(CodeEventUnsupported, map[string]any{"feature": "deliveryMode", "value": p.Delivery.Mode},
			"Unsupported: events/subscribe takes delivery mode webhook; poll and stream need no subscription")
	}
	target, err := f.hooks.checkURL(p.Delivery.URL)
	if err != nil {
		return nil, err
	}
	if _, err := checkSecret(p.Delivery.Secret); err != nil {
		return nil, err
	}
	ttl, err := f.grant(p.TTLMs)
	if err != nil {
		return nil, err
	}
	if err := f.hooks.checkAddress(ctx, target); err != nil {
		return nil, err
	}
	id := webhookSubscriptionID(owner, p.Delivery.URL, sub.t.Name, sub.args)
	old, err := f.store.Subscription(ctx, id)
	if err != nil {
		return nil, storeFailed("subscription store", err)
	}
	now := time.Now().UTC()
	if old != nil && !old.Expires.IsZero() && old.Expires.Before(now) {
		if _, err := f.store.DeleteSubscription(ctx, id); err != nil {
			return nil, storeFailed("subscription store", err)
		}
		old = nil
	}
	rec := &EventSubscription{ID: id, Name: sub.t.Name, Arguments: sub.args, URL: p.Delivery.URL, Secret: p.Delivery.Secret,
		Principal: req.Auth, PrincipalKey: owner, Partition: req.Partition, Created: now, Expires: now.Add(ttl), Active: true}
	if old == nil {
		n, err := f.store.CountSubscriptions(ctx, owner)
		if err != nil {
			return nil, storeFailed("subscription store", err)
		}
		if n >= f.opts.MaxSubscriptionsPerPrincipal {
			return nil, eventError(CodeEventQuota, map[string]any{"limit": "subscriptions", "max": f.opts.MaxSubscriptionsPerPrincipal},
				"ResourceExhausted: at most %d webhook subscriptions per principal; unsubscribe one first", f.opts.MaxSubscriptionsPerPrincipal)
		}
	} else {
		rec.Created, rec.Verified, rec.LastDelivery, rec.LastError, rec.FailingSince = old.Created, old.Verified, old.LastDelivery, old.LastError, old.FailingSince
		rec.Failures = old.Failures
	}
	if !rec.Verified {
		if reason := f.hooks.verify(ctx, rec); reason != "" {
			return nil, eventError(CodeEventCallback, map[string]any{"reason": reason},
				"CallbackEndpointError: the callback endpoint did not confirm the subscription (%s)", reason)
		}
		rec.Verified = true
	}
	// Saved before the position is read: an event emitted from now on is
	// owed to it by its emit, one emitted before is below the position
	// (or replayed). One emitted meanwhile may be owed twice; receivers
	// deduplicate on webhook-id.
	if err := f.store.SaveSubscription(ctx, rec); err != nil {
		return nil, storeFailed("subscription store", err)
	}
	// The position delivery starts after, and what to replay.
	var replay []EventDelivery
	truncated := false
	_, newest, err := f.store.Bounds(ctx)
	if err != nil {
		return nil, storeFailed("event log", err)
	}
	cursor := newest
	if p.Cursor != nil && old == nil {
		after, cut, err := f.startAt(ctx, p.Cursor)
		if err != nil {
			return nil, err
		}
		recs, next, cut2, more, err := f.read(ctx, sub, req.Partition, after, maxAge, maxReplayEvents)
		if err != nil {
			return nil, err
		}
		switch {
		case more:
			// Too far behind to replay: delivery starts from now, and
			// the client learns that events were skipped.
			truncated = true
		default:
			truncated = cut || cut2
			for i := range recs {
				replay = append(replay, EventDelivery{Subscription: id, Seq: recs[i].Seq, Due: now})
			}
			cursor = next
			if len(recs) > 0 {
				cursor = recs[0].Seq - 1
			}
		}
	}
	if len(replay) > 0 {
		if err := f.store.Enqueue(ctx, replay); err != nil {
			return nil, storeFailed("delivery outbox", err)
		}
		f.notify()
	}
	if old != nil {
		if low, err := f.store.PendingBelow(ctx, id, 0); err == nil && low > 0 {
			cursor = low - 1
		}
	}
	res := map[string]any{"id": id, "refreshBefore": rec.Expires.Format(time.RFC3339Nano), "cursor": formatCursor(cursor), "truncated": truncated}
	if old != nil {
		st := map[string]any{"active": rec.Failures < f.opts.GiveUpAfter, "lastError": nil}
		if !rec.LastDelivery.IsZero() {
			st["lastDeliveryAt"] = rec.LastDelivery.Format(time.RFC3339)
		}
		if rec.LastError != "" {
			st["lastError"] = rec.LastError
			st["failedSince"] = rec.FailingSince.Format(time.RFC3339)
		}
		res["deliveryStatus"] = st
	}
	f.tel.log.Info("event subscription", zap.String("id", id), zap.String("event", sub.t.Name), zap.Bool("refresh", old != nil))
	return res, nil
}

// grant turns the client's ttlMs suggestion into a lifetime: absent, the
// server's longest; null (no expiry), the longest too (the server grants
// no unbounded subscription); a number, clamped to [MinTTL, MaxTTL].
func (f *events) grant(raw json.RawMessage) (time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return f.opts.MaxTTL, nil
	}
	var ms int64
	if err := json.Unmarshal(raw, &ms); err != nil || ms <= 0 {
		return 0, fmt.Errorf("%w: ttlMs must be a positive integer or null", jsonrpc.ErrInvalidParams)
	}
	d := time.Duration(ms) * time.Millisecond
	if ms > int64(f.opts.MaxTTL/time.Millisecond) {
		d = f.opts.MaxTTL
	}
	return max(d, f.opts.MinTTL), nil
}

// unsubscribe answers events/unsubscribe.
func (f *events) unsubscribe(ctx context.Context, req *Request, raw json.RawMessage) (any, error) {
	var p subscribeParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	owner, err := webhookPrincipal(req)
	if err != nil {
		return nil, err
	}
	t, ok := f.types[p.Name]
	if !ok {
		return nil, eventError(CodeEventNotFound, map[string]any{"kind": "event"}, "NotFound: no event %q", p.Name)
	}
	if p.Delivery == nil || p.Delivery.URL == "" {
		return nil, fmt.Errorf("%w: delivery.url is required", jsonrpc.ErrInvalidParams)
	}
	canon, err := canonicalArgs(p.Arguments)
	if err != nil {
		return nil, err
	}
	id := webhookSubscriptionID(owner, p.Delivery.URL, t.Name, canon)
	found, err := f.store.DeleteSubscription(ctx, id)
	if err != nil {
		return nil, storeFailed("subscription store", err)
	}
	if !found {
		return nil, eventError(CodeEventNotFound, map[string]any{"kind": "subscription"}, "NotFound: no subscription of yours to %s at that url with those arguments", t.Name)
	}
	f.tel.log.Info("event subscription ended", zap.String("id", id))
	return json.RawMessage(`{}`), nil
}

// webhooks sends deliveries.
type webhooks struct {
	f       *events
	allow   map[string]bool // origins exempt from the https and address rules
	strict  *http.Client    // dials public addresses only
	lenient *http.Client    // for allowed origins

	// Handshakes: at most maxHandshakes at once in the server and one per
	// principal, so that a caller cannot make the server flood endpoints
	// with challenges, nor hold up others' subscriptions with a slow
	// endpoint of its own.
	handshakes chan struct{}
	mu         sync.Mutex
	verifying  map[string]bool // principal keys with a handshake under way
}

// maxHandshakes bounds the verification handshakes under way at once.
const maxHandshakes = 8

func newWebhooks(f *events) *webhooks {
	w := &webhooks{f: f, allow: map[string]bool{}, handshakes: make(chan struct{}, maxHandshakes), verifying: map[string]bool{}}
	for _, o := range f.opts.WebhookAllow {
		w.allow[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	mk := func(control func(network, address string, c syscall.RawConn) error) *http.Client {
		d := &net.Dialer{Timeout: f.opts.Timeout, Control: control}
		return &http.Client{
			Timeout: f.opts.Timeout,
			Transport: &http.Transport{
				Proxy:               nil, // a proxy would dial for us, past the address check
				DialContext:         d.DialContext,
				TLSClientConfig:     &tls.Config{MinVersion: tls.VersionTLS12},
				TLSHandshakeTimeout: f.opts.Timeout,
				MaxIdleConnsPerHost: 4,
				IdleConnTimeout:     30 * time.Second,
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	w.strict = mk(func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("webhook address %s: %w", address, err)
		}
		if !publicAddr(ap.Addr()) {
			return errPrivate
		}
		return nil
	})
	w.lenient = mk(nil)
	return w
}

var errPrivate = errors.New("the callback resolves to an address that is not public")

func webhookOrigin(u *url.URL) string {
	o := strings.ToLower(u.Scheme + "://" + u.Host)
	return o
}

// checkURL accepts a callback URL: absolute https without credentials or
// fragment, or an allowed origin.
func (w *webhooks) checkURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, fmt.Errorf("%w: delivery.url is required", jsonrpc.ErrInvalidParams)
	}
	if len(raw) > maxWebhookURL {
		return nil, fmt.Errorf("%w: delivery.url is over %d bytes", jsonrpc.ErrInvalidParams, maxWebhookURL)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, fmt.Errorf("%w: delivery.url is not an absolute URL", jsonrpc.ErrInvalidParams)
	}
	if u.User != nil || u.Fragment != "" {
		return nil, fmt.Errorf("%w: delivery.url must carry no credentials and no fragment", jsonrpc.ErrInvalidParams)
	}
	if u.Scheme != "https" && !w.allow[webhookOrigin(u)] {
		return nil, fmt.Errorf("%w: delivery.url must be https (the server was not told to allow %s)", jsonrpc.ErrInvalidParams, webhookOrigin(u))
	}
	return u, nil
}

// checkAddress refuses, at subscribe time, a host that resolves to an
// address that is not public (the sender checks again at every connect).
func (w *webhooks) checkAddress(ctx context.Context, u *url.URL) error {
	if w.allow[webhookOrigin(u)] {
		return nil
	}
	host := u.Hostname()
	var addrs []netip.Addr
	if a, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{a}
	} else {
		ctx, cancel := context.WithTimeout(ctx, w.f.opts.Timeout)
		defer cancel()
		addrs, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		if err != nil || len(addrs) == 0 {
			return eventError(CodeEventCallback, map[string]any{"reason": "connection_refused"},
				"CallbackEndpointError: the callback host %s does not resolve", host)
		}
	}
	for _, a := range addrs {
		if !publicAddr(a) {
			return fmt.Errorf("%w: delivery.url resolves to %s, not a public address (allow its origin with --events-webhook-allow for development)", jsonrpc.ErrInvalidParams, a)
		}
	}
	return nil
}

// nonPublic are the special-purpose ranges of the IANA registries that
// netip's predicates do not cover.
var nonPublic = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{"0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "198.18.0.0/15",
		"198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64",
		"2001::/23", "2001:db8::/32", "2002::/16", "fc00::/7"} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

// publicAddr reports whether a is globally routable.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsUnspecified() || a.IsLinkLocalUnicast() ||
		a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() || a.IsMulticast() {
		return false
	}
	for _, p := range nonPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// sign returns the Standard Webhooks headers of body.
func sign(secret, msgID string, ts time.Time, body []byte) (http.Header, error) {
	key, err := checkSecret(secret)
	if err != nil {
		return nil, err
	}
	t := strconv.FormatInt(ts.Unix(), 10)
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + t + "."))
	mac.Write(body)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("webhook-id", msgID)
	h.Set("webhook-timestamp", t)
	h.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	return h, nil
}

// post sends one signed body; it returns the response body (up to
// limit bytes) and a failure category ("" for a 2xx answer).
func (w *webhooks) post(ctx context.Context, sub *EventSubscription, msgID string, body []byte, limit int64) ([]byte, string, int) {
	u, err := url.Parse(sub.URL)
	if err != nil {
		return nil, "connection_refused", 0
	}
	h, err := sign(sub.Secret, msgID, time.Now(), body)
	if err != nil {
		return nil, "connection_refused", 0
	}
	h.Set("X-MCP-Subscription-Id", sub.ID)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.URL, bytes.NewReader(body))
	if err != nil {
		return nil, "connection_refused", 0
	}
	req.Header = h
	c := w.strict
	if w.allow[webhookOrigin(u)] {
		c = w.lenient
	} else if u.Scheme != "https" {
		return nil, "connection_refused", 0
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, category(err), 0
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, limit))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return b, "", resp.StatusCode
	case resp.StatusCode >= 500:
		return nil, "http_5xx", resp.StatusCode
	default:
		return nil, "http_4xx", resp.StatusCode
	}
}

// category names a transport failure as the sketch's lastError does.
func category(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout(), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case strings.Contains(err.Error(), "tls:"), strings.Contains(err.Error(), "x509:"):
		return "tls_error"
	default:
		return "connection_refused"
	}
}

// verify runs the verification handshake: a signed verification envelope
// whose challenge the endpoint must echo. It returns "" on success, else
// the failure's category.
func (w *webhooks) verify(ctx context.Context, sub *EventSubscription) string {
	w.mu.Lock()
	busy := w.verifying[sub.PrincipalKey]
	if !busy {
		w.verifying[sub.PrincipalKey] = true
	}
	w.mu.Unlock()
	if busy {
		return "verification_in_progress"
	}
	defer func() {
		w.mu.Lock()
		delete(w.verifying, sub.PrincipalKey)
		w.mu.Unlock()
	}()
	select {
	case w.handshakes <- struct{}{}:
		defer func() { <-w.handshakes }()
	case <-ctx.Done():
		return "timeout"
	}
	challenge := randomHex(24)
	body, _ := json.Marshal(map[string]string{"type": "verification", "challenge": challenge})
	ctx, cancel := context.WithTimeout(ctx, w.f.opts.Timeout)
	defer cancel()
	reply, failed, _ := w.post(ctx, sub, "msg_verification_"+randomHex(8), body, maxChallengeReply)
	if failed != "" {
		return failed
	}
	var echo struct {
		Challenge string `json:"challenge"`
	}
	if json.Unmarshal(reply, &echo) != nil || subtle.ConstantTimeCompare([]byte(echo.Challenge), []byte(challenge)) != 1 {
		return "challenge_failed"
	}
	return ""
}

// run claims and sends due deliveries until the server closes, and
// prunes the log and expired subscriptions now and then.
func (w *webhooks) run() {
	f := w.f
	tick := time.NewTicker(f.opts.PollInterval)
	defer tick.Stop()
	lastPrune := time.Time{}
	for {
		wake := f.woken()
		now := time.Now()
		if now.Sub(lastPrune) > time.Minute {
			lastPrune = now
			if err := f.store.Prune(context.Background(), now, now.Add(-f.opts.Retention), f.opts.MaxEvents); err != nil {
				f.tel.log.Warn("pruning the event log failed", zap.Error(err))
			}
		}
		for w.sendDue() {
		}
		select {
		case <-f.closing:
			return
		case <-wake:
		case <-tick.C:
		}
	}
}

// sendDue sends one batch of due deliveries; it reports whether the batch
// was full (more may be due).
func (w *webhooks) sendDue() bool {
	f := w.f
	lease := 2*f.opts.Timeout + 5*time.Second
	ds, err := f.store.Claim(context.Background(), f.owner, time.Now(), lease, claimBatch)
	if err != nil {
		f.tel.log.Warn("claiming webhook deliveries failed", zap.Error(err))
		return false
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, deliveryWorkers)
	for i := range ds {
		wg.Add(1)
		sem <- struct{}{}
		go func(d *EventDelivery) {
			defer func() { <-sem; wg.Done() }()
			w.deliver(d)
		}(&ds[i])
	}
	wg.Wait()
	return len(ds) == claimBatch
}

// deliver sends one delivery and records the outcome.
func (w *webhooks) deliver(d *EventDelivery) {
	f := w.f
	ctx, cancel := context.WithTimeout(context.Background(), f.opts.Timeout+time.Second)
	defer cancel()
	sub, err := f.store.Subscription(ctx, d.Subscription)
	if err != nil {
		_ = f.store.Retry(ctx, d.ID, time.Now().Add(f.opts.RetryBase), d.Attempts)
		return
	}
	now := time.Now()
	if sub == nil || (!sub.Expires.IsZero() && sub.Expires.Before(now)) {
		_ = f.store.Complete(ctx, d.ID) // unsubscribed or lapsed
		return
	}
	var body []byte
	msgID := ""
	if d.Control != nil {
		body = d.Control
		var c struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(body, &c)
		msgID = fmt.Sprintf("msg_%s_%d", c.Type, d.ID)
	} else {
		if d.Event == nil { // pruned before it could be delivered
			_ = f.store.Complete(ctx, d.ID)
			w.gap(ctx, sub, d.ID)
			return
		}
		t := f.types[d.Event.Name]
		if t == nil {
			_ = f.store.Complete(ctx, d.ID)
			return
		}
		// The subscriber must still be allowed to read what it is sent.
		if err := f.permit(ctx, &Request{Method: "events/subscribe", Auth: sub.Principal, Partition: sub.Partition, server: nil}, t.Scope); err != nil {
			w.terminate(ctx, sub, forbidden(t.Name, err))
			return
		}
		o := occurrenceOf(d.Event)
		cursor := d.Event.Seq
		if low, err := f.store.PendingBelow(ctx, sub.ID, d.ID); err == nil && low > 0 && low <= cursor {
			cursor = low - 1
		}
		c := formatCursor(cursor)
		o.Cursor = &c
		body, _ = json.Marshal(o)
		msgID = d.Event.ID
	}
	_, failed, status := w.post(ctx, sub, msgID, body, 0)
	if failed == "" {
		_ = f.store.Complete(ctx, d.ID)
		if d.Control == nil && (sub.Failures > 0 || sub.LastError != "" || now.Sub(sub.LastDelivery) > time.Second) {
			sub.Failures, sub.LastError, sub.FailingSince, sub.LastDelivery = 0, "", time.Time{}, now.UTC()
			_ = f.store.SaveSubscription(ctx, sub)
		}
		return
	}
	if sub.LastError == "" {
		sub.FailingSince = now.UTC()
	}
	sub.LastError = failed
	attempts := d.Attempts + 1
	if status != http.StatusRequestEntityTooLarge && attempts < f.opts.Attempts {
		_ = f.store.SaveSubscription(ctx, sub)
		_ = f.store.Retry(ctx, d.ID, now.Add(backoff(f.opts.RetryBase, attempts)), attempts)
		return
	}
	// Abandoned.
	_ = f.store.Complete(ctx, d.ID)
	if d.Control != nil {
		_ = f.store.SaveSubscription(ctx, sub)
		return
	}
	sub.Failures++
	f.tel.log.Warn("webhook delivery abandoned", zap.String("subscription", sub.ID), zap.String("event", msgID), zap.String("error", failed), zap.Int("attempts", attempts))
	if sub.Failures >= f.opts.GiveUpAfter {
		w.terminate(ctx, sub, eventError(CodeEventCallback, map[string]any{"reason": failed},
			"CallbackEndpointError: %d events in a row could not be delivered (%s); the subscription ended", sub.Failures, failed))
		return
	}
	_ = f.store.SaveSubscription(ctx, sub)
	w.gap(ctx, sub, d.ID)
}

// backoff is the wait before attempt n+1: base doubled per attempt, at
// most an hour.
func backoff(base time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// gap queues a gap envelope with the subscription's current watermark.
func (w *webhooks) gap(ctx context.Context, sub *EventSubscription, except int64) {
	f := w.f
	_, newest, err := f.store.Bounds(ctx)
	if err != nil {
		return
	}
	cursor := newest
	if low, err := f.store.PendingBelow(ctx, sub.ID, except); err == nil && low > 0 {
		cursor = low - 1
	}
	body, _ := json.Marshal(map[string]string{"type": "gap", "cursor": formatCursor(cursor)})
	_ = f.store.Enqueue(ctx, []EventDelivery{{Subscription: sub.ID, Control: body, Due: time.Now()}})
}

// terminate ends a subscription: one attempt at a terminated envelope,
// then it is removed.
func (w *webhooks) terminate(ctx context.Context, sub *EventSubscription, cause error) {
	f := w.f
	_, _ = f.store.DeleteSubscription(ctx, sub.ID)
	body, _ := json.Marshal(map[string]any{"type": "terminated", "error": jsonrpc.Wire(cause)})
	_, _, _ = w.post(ctx, sub, "msg_terminated_"+randomHex(8), body, 0)
	f.tel.log.Warn("event subscription terminated", zap.String("subscription", sub.ID), zap.String("reason", cause.Error()))
}
