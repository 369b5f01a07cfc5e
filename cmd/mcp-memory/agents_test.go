package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/components/memory/memstore"
	"github.com/mcpgen/mcpgen/generated/memory"
)

// ackedWrite is a write the server acknowledged: when, the tool, the
// arguments.
type ackedWrite struct {
	at   time.Time
	tool string
	args string
}

// TestConcurrentAgentsEqualSerialReplay: 16 agents call one server over
// Streamable HTTP at once, each writing only its own entities and reading
// them back (a read must show the agent's last acknowledged write); then
// the acknowledged writes, replayed one at a time in acknowledgement order
// into a fresh store, give the same graph. (bench/ runs the same for 30 s
// and reports the throughput.)
func TestConcurrentAgentsEqualSerialReplay(t *testing.T) {
	store, err := memstore.Open(filepath.Join(t.TempDir(), "live.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ts := httptest.NewServer(mcpgen.HTTPHandler(memory.New(store, mcpgen.Options{}), mcpgen.HTTPOptions{}))
	defer ts.Close()

	const agents, steps = 16, 40
	var (
		mu    sync.Mutex
		acked []ackedWrite
		wg    sync.WaitGroup
	)
	for a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(a), 7))
			own := map[string][]string{} // the agent's entities as it wrote them
			var names []string
			for step := range steps {
				obs := fmt.Sprintf("obs %d of agent %d", step, a)
				var tool, args string
				var after func(text string) error
				switch r := rng.IntN(10); {
				case r < 3 || len(names) == 0:
					name := fmt.Sprintf("agent%02d-%03d", a, step)
					tool, args = "create_entities", fmt.Sprintf(`{"entities":[{"name":%q,"entityType":"t","observations":[%q]}]}`, name, obs)
					after = func(string) error { own[name] = []string{obs}; names = append(names, name); return nil }
				case r < 5:
					name := names[rng.IntN(len(names))]
					tool, args = "add_observations", fmt.Sprintf(`{"observations":[{"entityName":%q,"contents":[%q]}]}`, name, obs)
					after = func(string) error { own[name] = append(own[name], obs); return nil }
				case r < 6:
					from, to := names[rng.IntN(len(names))], names[rng.IntN(len(names))]
					tool, args = "create_relations", fmt.Sprintf(`{"relations":[{"from":%q,"to":%q,"relationType":"r%d"}]}`, from, to, step%3)
					after = func(string) error { return nil }
				case r < 7:
					i := rng.IntN(len(names))
					name := names[i]
					tool, args = "delete_entities", fmt.Sprintf(`{"entityNames":[%q]}`, name)
					after = func(string) error { delete(own, name); names = slices.Delete(names, i, i+1); return nil }
				default:
					name := names[rng.IntN(len(names))]
					want := slices.Clone(own[name])
					tool, args = "open_nodes", fmt.Sprintf(`{"names":[%q]}`, name)
					after = func(text string) error {
						var g memstore.Graph
						if err := json.Unmarshal([]byte(text), &g); err != nil {
							return err
						}
						if len(g.Entities) != 1 || !slices.Equal(g.Entities[0].Observations, want) {
							return fmt.Errorf("open_nodes %s: got %+v, want observations %q", name, g.Entities, want)
						}
						return nil
					}
				}
				text, err := httpCall(ts.URL, tool, args)
				if err == nil {
					err = after(text)
				}
				if err != nil {
					t.Errorf("agent %d step %d %s: %v", a, step, tool, err)
					return
				}
				if tool != "open_nodes" {
					mu.Lock()
					acked = append(acked, ackedWrite{time.Now(), tool, args})
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	live := canonGraph(t, must[memstore.Graph](t)(store.ReadGraph(t.Context())))

	replay, err := memstore.Open(filepath.Join(t.TempDir(), "replay.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Close()
	c := startPipeServer(t, replay)
	slices.SortStableFunc(acked, func(x, y ackedWrite) int { return x.at.Compare(y.at) })
	for _, w := range acked {
		c.call(t, w.tool, w.args)
	}
	if got := canonGraph(t, must[memstore.Graph](t)(replay.ReadGraph(t.Context()))); got != live {
		t.Fatalf("the graph differs from the serial replay of %d acknowledged writes:\n live   %s\n replay %s", len(acked), live, got)
	}
	if len(acked) < agents*steps/3 {
		t.Fatalf("only %d writes: the mix did not write", len(acked))
	}
}

// httpCall makes one stateless (2026-07-28) tools/call and returns its
// text block.
func httpCall(url, tool, args string) (string, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, tool, args)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if i := bytes.Index(data, []byte("data: ")); strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") && i >= 0 {
		data = bytes.TrimSpace(data[i+len("data: "):])
	}
	var m struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return "", fmt.Errorf("HTTP %d %.200s: %v", resp.StatusCode, data, err)
	}
	if m.Error != nil || m.Result.IsError || len(m.Result.Content) == 0 {
		return "", fmt.Errorf("failed: %.300s", data)
	}
	return m.Result.Content[0].Text, nil
}

// canonGraph renders g with entities and relations sorted (agents write
// concurrently, so the order between agents is not fixed; each entity's
// observations keep their order).
func canonGraph(t *testing.T, g memstore.Graph) string {
	t.Helper()
	slices.SortFunc(g.Entities, func(a, b memstore.Entity) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(g.Relations, func(a, b memstore.Relation) int {
		return strings.Compare(a.From+"\x00"+a.To+"\x00"+a.RelationType, b.From+"\x00"+b.To+"\x00"+b.RelationType)
	})
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
