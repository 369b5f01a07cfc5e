package harness

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// instantEcho answers echo requests at once, without a server: faster than
// any real target.
type instantEcho struct{}

func (instantEcho) Call(_ context.Context, _, _ string, id int64, body []byte) ([]byte, error) {
	_, rest, _ := bytes.Cut(body, []byte(`"message":"`))
	msg, _, _ := bytes.Cut(rest, []byte(`"`))
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}]}}`, id, msg), nil
}

func (instantEcho) Close() {}

type noCPU struct{}

func (noCPU) CPU() (time.Duration, error) { return 0, nil }

// TestRunCellKeepsCallsForTheWindow: with the smoke test's bounds (400
// calls), a target that answers faster than the warm-up looks at its
// count must still have calls measured in the window. It used to spend
// them all in the warm-up, which bench/TestSmoke reported as "no answered
// request" for raw stdio echo at c=32.
func TestRunCellKeepsCallsForTheWindow(t *testing.T) {
	callers := make([]Caller, 32)
	for i := range callers {
		callers[i] = instantEcho{}
	}
	cfg := CellConfig{Warmup: 20 * time.Millisecond, Window: 60 * time.Millisecond, MaxCalls: 400}
	res := RunCell(context.Background(), noCPU{}, callers, Echo, false, cfg)
	if res.Failures > 0 {
		t.Fatalf("%d failures; first: %s", res.Failures, res.FirstErr)
	}
	if res.Requests == 0 {
		t.Fatal("no request measured in the window")
	}
}

// slowEcho answers after a delay longer than the smoke window.
type slowEcho struct{ d time.Duration }

func (s slowEcho) Call(ctx context.Context, method, name string, id int64, body []byte) ([]byte, error) {
	time.Sleep(s.d)
	return instantEcho{}.Call(ctx, method, name, id, body)
}

func (slowEcho) Close() {}

// TestRunCellWaitsForTheFirstAnswer: on a machine so busy that no call
// ends within the window, the cell still measures the first that does
// (bench/TestSmoke reported "no answered request" under load).
func TestRunCellWaitsForTheFirstAnswer(t *testing.T) {
	callers := []Caller{slowEcho{d: 150 * time.Millisecond}, slowEcho{d: 150 * time.Millisecond}}
	cfg := CellConfig{Warmup: time.Millisecond, Window: 20 * time.Millisecond, MaxCalls: 400}
	res := RunCell(context.Background(), noCPU{}, callers, Echo, false, cfg)
	if res.Failures > 0 {
		t.Fatalf("%d failures; first: %s", res.Failures, res.FirstErr)
	}
	if res.Requests == 0 {
		t.Fatal("no request measured: the window ended before the first answer")
	}
}
