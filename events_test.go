package mcpgen

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// eventsDefinition is a notes server with one event, note.changed, that
// subscribers filter by kind and need notes:read for.
func eventsDefinition() Definition {
	return Definition{
		Name: "notes", Version: "1.0.0",
		Events: []EventType{{
			Name: "note.changed", Description: "A note changed.", Scope: "notes:read",
			InputSchema:   json.RawMessage(`{"type":"object","properties":{"kind":{"type":"string"}},"additionalProperties":false}`),
			PayloadSchema: json.RawMessage(`{"type":"object","properties":{"note":{"type":"string"},"kind":{"type":"string"}},"required":["note","kind"]}`),
			Match: func(args, data json.RawMessage) bool {
				var a, d struct{ Kind string }
				_ = json.Unmarshal(args, &a)
				_ = json.Unmarshal(data, &d)
				return a.Kind == "" || a.Kind == d.Kind
			},
			Accepts: func(v any) bool { _, ok := v.(note); return ok },
		}},
	}
}

type note struct {
	Note string `json:"note"`
	Kind string `json:"kind"`
}

var (
	alice = Principal{Subject: "alice", Scopes: []string{"notes:read"}}
	mallo = Principal{Subject: "mallory"}
)

func newEventsServer(t *testing.T, o EventOptions) *Server {
	t.Helper()
	s, err := build(eventsDefinition(), Options{Events: o})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// evCall sends a 2026-07-28 request as p.
func evCall(t *testing.T, s *Server, p Principal, method, params string) *jsonrpc.Message {
	t.Helper()
	line := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{` + modernCaps(`{}`)
	if params != "" {
		line += "," + params
	}
	line += "}}"
	return handle(t, s, &inbound{Auth: p, Authenticated: true}, line)
}

func emitNote(t *testing.T, s *Server, partition, n, kind string) {
	t.Helper()
	if err := EmitTo(context.Background(), s, partition, "note.changed", note{n, kind}); err != nil {
		t.Fatal(err)
	}
}

func TestEventsCapabilityBothEras(t *testing.T) {
	s := newEventsServer(t, EventOptions{})
	init := result(t, handle(t, s, nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	disc := result(t, evCall(t, s, Principal{}, "server/discover", ""))
	for name, caps := range map[string]any{"initialize": init["capabilities"], "server/discover": disc["capabilities"]} {
		c := caps.(map[string]any)
		if _, ok := c["events"]; !ok {
			t.Errorf("%s: no top-level events capability in %v", name, c)
		}
		if _, ok := c["extensions"].(map[string]any)[EventsExtension]; !ok {
			t.Errorf("%s: no %s extension in %v", name, EventsExtension, c)
		}
	}
	plain, _ := appsDefinition()
	p := New(plain, Options{})
	defer p.Close()
	if strings.Contains(string(p.legacyCaps), "events") {
		t.Errorf("a server without events declares them: %s", p.legacyCaps)
	}
	wantError(t, evCall(t, p, Principal{}, "events/list", ""), jsonrpc.CodeMethodNotFound, "")
}

func TestEventsList(t *testing.T) {
	s := newEventsServer(t, EventOptions{})
	r := result(t, evCall(t, s, alice, "events/list", ""))
	evs := r["events"].([]any)
	if len(evs) != 1 {
		t.Fatalf("events/list: %v", r)
	}
	e := evs[0].(map[string]any)
	if e["name"] != "note.changed" || e["inputSchema"] == nil || e["payloadSchema"] == nil || len(e["delivery"].([]any)) != 3 {
		t.Errorf("entry: %v", e)
	}
}

func TestEventsPoll(t *testing.T) {
	s := newEventsServer(t, EventOptions{})
	emitNote(t, s, "", "before", "a") // before the first poll: not seen
	r := result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":null`))
	if len(r["events"].([]any)) != 0 || r["cursor"] != "1" || r["nextPollMs"] == nil {
		t.Fatalf("null cursor: %v", r)
	}
	emitNote(t, s, "", "n1", "a")
	emitNote(t, s, "", "n2", "b")
	emitNote(t, s, "other", "n3", "a") // another partition
	emitNote(t, s, "", "n4", "a")
	r = result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"1","arguments":{"kind":"a"}`))
	evs := r["events"].([]any)
	if len(evs) != 2 || evs[0].(map[string]any)["data"].(map[string]any)["note"] != "n1" || evs[1].(map[string]any)["data"].(map[string]any)["note"] != "n4" {
		t.Fatalf("kind a after 1: %v", r)
	}
	if r["cursor"] != "5" || r["hasMore"] != false || r["truncated"] != false {
		t.Errorf("cursor/hasMore/truncated: %v", r)
	}
	// maxEvents pages.
	r = result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"1","maxEvents":1`))
	if len(r["events"].([]any)) != 1 || r["hasMore"] != true || r["cursor"] != "2" {
		t.Fatalf("maxEvents 1: %v", r)
	}
	r = result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"2","maxEvents":1`))
	if len(r["events"].([]any)) != 1 || r["events"].([]any)[0].(map[string]any)["data"].(map[string]any)["note"] != "n2" {
		t.Fatalf("second page: %v", r)
	}
	// Refusals.
	wantError(t, evCall(t, s, alice, "events/poll", `"name":"nope","cursor":null`), CodeEventNotFound, "no event")
	wantError(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"x1"`), jsonrpc.CodeInvalidParams, "cursor")
	wantError(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":null,"arguments":{"colour":1}`), jsonrpc.CodeInvalidParams, "arguments")
	wantError(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":null,"maxEvents":0`), jsonrpc.CodeInvalidParams, "maxEvents")
	wantError(t, evCall(t, s, mallo, "events/poll", `"name":"note.changed","cursor":null`), CodeEventForbidden, "Forbidden")
	big := `"name":"note.changed","cursor":null,"arguments":{"kind":"` + strings.Repeat("x", maxEventArgsBytes) + `"}`
	wantError(t, evCall(t, s, alice, "events/poll", big), jsonrpc.CodeInvalidParams, "over")
}

func TestEventsPollTruncated(t *testing.T) {
	st := &MemoryEventStore{MaxEvents: 3}
	s := newEventsServer(t, EventOptions{Store: st})
	for i := range 6 {
		emitNote(t, s, "", fmt.Sprint("n", i), "a")
	}
	r := result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"0"`))
	if r["truncated"] != true || len(r["events"].([]any)) != 3 || r["cursor"] != "6" {
		t.Fatalf("a cursor older than the log: %v", r)
	}
	// maxAgeMs: events older than the floor are skipped, and said so.
	time.Sleep(20 * time.Millisecond)
	emitNote(t, s, "", "fresh", "a")
	r = result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"4","maxAgeMs":10`))
	if r["truncated"] != true || len(r["events"].([]any)) != 1 {
		t.Fatalf("maxAgeMs: %v", r)
	}
	// A cursor past the log (a store since emptied): truncated, from now.
	r = result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"99"`))
	if r["truncated"] != true || r["cursor"] != "7" {
		t.Fatalf("cursor ahead: %v", r)
	}
}

func TestEventsEmitChecksPayload(t *testing.T) {
	s := newEventsServer(t, EventOptions{})
	if err := EmitTo(context.Background(), s, "", "note.changed", map[string]any{"note": 1}); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Errorf("a payload that breaks the schema: %v", err)
	}
	if err := EmitTo(context.Background(), s, "", "nope", note{}); err == nil {
		t.Error("an unknown event was emitted")
	}
	if err := Emit(context.Background(), note{"x", "a"}); err == nil {
		t.Error("Emit outside a request succeeded")
	}
	req := &Request{server: s}
	ctx := withRequest(context.Background(), req)
	if err := Emit(ctx, note{"typed", "a"}); err != nil {
		t.Errorf("Emit of the event's type: %v", err)
	}
	if err := Emit(ctx, struct{ X int }{1}); err == nil || !strings.Contains(err.Error(), "no event") {
		t.Errorf("Emit of another type: %v", err)
	}
	if recs, _ := s.events.store.Events(context.Background(), "note.changed", "", 0, 100, 10); len(recs) != 1 || !strings.Contains(string(recs[0].Data), "typed") {
		t.Errorf("the typed emit: %v", recs)
	}
	big := note{Note: strings.Repeat("x", maxEventPayload), Kind: "a"}
	if err := EmitTo(context.Background(), s, "", "note.changed", big); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("an oversized payload: %v", err)
	}
}

// streamPeerRec records notifications and signals each.
type streamPeerRec struct {
	mu    sync.Mutex
	notes []string
	got   chan string
}

func (p *streamPeerRec) Notify(_ context.Context, method string, params any) error {
	b, _ := json.Marshal(params)
	p.mu.Lock()
	p.notes = append(p.notes, method+" "+string(b))
	p.mu.Unlock()
	p.got <- method + " " + string(b)
	return nil
}

func (p *streamPeerRec) Call(context.Context, string, any) (json.RawMessage, error) {
	return nil, fmt.Errorf("no calls")
}

func (p *streamPeerRec) next(t *testing.T) string {
	t.Helper()
	select {
	case n := <-p.got:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no notification within 10s")
		return ""
	}
}

func TestEventsStream(t *testing.T) {
	s := newEventsServer(t, EventOptions{Heartbeat: 50 * time.Millisecond, MaxStreamsPerPrincipal: 1})
	emitNote(t, s, "", "old", "a")
	peer := &streamPeerRec{got: make(chan string, 100)}
	ctx, cancel := context.WithCancel(context.Background())
	m, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"st","method":"events/stream","params":{` + modernCaps(`{}`) + `,"name":"note.changed","cursor":"0","arguments":{"kind":"a"}}}`))
	done := make(chan *jsonrpc.Message)
	go func() {
		resp, _ := s.handle(ctx, &inbound{Msg: m, Auth: alice, Authenticated: true, peer: peer})
		done <- resp
	}()
	if n := peer.next(t); !strings.HasPrefix(n, "notifications/events/active ") || !strings.Contains(n, `"cursor":"0"`) || !strings.Contains(n, `"io.modelcontextprotocol/subscriptionId":"st"`) {
		t.Fatalf("first: %s", n)
	}
	if n := peer.next(t); !strings.HasPrefix(n, "notifications/events/event ") || !strings.Contains(n, `"note":"old"`) || !strings.Contains(n, `"cursor":"1"`) {
		t.Fatalf("replayed: %s", n)
	}
	// A second stream of the same principal is over its cap.
	m2, _ := jsonrpc.Decode([]byte(`{"jsonrpc":"2.0","id":"st2","method":"events/stream","params":{` + modernCaps(`{}`) + `,"name":"note.changed","cursor":null}}`))
	resp, _ := s.handle(ctx, &inbound{Msg: m2, Auth: alice, Authenticated: true, peer: &streamPeerRec{got: make(chan string, 10)}})
	wantError(t, resp, CodeEventQuota, "events/stream")
	emitNote(t, s, "", "skip", "b")
	emitNote(t, s, "", "live", "a")
	for {
		n := peer.next(t)
		if strings.HasPrefix(n, "notifications/events/heartbeat") {
			continue
		}
		if !strings.HasPrefix(n, "notifications/events/event ") || !strings.Contains(n, `"note":"live"`) || !strings.Contains(n, `"cursor":"3"`) {
			t.Fatalf("live: %s", n)
		}
		break
	}
	for {
		n := peer.next(t)
		if strings.HasPrefix(n, "notifications/events/heartbeat ") {
			if !strings.Contains(n, `"cursor":"3"`) {
				t.Fatalf("heartbeat cursor: %s", n)
			}
			break
		}
	}
	cancel()
	<-done
	// The slot is free again.
	s.events.mu.Lock()
	open := s.events.nstream
	s.events.mu.Unlock()
	if open != 0 {
		t.Errorf("%d streams still counted", open)
	}
}

// receiver is a webhook endpoint that checks every signature with the
// secret, echoes challenges, and fails while failing says so.
type receiver struct {
	t      *testing.T
	secret []byte
	mu     sync.Mutex
	bodies []map[string]any
	ids    []string
	fail   int // answer 500 to the next fail requests
	noEcho bool
	got    chan map[string]any
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id, ts, sig := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp"), r.Header.Get("webhook-signature")
	mac := hmac.New(sha256.New, rc.secret)
	mac.Write([]byte(id + "." + ts + "."))
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if sig != want || r.Header.Get("X-MCP-Subscription-Id") == "" || r.Header.Get("Content-Type") != "application/json" {
		rc.t.Errorf("bad delivery headers: id %q sig %q want %q sub %q", id, sig, want, r.Header.Get("X-MCP-Subscription-Id"))
		w.WriteHeader(401)
		return
	}
	var v map[string]any
	_ = json.Unmarshal(body, &v)
	if v["type"] == "verification" {
		if rc.noEcho {
			w.WriteHeader(204)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"challenge": v["challenge"]})
		return
	}
	rc.mu.Lock()
	if rc.fail > 0 {
		rc.fail--
		rc.mu.Unlock()
		w.WriteHeader(500)
		return
	}
	rc.bodies = append(rc.bodies, v)
	rc.ids = append(rc.ids, id)
	rc.mu.Unlock()
	w.WriteHeader(204)
	rc.got <- v
}

func (rc *receiver) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case v := <-rc.got:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery within 10s")
		return nil
	}
}

const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(testSecret, "whsec_"))
	rc := &receiver{t: t, secret: key, got: make(chan map[string]any, 100)}
	hs := httptest.NewServer(rc)
	t.Cleanup(hs.Close)
	return rc, hs
}

func subscribeParams2(url, args string) string {
	return `"name":"note.changed","arguments":` + args + `,"delivery":{"mode":"webhook","url":"` + url + `","secret":"` + testSecret + `"},"cursor":null,"ttlMs":600000`
}

func TestEventsWebhook(t *testing.T) {
	rc, hs := newReceiver(t)
	s := newEventsServer(t, EventOptions{WebhookAllow: []string{hs.URL}, RetryBase: 10 * time.Millisecond, PollInterval: 20 * time.Millisecond})
	url := hs.URL + "/hook?k=1"
	r := result(t, evCall(t, s, alice, "events/subscribe", subscribeParams2(url, `{"kind":"a"}`)))
	id, _ := r["id"].(string)
	if !strings.HasPrefix(id, "sub_") || r["refreshBefore"] == nil || r["truncated"] != false {
		t.Fatalf("subscribe: %v", r)
	}
	exp, _ := time.Parse(time.RFC3339Nano, r["refreshBefore"].(string))
	if d := time.Until(exp); d > 10*time.Minute || d < 9*time.Minute {
		t.Errorf("granted %v for a 10 minute suggestion", d)
	}
	emitNote(t, s, "", "skip", "b")
	emitNote(t, s, "", "one", "a")
	v := rc.next(t)
	if v["name"] != "note.changed" || v["data"].(map[string]any)["note"] != "one" || v["cursor"] != "2" {
		t.Fatalf("delivery: %v", v)
	}
	rc.mu.Lock()
	if rc.ids[0] != v["eventId"] {
		t.Errorf("webhook-id %q is not the eventId %v", rc.ids[0], v["eventId"])
	}
	rc.fail = 2 // the next event fails twice, then goes through
	rc.mu.Unlock()
	emitNote(t, s, "", "two", "a")
	if v := rc.next(t); v["data"].(map[string]any)["note"] != "two" {
		t.Fatalf("after retries: %v", v)
	}
	waitOutbox(t, s)
	// Refresh: same id, delivery status.
	r = result(t, evCall(t, s, alice, "events/subscribe", subscribeParams2(url, `{"kind":"a"}`)))
	if r["id"] != id || r["deliveryStatus"] == nil || r["cursor"] != "3" {
		t.Fatalf("refresh: %v", r)
	}
	// Another principal cannot unsubscribe it; alice can, once.
	wantError(t, evCall(t, s, Principal{Subject: "bob", Scopes: []string{"notes:read"}}, "events/unsubscribe", `"name":"note.changed","arguments":{"kind":"a"},"delivery":{"url":"`+url+`"}`), CodeEventNotFound, "subscription")
	result(t, evCall(t, s, alice, "events/unsubscribe", `"name":"note.changed","arguments":{"kind":"a"},"delivery":{"url":"`+url+`"}`))
	wantError(t, evCall(t, s, alice, "events/unsubscribe", `"name":"note.changed","arguments":{"kind":"a"},"delivery":{"url":"`+url+`"}`), CodeEventNotFound, "subscription")
	emitNote(t, s, "", "after", "a")
	time.Sleep(100 * time.Millisecond)
	rc.mu.Lock()
	n := len(rc.bodies)
	rc.mu.Unlock()
	if n != 2 {
		t.Errorf("%d deliveries, want 2 (none after unsubscribe)", n)
	}
}

func TestEventsWebhookGapAndTerminated(t *testing.T) {
	rc, hs := newReceiver(t)
	s := newEventsServer(t, EventOptions{WebhookAllow: []string{hs.URL}, RetryBase: time.Millisecond, PollInterval: 10 * time.Millisecond, Attempts: 2, GiveUpAfter: 2})
	result(t, evCall(t, s, alice, "events/subscribe", subscribeParams2(hs.URL, `{}`)))
	rc.mu.Lock()
	rc.fail = 2 // both attempts of the first event
	rc.mu.Unlock()
	emitNote(t, s, "", "lost", "a")
	if v := rc.next(t); v["type"] != "gap" || v["cursor"] != "1" {
		t.Fatalf("want a gap after the abandoned event, got %v", v)
	}
	rc.mu.Lock()
	rc.fail = 2
	rc.mu.Unlock()
	emitNote(t, s, "", "lost2", "a")
	v := rc.next(t)
	if v["type"] != "terminated" || v["error"].(map[string]any)["code"] != float64(CodeEventCallback) {
		t.Fatalf("want terminated after two abandoned events, got %v", v)
	}
	if sub, _ := s.events.store.Subscriptions(context.Background(), "note.changed", ""); len(sub) != 0 {
		t.Errorf("terminated subscription still stored: %v", sub)
	}
}

func TestEventsWebhookRefusals(t *testing.T) {
	rc, hs := newReceiver(t)
	s := newEventsServer(t, EventOptions{WebhookAllow: []string{hs.URL}, MaxSubscriptionsPerPrincipal: 1})
	// Anonymous callers cannot hold webhooks.
	wantError(t, evCall(t, s, Principal{}, "events/subscribe", subscribeParams2(hs.URL, `{}`)), CodeEventForbidden, "authenticated")
	// Without the scope.
	wantError(t, evCall(t, s, mallo, "events/subscribe", subscribeParams2(hs.URL, `{}`)), CodeEventForbidden, "Forbidden")
	// Not https, not allowed.
	wantError(t, evCall(t, s, alice, "events/subscribe", subscribeParams2("http://example.com/h", `{}`)), jsonrpc.CodeInvalidParams, "https")
	// https to a private address: refused without the allowance.
	for _, u := range []string{"https://127.0.0.1/h", "https://10.1.2.3/h", "https://[::1]/h", "https://169.254.169.254/latest"} {
		wantError(t, evCall(t, s, alice, "events/subscribe", subscribeParams2(u, `{}`)), jsonrpc.CodeInvalidParams, "not a public address")
	}
	wantError(t, evCall(t, s, alice, "events/subscribe", subscribeParams2("https://u:p@example.com/h", `{}`)), jsonrpc.CodeInvalidParams, "credentials")
	wantError(t, evCall(t, s, alice, "events/subscribe", subscribeParams2("https://example.com/"+strings.Repeat("a", maxWebhookURL), `{}`)), jsonrpc.CodeInvalidParams, "over")
	// Bad secrets.
	for _, sec := range []string{"secret", "whsec_c2hvcnQ=", "whsec_!!!"} {
		p := strings.Replace(subscribeParams2(hs.URL, `{}`), testSecret, sec, 1)
		wantError(t, evCall(t, s, alice, "events/subscribe", p), jsonrpc.CodeInvalidParams, "secret")
	}
	wantError(t, evCall(t, s, alice, "events/subscribe", strings.Replace(subscribeParams2(hs.URL, `{}`), `"mode":"webhook"`, `"mode":"push"`, 1)), CodeEventUnsupported, "Unsupported")
	wantError(t, evCall(t, s, alice, "events/subscribe", strings.Replace(subscribeParams2(hs.URL, `{}`), `"ttlMs":600000`, `"ttlMs":-1`, 1)), jsonrpc.CodeInvalidParams, "ttlMs")
	// An endpoint that does not echo the challenge.
	rc.noEcho = true
	r := evCall(t, s, alice, "events/subscribe", subscribeParams2(hs.URL, `{}`))
	wantError(t, r, CodeEventCallback, "challenge_failed")
	if !strings.Contains(string(r.Error.Data), `"reason":"challenge_failed"`) {
		t.Errorf("data: %s", r.Error.Data)
	}
	rc.noEcho = false
	// Quota: one subscription per principal here.
	result(t, evCall(t, s, alice, "events/subscribe", subscribeParams2(hs.URL, `{}`)))
	r = evCall(t, s, alice, "events/subscribe", subscribeParams2(hs.URL, `{"kind":"b"}`))
	wantError(t, r, CodeEventQuota, "at most 1")
	// Secrets are never in an answer.
	if strings.Contains(string(r.Error.Data)+r.Error.Message, testSecret) {
		t.Error("the secret is in an error")
	}
}

func TestEventsTTLGrant(t *testing.T) {
	f := &events{opts: EventOptions{MaxTTL: time.Hour, MinTTL: time.Minute}}
	for raw, want := range map[string]time.Duration{"": time.Hour, "null": time.Hour, "1": time.Minute, "7200000": time.Hour, "600000": 10 * time.Minute} {
		got, err := f.grant(json.RawMessage(raw))
		if err != nil || got != want {
			t.Errorf("ttlMs %q: %v %v, want %v", raw, got, err, want)
		}
	}
}

func TestPublicAddr(t *testing.T) {
	for s, want := range map[string]bool{"8.8.8.8": true, "2606:4700::1111": true, "127.0.0.1": false, "10.0.0.1": false,
		"172.16.5.4": false, "192.168.1.1": false, "169.254.169.254": false, "100.64.0.1": false, "0.0.0.0": false,
		"::1": false, "fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false, "198.18.0.1": false, "2001:db8::1": false} {
		if got := publicAddr(netip.MustParseAddr(s)); got != want {
			t.Errorf("publicAddr(%s) = %v", s, got)
		}
	}
}

// TestEventsWebhookAddressCheckedAtDelivery: a subscription whose host
// later resolves to a private address (DNS rebinding) is not delivered
// to: the sender's dialer refuses the connection.
func TestEventsWebhookAddressCheckedAtDelivery(t *testing.T) {
	_, hs := newReceiver(t)
	s := newEventsServer(t, EventOptions{})
	sub := &EventSubscription{ID: "sub_x", URL: strings.Replace(hs.URL, "http://", "https://", 1), Secret: testSecret}
	_, failed, _ := s.events.hooks.post(context.Background(), sub, "msg_1", []byte(`{}`), 0)
	if failed != "connection_refused" {
		t.Errorf("delivery to %s: %q, want connection_refused", sub.URL, failed)
	}
}

// waitOutbox waits until every delivery was completed.
func waitOutbox(t *testing.T, s *Server) {
	t.Helper()
	st := s.events.store.(*MemoryEventStore)
	for i := 0; ; i++ {
		st.mu.Lock()
		n := len(st.outbox)
		st.mu.Unlock()
		if n == 0 {
			return
		}
		if i > 1000 {
			t.Fatalf("%d deliveries still in the outbox", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBackoff(t *testing.T) {
	if backoff(time.Second, 1) != time.Second || backoff(time.Second, 3) != 4*time.Second || backoff(time.Second, 40) != time.Hour {
		t.Error("backoff")
	}
}

// TestEventsStreamOverHTTP: events/stream is a POST answered with an SSE
// stream: the active notification, then each event as it is emitted.
func TestEventsStreamOverHTTP(t *testing.T) {
	def := eventsDefinition()
	def.Events[0].Scope = "" // no authentication on this endpoint
	s2, err := build(def, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	hs2 := httptest.NewServer(HTTPHandler(s2, HTTPOptions{}))
	defer hs2.Close()
	body := modernBody("es-1", "events/stream", map[string]any{"name": "note.changed", "cursor": nil})
	resp := post(t, hs2.URL, modernHeaders("events/stream", ""), body)
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("content type %q", ct)
	}
	st := newSSE(t, resp)
	if m := st.must(); m.Method != "notifications/events/active" || !strings.Contains(string(m.Params), `"io.modelcontextprotocol/subscriptionId":"es-1"`) {
		t.Fatalf("first: %+v %s", m, m.Params)
	}
	emitNote(t, s2, "", "over http", "a")
	if m := st.must(); m.Method != "notifications/events/event" || !strings.Contains(string(m.Params), `"note":"over http"`) {
		t.Fatalf("event: %+v %s", m, m.Params)
	}
}

// TestEventsWebhookReplay: a subscribe with a cursor replays what came
// after it; one too far behind starts from now, truncated.
func TestEventsWebhookReplay(t *testing.T) {
	rc, hs := newReceiver(t)
	s := newEventsServer(t, EventOptions{WebhookAllow: []string{hs.URL}, PollInterval: 10 * time.Millisecond})
	emitNote(t, s, "", "r1", "a")
	emitNote(t, s, "", "r2", "b")
	r := result(t, evCall(t, s, alice, "events/subscribe", strings.Replace(subscribeParams2(hs.URL+"/a", `{"kind":"b"}`), `"cursor":null`, `"cursor":"0"`, 1)))
	if r["truncated"] != false || r["cursor"] != "1" {
		t.Fatalf("replay: %v", r)
	}
	if v := rc.next(t); v["data"].(map[string]any)["note"] != "r2" {
		t.Fatalf("replayed: %v", v)
	}
	for i := range maxReplayEvents + 1 {
		emitNote(t, s, "", fmt.Sprint("bulk", i), "c")
	}
	r = result(t, evCall(t, s, alice, "events/subscribe", strings.Replace(subscribeParams2(hs.URL+"/c", `{"kind":"c"}`), `"cursor":null`, `"cursor":"2"`, 1)))
	if r["truncated"] != true || r["cursor"] != fmt.Sprint(maxReplayEvents+3) {
		t.Fatalf("too far behind: %v", r)
	}
	waitOutbox(t, s)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.bodies) != 1 {
		t.Errorf("%d deliveries, want the one replay", len(rc.bodies))
	}
}

// TestEventPayloadNilSliceSentAsEmptyArray: a payload's nil slice, which
// encoding/json writes as null, is recorded and sent as [] where the
// payload schema takes only an array (as the generator describes what is
// sent), instead of failing the schema.
func TestEventPayloadNilSliceSentAsEmptyArray(t *testing.T) {
	def := eventsDefinition()
	def.Events[0].PayloadSchema = json.RawMessage(`{"type":"object","properties":{"note":{"type":"string"},"kind":{"type":"string"},
		"tags":{"type":"array","items":{"type":"string"}}},"required":["note","kind","tags"]}`)
	s, err := build(def, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	type tagged struct {
		Note string   `json:"note"`
		Kind string   `json:"kind"`
		Tags []string `json:"tags"`
	}
	first := result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":null`))
	if err := EmitTo(context.Background(), s, "", "note.changed", tagged{Note: "n1", Kind: "a"}); err != nil {
		t.Fatalf("emit with a nil slice: %v", err)
	}
	r := result(t, evCall(t, s, alice, "events/poll", `"name":"note.changed","cursor":"`+first["cursor"].(string)+`"`))
	evs := r["events"].([]any)
	if len(evs) != 1 {
		t.Fatalf("events %v", r)
	}
	b, _ := json.Marshal(evs[0].(map[string]any)["data"])
	if string(b) != `{"kind":"a","note":"n1","tags":[]}` {
		t.Fatalf("payload sent %s, want tags as []", b)
	}
}

// TestEventsHandshakesDoNotQueue: a subscriber whose endpoint stalls the
// verification handshake holds up only itself: its second subscribe is
// refused at once, and another principal's subscription is verified while
// the stalled handshake is still under way.
func TestEventsHandshakesDoNotQueue(t *testing.T) {
	stall, release := make(chan struct{}), make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(stall)
		<-release
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) })
	_, fast := newReceiver(t)
	s := newEventsServer(t, EventOptions{WebhookAllow: []string{slow.URL, fast.URL}, Timeout: time.Minute})
	stalled := make(chan *jsonrpc.Message, 1)
	go func() { stalled <- evCall(t, s, alice, "events/subscribe", subscribeParams2(slow.URL, `{}`)) }()
	<-stall
	wantError(t, evCall(t, s, alice, "events/subscribe", subscribeParams2(fast.URL, `{}`)), CodeEventCallback, "verification_in_progress")
	bob := Principal{Subject: "bob", Scopes: []string{"notes:read"}}
	result(t, evCall(t, s, bob, "events/subscribe", subscribeParams2(fast.URL, `{}`)))
	select {
	case r := <-stalled:
		t.Fatalf("the stalled handshake ended early: %+v", r)
	default:
	}
}
