// Package tasks is a golden case: tools that run as tasks, one with a
// Prepare method that runs before the task is created.
//
//mcp:server name=tasks
package tasks

import (
	"context"
	"errors"
	"strings"

	"github.com/mcpgen/mcpgen"
)

// Export writes everything to a destination; it always runs as a task for
// clients that support them.
//
//mcp:tool task=required openworld
type Export struct {
	// Where to export to, an s3:// URL.
	Dest string `json:"dest"`
}

// Prepare refuses a bad destination before any task is created.
func (in Export) Prepare(ctx context.Context, req *mcpgen.Request) error {
	if !strings.HasPrefix(in.Dest, "s3://") {
		return errors.New("destination must be an s3:// URL")
	}
	return nil
}

// Call does the export.
func (in Export) Call(ctx context.Context, req *mcpgen.Request) (string, error) {
	return "exported to " + in.Dest, nil
}

// Reindex rebuilds the index; it may run as a task.
//
//mcp:tool task=optional idempotent destructive=false
type Reindex struct{}

// Call rebuilds.
func (*Reindex) Call(ctx context.Context) (string, error) { return "reindexed", nil }
