package gen

import "fmt"

// NameRule is the MCP specification's rule for tool names (revision
// 2025-11-25, server/tools, "Tool Names"). mcpgen applies it to the names
// of tools and prompts, and `mcpgen new` to every NAME it takes, so that
// what one accepts the other does too.
const NameRule = "1 to 128 characters of A-Z a-z 0-9 _ - ."

// maxNameLen is the longest name NameRule allows.
const maxNameLen = 128

// CheckName says why name breaks [NameRule], or returns "".
func CheckName(name string) string {
	if name == "" {
		return "it is empty"
	}
	for _, r := range name {
		switch {
		case 'A' <= r && r <= 'Z', 'a' <= r && r <= 'z', '0' <= r && r <= '9', r == '_', r == '-', r == '.':
		default:
			return fmt.Sprintf("it contains %q", r)
		}
	}
	if len(name) > maxNameLen {
		return fmt.Sprintf("it is %d characters long; the limit is %d", len(name), maxNameLen)
	}
	return ""
}
