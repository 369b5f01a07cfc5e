// Command bundlenames is a server whose names and flag defaults hold
// ${...}: mcpgen bundle refuses each, in one run.
package main

import (
	"flag"

	_ "github.com/mcpgen/mcpgen/cmd/mcpgen/testdata/bundlenames/names"
)

func main() {
	flag.String("w}${user_config.token", "", "a flag whose name closes a placeholder")
	flag.String("db", "${HOME}/.names.db", "the database `file`")
	flag.String("key", "${user_config.token}", "a key")
	flag.Bool("ok", true, "a flag that is fine")
	flag.Parse()
}
