package harness

import "testing"

// The replicas without a backend share nothing: they run only the cells
// that need no shared state (the stateless echo and ingest); every other
// topology runs every cell.
func TestTopologyServes(t *testing.T) {
	stateless := map[ClusterKey]bool{{Mode: ModernHTTP, Workload: Echo}: true, {Mode: ModernHTTP, Workload: Ingest}: true}
	for _, top := range Topologies {
		for _, m := range []Mode{ModernHTTP, LegacyHTTP} {
			for _, w := range []Workload{Echo, Ingest, Notify} {
				want := top.Name != "in-process x3" || stateless[ClusterKey{Mode: m, Workload: w}]
				if got := top.Serves(m, w); got != want {
					t.Errorf("%s serves %s %s: %v, want %v", top.Name, m, w, got, want)
				}
			}
		}
	}
	control := Topology{Name: "in-process x3", Replicas: 3}
	if !control.servesAny([]Mode{LegacyHTTP, ModernHTTP}, Echo) || control.servesAny([]Mode{LegacyHTTP}, Echo) {
		t.Error("servesAny must look at every mode given")
	}
}
