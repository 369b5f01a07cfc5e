package skills

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen"
)

// Clock tells the time; New takes it as a dependency of the dynamic skill.
type Clock struct{ Now func() string }

// Status reports the service's status when asked: a dynamic skill, listed
// beside the embedded ones, whose files are generated on every read.
//
//mcp:skill prefix=acme/ops
type Status struct{}

// Files returns the skill's files at the time of the read.
func (Status) Files(ctx context.Context, req *mcpgen.Request, clock *Clock) ([]mcpgen.SkillFile, error) {
	return []mcpgen.SkillFile{
		{Path: "SKILL.md", Content: []byte("---\nname: status\ndescription: Reports the status.\n---\nRead now.txt.\n")},
		{Path: "now.txt", Content: []byte(fmt.Sprintf("as of %s\n", clock.Now()))},
	}, nil
}
