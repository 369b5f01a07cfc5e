// Package skilldiag is full of //mcp:skill mistakes: the directives here,
// and the SKILL.md files under bad/, whose YAML comments say which
// diagnostic each line must get (want@N "..." is for line N).
//
//mcp:server name=skilldiag
//mcp:skill root=bad
/* want `//mcp:skill: no directory missing` */ //mcp:skill dir=missing
/* want `//mcp:skill: skilldiag.go is not a directory` */ //mcp:skill dir=skilldiag.go
/* want `skill nomanifest: no SKILL.md in` */ //mcp:skill dir=nomanifest
/* want `//mcp:skill: dir=../../../.. leaves the module` */ //mcp:skill dir=../../../..
/* want `//mcp:skill: dir=/tmp is not a relative slash path` */ //mcp:skill dir=/tmp
/* want `//mcp:skill: need exactly one of dir= and root=` */ //mcp:skill dir=good root=bad
/* want `//mcp:skill: need exactly one of dir= and root=` */ //mcp:skill prefix=x
/* want `//mcp:skill: unknown key "name"` */ //mcp:skill dir=good name=x
/* want `//mcp:skill: prefix segment "Acme" contains 'A'` */ //mcp:skill dir=good prefix=Acme/billing
/* want `//mcp:skill: root empty-root/notes holds no skill directories` */ //mcp:skill root=empty-root/notes
/* want `skill good: two skills at skill://good` */ //mcp:skill dir=good
/* want `skill linked: sneaky.md is a symbolic link` */ //mcp:skill dir=linked
package skilldiag

// NotHere carries a package-level skill directive on a type.
//
/* want `//mcp:skill: dir= on a type` */ //mcp:skill dir=good
type NotHere struct{}
