// Package mistakes holds one of every mistake the checker reports. Each
// offending line carries its expectation: a `// want "regexp"` comment, or,
// on a directive line (where a trailing comment would be read as part of
// the directive), a `/* want "regexp" */` comment before the directive.
// TestDiagnostics checks that every diagnostic lands on a line that wants
// it and that every want is met, all from a single run.
//
/* want `unknown key "flavour"` */ //mcp:server name=mistakes flavour=mint
/* want `only //mcp:server, //mcp:skill and //mcp:view belong in the package doc comment` */ //mcp:tool
package mistakes
