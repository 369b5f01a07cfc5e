// Command rrproxy runs the round-robin test proxy of package rrproxy in
// front of the given backends, prints its base URL on stdout and serves
// until interrupted. scripts/conformance-cluster.sh uses it.
//
//	rrproxy http://127.0.0.1:8081 http://127.0.0.1:8082 http://127.0.0.1:8083
package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/internal/testutil/rrproxy"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rrproxy BACKEND_URL...")
		os.Exit(2)
	}
	p, err := rrproxy.Start(os.Args[1:]...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(p.URL())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	p.Close()
	fmt.Fprintf(os.Stderr, "rrproxy: requests per backend %v\n", p.Hits())
}
