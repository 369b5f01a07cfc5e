// Package harness is the load generator and the benchmark driver behind
// `make bench`: it starts each target server pinned to its own core, drives
// it over Streamable HTTP (2026-07-28 and legacy) and stdio, checks every
// answer, reads the server's CPU time and peak memory from /proc, and writes
// docs/bench/results.md and the chart.
//
// Every loop is bounded in count and in time, and every connection goes to
// 127.0.0.1.
package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// clockTick is USER_HZ, the unit of utime and stime in /proc/<pid>/stat
// (100 on every Linux architecture Go supports).
const clockTick = 100

// Cores chooses where the load generator and the servers run.
type Cores struct {
	Load   int // core of the load generator
	Server int // core of the server under test
	On     bool
}

// DefaultCores pins the load generator to core 0 and servers to core 1 on
// machines with at least two cores; on one core nothing is pinned.
func DefaultCores() Cores {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil || set.Count() < 2 {
		return Cores{}
	}
	var cpus []int
	for i := 0; i < 1024 && len(cpus) < 2; i++ {
		if set.IsSet(i) {
			cpus = append(cpus, i)
		}
	}
	return Cores{Load: cpus[0], Server: cpus[1], On: true}
}

// PinSelf pins every thread of this process to the load core; threads
// started later inherit it.
func (c Cores) PinSelf() error {
	if !c.On {
		return nil
	}
	return pinAll(os.Getpid(), c.Load)
}

// pinAll sets the affinity of every thread of pid to one core.
func pinAll(pid, core int) error {
	var set unix.CPUSet
	set.Set(core)
	tids, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return unix.SchedSetaffinity(pid, &set)
	}
	for _, t := range tids {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil && !errors.Is(err, unix.ESRCH) {
			return err
		}
	}
	return nil
}

// Server is a running target process.
type Server struct {
	Name   string
	Cmd    *exec.Cmd
	Addr   string // host:port for HTTP; empty on stdio
	Stdin  io.WriteCloser
	Stdout *bufio.Reader
	stderr *bytes.Buffer
	errw   *limitedWriter
	done   chan struct{}
}

// Spec says how to start one target.
type Spec struct {
	Name string
	Bin  string
	Args []string // before the transport flags
	Env  []string // added to the environment
	Dir  string
}

// Start starts spec pinned to the server core: over stdio when http is
// false, else on a free loopback port (--http 127.0.0.1:PORT), returning
// once the port accepts connections.
func Start(ctx context.Context, spec Spec, cores Cores, http bool) (*Server, error) {
	args := append([]string{}, spec.Args...)
	var addr string
	if http {
		port, err := freePort()
		if err != nil {
			return nil, err
		}
		addr = fmt.Sprintf("127.0.0.1:%d", port)
		args = append(args, "--http", addr)
	}
	bin := spec.Bin
	useTaskset := false
	if cores.On {
		if ts, err := exec.LookPath("taskset"); err == nil {
			args = append([]string{"-c", strconv.Itoa(cores.Server), bin}, args...)
			bin, useTaskset = ts, true
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), spec.Env...)
	cmd.Dir = spec.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	s := &Server{Name: spec.Name, Cmd: cmd, Addr: addr, stderr: &bytes.Buffer{}, done: make(chan struct{})}
	s.errw = &limitedWriter{w: s.stderr, n: 64 << 10}
	cmd.Stderr = s.errw
	if !http {
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		s.Stdin, s.Stdout = in, bufio.NewReaderSize(out, 1<<20)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Name, err)
	}
	go func() { cmd.Wait(); close(s.done) }()
	if cores.On && !useTaskset {
		// No taskset: pin the threads that exist now; the Go runtime and
		// Node start theirs early, and later ones inherit from them.
		time.Sleep(20 * time.Millisecond)
		_ = pinAll(cmd.Process.Pid, cores.Server)
	}
	if http {
		deadline := time.Now().Add(15 * time.Second)
		for {
			c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-s.done:
				return nil, fmt.Errorf("%s exited before listening: %s", spec.Name, s.Stderr())
			case <-ctx.Done():
				s.Stop()
				return nil, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				s.Stop()
				return nil, fmt.Errorf("%s did not listen on %s within 15s", spec.Name, addr)
			}
		}
	}
	if cores.On && useTaskset {
		// Go servers start more threads as load arrives; they inherit the
		// mask taskset set before exec. Check it stuck.
		var set unix.CPUSet
		if err := unix.SchedGetaffinity(cmd.Process.Pid, &set); err == nil && (set.Count() != 1 || !set.IsSet(cores.Server)) {
			_ = pinAll(cmd.Process.Pid, cores.Server)
		}
	}
	return s, nil
}

// Pid is the server's process id.
func (s *Server) Pid() int { return s.Cmd.Process.Pid }

// Stop ends the server: stdin closed (stdio servers exit on EOF), then
// SIGTERM, then SIGKILL, each given a moment.
func (s *Server) Stop() {
	if s.Stdin != nil {
		s.Stdin.Close()
	}
	select {
	case <-s.done:
		return
	case <-time.After(300 * time.Millisecond):
	}
	_ = syscall.Kill(-s.Pid(), syscall.SIGTERM)
	select {
	case <-s.done:
		return
	case <-time.After(2 * time.Second):
	}
	_ = syscall.Kill(-s.Pid(), syscall.SIGKILL)
	<-s.done
}

// Exited reports whether the process has ended.
func (s *Server) Exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Stderr returns what the server wrote on stderr (the first 64 KiB).
func (s *Server) Stderr() string {
	s.errw.mu.Lock()
	defer s.errw.mu.Unlock()
	return s.stderr.String()
}

// CPU returns the server's user+system CPU time so far, from
// /proc/<pid>/stat (all threads).
func (s *Server) CPU() (time.Duration, error) { return procCPU(s.Pid()) }

func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: state is field 3, utime 14, stime 15.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("malformed /proc/%d/stat", pid)
	}
	return time.Duration(ut+st) * time.Second / clockTick, nil
}

// PeakRSS returns the server's peak resident set size (VmHWM) in bytes.
func (s *Server) PeakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.Pid()))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024, err
			}
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", s.Pid())
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

type limitedWriter struct {
	mu sync.Mutex
	w  io.Writer
	n  int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// absPath resolves p against dir unless it is absolute.
func absPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// selfCPU is this process's user+system CPU time so far.
func selfCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// procWait returns how long the threads of pid have waited, runnable, for
// a CPU so far (the second field of /proc/PID/task/*/schedstat, summed):
// the time other processes, or its other threads, held the core.
func procWait(pid int) time.Duration {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				sum += time.Duration(ns)
			}
		}
	}
	return sum
}
