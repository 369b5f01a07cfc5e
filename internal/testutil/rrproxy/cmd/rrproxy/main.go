// Command rrproxy runs the round-robin test proxy of package rrproxy in
// front of the given backends, prints its base URL on stdout and serves
// until interrupted. scripts/conformance-cluster.sh uses it.
//
//	rrproxy [-stream] [-max-idle N] http://127.0.0.1:8081 http://127.0.0.1:8082 http://127.0.0.1:8083
//
// -stream forwards request bodies as they arrive instead of reading each
// whole first; -max-idle keeps at most N idle connections per backend
// (default 64; 2 behaves as a plain httputil.ReverseProxy with Go's
// default transport).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpgen/mcpgen/internal/testutil/rrproxy"
)

func main() {
	var o rrproxy.Options
	flag.BoolVar(&o.Stream, "stream", false, "forward request bodies as they arrive")
	flag.IntVar(&o.MaxIdlePerBackend, "max-idle", 64, "idle connections kept per backend")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: rrproxy [-stream] [-max-idle N] BACKEND_URL...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	p, err := rrproxy.StartWith(o, flag.Args()...)
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
