//go:build profile

package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"strings"
	"time"
)

// Built with -tags profile, mcp-memory writes a CPU profile of its first
// MCP_MEMORY_CPUPROFILE_SECONDS seconds (default 10) to the file
// MCP_MEMORY_CPUPROFILE names; MCP_MEMORY_MUTEXPROFILE and
// MCP_MEMORY_BLOCKPROFILE name files for the mutex and block profiles of
// the same seconds, MCP_MEMORY_ALLOCPROFILE one for the allocations since
// the start (go tool pprof -sample_index=alloc_space), MCP_MEMORY_TRACE
// one for their execution trace. "%p"
// in a name stands for the process id (the bench starts more than one
// server). This is how the server was profiled under the bench's load
// (docs/bench/log.md, "an fsync held the only P"):
//
//	go build -tags profile -o bin/ ./cmd/mcp-memory
//	MCP_MEMORY_CPUPROFILE=/tmp/cpu-%p.pprof mcpbench -bin bin -only agents
//
// Release builds have none of it.
func init() {
	secs, _ := strconv.Atoi(os.Getenv("MCP_MEMORY_CPUPROFILE_SECONDS"))
	if secs <= 0 {
		secs = 10
	}
	pid := strconv.Itoa(os.Getpid())
	cpu := strings.ReplaceAll(os.Getenv("MCP_MEMORY_CPUPROFILE"), "%p", pid)
	mutex := strings.ReplaceAll(os.Getenv("MCP_MEMORY_MUTEXPROFILE"), "%p", pid)
	block := strings.ReplaceAll(os.Getenv("MCP_MEMORY_BLOCKPROFILE"), "%p", pid)
	tr := strings.ReplaceAll(os.Getenv("MCP_MEMORY_TRACE"), "%p", pid)
	allocs := strings.ReplaceAll(os.Getenv("MCP_MEMORY_ALLOCPROFILE"), "%p", pid)
	if cpu == "" && mutex == "" && block == "" && tr == "" && allocs == "" {
		return
	}
	var tf *os.File
	if tr != "" {
		var err error
		if tf, err = os.Create(tr); err != nil {
			panic(err)
		}
		if err := trace.Start(tf); err != nil {
			panic(err)
		}
	}
	var f *os.File
	if cpu != "" {
		var err error
		if f, err = os.Create(cpu); err != nil {
			panic(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			panic(err)
		}
	}
	if mutex != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if block != "" {
		runtime.SetBlockProfileRate(int(time.Microsecond))
	}
	go func() {
		time.Sleep(time.Duration(secs) * time.Second)
		if tf != nil {
			trace.Stop()
			tf.Close()
		}
		if f != nil {
			pprof.StopCPUProfile()
			f.Close()
		}
		for name, path := range map[string]string{"mutex": mutex, "block": block, "allocs": allocs} {
			if path == "" {
				continue
			}
			if out, err := os.Create(path); err == nil {
				pprof.Lookup(name).WriteTo(out, 0)
				out.Close()
			}
		}
	}()
}
