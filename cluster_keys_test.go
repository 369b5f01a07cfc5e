package mcpgen

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/internal/cluster"
)

// TestClusterKeysRotate: replicas share the signing keys, so a cursor one
// issues pages on another; when the key rotates, the list pages are
// resealed with the new key, cursors sealed with the old one still work,
// and a replica that has not yet seen the new key fetches it on demand.
func TestClusterKeysRotate(t *testing.T) {
	def := Definition{Name: "pages"}
	for i := range 5 {
		def.Tools = append(def.Tools, Tool{Info: ToolInfo{Name: fmt.Sprintf("t%d", i), InputSchema: json.RawMessage(`{"type":"object"}`)}})
	}
	mem := cluster.NewMemory()
	a := New(def, Options{PageSize: 2, Cluster: mem.Replica()})
	b := New(def, Options{PageSize: 2, Cluster: mem.Replica()})
	defer a.Close()
	defer b.Close()
	cursor := func(s *Server) string {
		var p struct {
			NextCursor string `json:"nextCursor"`
		}
		_ = json.Unmarshal((*s.lists.pages.Load())["tools/list"].legacy[0], &p)
		return p.NextCursor
	}
	page := func(s *Server, c string) string {
		resp := handle(t, s, &inbound{}, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":%q}}`, c))
		if resp.Error != nil {
			return resp.Error.Message
		}
		var r struct{ Tools []struct{ Name string } }
		_ = json.Unmarshal(resp.Result, &r)
		return fmt.Sprint(r.Tools)
	}
	old := cursor(a)
	if got := page(b, old); got != "[{t2} {t3}]" {
		t.Fatalf("a's cursor on b: %s", got)
	}
	mem.RotateKey()
	if err := a.cluster.ring.load(); err != nil {
		t.Fatal(err)
	}
	fresh := cursor(a)
	if fresh == old {
		t.Fatal("the list pages were not resealed with the new key")
	}
	if got := page(a, old); got != "[{t2} {t3}]" {
		t.Fatalf("a cursor sealed with the previous key: %s", got)
	}
	b.cluster.ring.last.Store(0) // its last reload is long past
	if got := page(b, fresh); got != "[{t2} {t3}]" {
		t.Fatalf("a new-key cursor on a replica that had not loaded the key: %s", got)
	}
	forged := []byte(fresh)
	forged[len(forged)/2] ^= 1
	if got := page(b, string(forged)); !strings.Contains(got, "invalid cursor") {
		t.Fatalf("a forged cursor: %s", got)
	}
}
