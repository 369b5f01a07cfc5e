package memstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// driverJS runs a list of ops against the reference server's
// KnowledgeGraphManager and writes their results next to the ops file.
const driverJS = `
import fs from 'fs';
const [,, refPath, memPath, opsPath] = process.argv;
const { KnowledgeGraphManager } = await import(refPath);
const m = new KnowledgeGraphManager(memPath);
const ops = JSON.parse(fs.readFileSync(opsPath, 'utf8'));
const out = [];
for (const op of ops) {
  try {
    let r;
    switch (op.op) {
      case 'create_entities': r = await m.createEntities(op.arg); break;
      case 'create_relations': r = await m.createRelations(op.arg); break;
      case 'add_observations': r = await m.addObservations(op.arg); break;
      case 'delete_entities': r = await m.deleteEntities(op.arg); break;
      case 'delete_observations': r = await m.deleteObservations(op.arg); break;
      case 'delete_relations': r = await m.deleteRelations(op.arg); break;
      case 'read_graph': r = await m.readGraph(); break;
      case 'search_nodes': r = await m.searchNodes(op.arg); break;
      case 'open_nodes': r = await m.openNodes(op.arg); break;
      default: throw new Error('unknown op ' + op.op);
    }
    out.push({ ok: r === undefined ? null : r });
  } catch (e) {
    out.push({ err: String(e.message) });
  }
}
fs.writeFileSync(opsPath + '.out', JSON.stringify(out));
process.exit(0);
`

// testDifferentialAgainstReference replays random scenarios against the real
// reference implementation and against SQLite, comparing every result, the
// final memory file byte for byte with Export, and Import of that file.
//
// It uses Node and the pinned reference that scripts/tools.sh installs
// under .tools/ (see nodeTools for overrides and for when it skips).
func testDifferentialAgainstReference(t *testing.T) {
	node, ref := nodeTools(t)
	dir := t.TempDir()
	driver := filepath.Join(dir, "driver.mjs")
	mustNil(t, os.WriteFile(driver, []byte(driverJS), 0o644))
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			if testing.Short() && seed > 0 {
				t.Skip("slow (one more random scenario through Node; seed0 runs under -short); runs without -short")
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			ops := genOps(rng, 300, true)
			opsPath := filepath.Join(dir, fmt.Sprintf("ops%d.json", seed))
			memPath := filepath.Join(dir, fmt.Sprintf("memory%d.jsonl", seed))
			b, err := json.Marshal(ops)
			mustNil(t, err)
			mustNil(t, os.WriteFile(opsPath, b, 0o644))
			cmd := exec.Command(node, driver, ref, memPath, opsPath)
			cmd.Stdin = nil
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("node: %v\n%s", err, out)
			}
			var want []result
			raw, err := os.ReadFile(opsPath + ".out")
			mustNil(t, err)
			mustNil(t, json.Unmarshal(raw, &want))
			if len(want) != len(ops) {
				t.Fatalf("%d results for %d ops", len(want), len(ops))
			}

			s, _ := openTest(t, WithSyncNormal())
			for i, o := range ops {
				if got := applyStore(s, o); !sameResult(got, want[i]) {
					t.Fatalf("op %d %s %+q:\n got  %s %s\n want %s %s", i, o.Op, fmt.Sprint(o.Arg), got.Ok, got.Err, want[i].Ok, want[i].Err)
				}
			}
			file, err := os.ReadFile(memPath)
			mustNil(t, err)
			if got := export(t, s); got != string(file) {
				t.Fatalf("Export differs from the reference's file:\n got  %q\n want %q", got, file)
			}
			s2, _ := openTest(t, WithSyncNormal())
			must[ImportStats](t)(s2.Import(bg, bytes.NewReader(file)))
			if got := export(t, s2); got != string(file) {
				t.Fatalf("Import+Export differs from the reference's file:\n got  %q\n want %q", got, file)
			}
		})
	}
}
