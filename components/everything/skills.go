package everything

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen"
)

// This file provides a skill from code rather than from files: its content
// is generated when read, so its entry lists "resources": "dynamic" and
// carries no digests. mcpgen lists it beside the embedded skills of the
// package's //mcp:skill directives.

// liveStatusDescription is the skill's description, in its directive and
// in the SKILL.md it serves.
const liveStatusDescription = "Report the fixture server's live status. A dynamic skill: its files are generated on every read."

// LiveStatus is the fixture's dynamic skill: a SKILL.md and a status
// document counting the reads of the skill's files.
//
//mcp:skill name=live-status description="Report the fixture server's live status. A dynamic skill: its files are generated on every read."
type LiveStatus struct{}

// liveStatusReads counts the reads of the dynamic skill's files.
var liveStatusReads atomic.Int64

// Files returns the skill's files as of this read.
func (LiveStatus) Files(ctx context.Context) ([]mcpgen.SkillFile, error) {
	n := liveStatusReads.Add(1)
	return []mcpgen.SkillFile{
		{Path: "SKILL.md", Content: []byte("---\nname: live-status\ndescription: " + liveStatusDescription + "\n---\n\nRead data/status.json for the current status.\n")},
		{Path: "data/status.json", Content: []byte(fmt.Sprintf(`{"reads":%d}`, n))},
	}, nil
}
