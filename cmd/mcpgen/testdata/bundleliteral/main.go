// Command bundleliteral is a server whose every text holds ${...}: the
// surface.json and server.json of package literal (as mcpgen would write
// them from descriptions and doc comments saying so), and its flags'
// usage. mcpgen bundle must write none of it as a placeholder.
package main

import (
	"flag"

	_ "github.com/mcpgen/mcpgen/cmd/mcpgen/testdata/bundleliteral/literal"
)

func main() {
	flag.String("greeting", "hello", "what to say first, never ${user_config.token} or ${HOME}")
	flag.String("notes", "notes.db", "the notes `file`; $${user_config.token}")
	flag.Parse()
}
