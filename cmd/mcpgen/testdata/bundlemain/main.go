// Command bundlemain declares flags of every kind for the tests of mcpgen
// bundle; it imports no generated server.
package main

import (
	"flag"
	"os"
	"time"
)

const defaultLimit = 20

func main() {
	fs := flag.NewFlagSet("bundlemain", flag.ExitOnError)
	dbDefault := os.Getenv("BUNDLEMAIN_DB")
	fs.String("db", dbDefault, "store `path`")
	fs.String("root", "data", "serve files under `dir`")
	fs.Int("limit", defaultLimit, "at most `n` results")
	fs.Bool("read-only", true, "refuse writes")
	fs.Duration("timeout", 30*time.Second, "per call")
	var name string
	fs.StringVar(&name, "name", "", "display name")
	fs.Func("tag", "a `tag`, repeatable", func(string) error { return nil })
	flag.Float64("ratio", 0.5, "a ratio")
	fs.Parse(os.Args[1:])
}
