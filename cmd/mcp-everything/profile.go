//go:build profile

package main

import (
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// Built with -tags profile, mcp-everything writes a CPU profile of its
// first MCP_EVERYTHING_CPUPROFILE_SECONDS seconds (default 10) to the file
// MCP_EVERYTHING_CPUPROFILE names ("%p" stands for the process id: the
// cluster bench starts three replicas). Release builds have none of it.
func init() {
	path := strings.ReplaceAll(os.Getenv("MCP_EVERYTHING_CPUPROFILE"), "%p", strconv.Itoa(os.Getpid()))
	if path == "" {
		return
	}
	secs, _ := strconv.Atoi(os.Getenv("MCP_EVERYTHING_CPUPROFILE_SECONDS"))
	if secs <= 0 {
		secs = 10
	}
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	go func() {
		time.Sleep(time.Duration(secs) * time.Second)
		pprof.StopCPUProfile()
		f.Close()
	}()
}
