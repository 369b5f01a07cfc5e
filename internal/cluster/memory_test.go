package cluster_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/cluster"
	"github.com/mcpgen/mcpgen/internal/cluster/clustertest"
)

func TestMemoryContract(t *testing.T) {
	m := cluster.NewMemory()
	clustertest.Run(t, clustertest.Store{Replica: func(t *testing.T) cluster.Backend {
		r := m.Replica()
		t.Cleanup(func() { _ = r.Close() })
		return r
	}})
}
