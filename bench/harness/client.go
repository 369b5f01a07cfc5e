package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen"
	"github.com/mcpgen/mcpgen/bench/internal/tools"
	"github.com/mcpgen/mcpgen/generated/bench/benchclient"
)

// This file is the client benchmark: what one tools/call costs the client,
// in CPU and allocations, with our client (dynamic, and through the typed
// client generated for the bench server), the go-sdk's and mcp-go's, each
// against the same server, the raw JSON-RPC limit (peer-raw), so that the
// server's share is as small as it gets and the same for every client.
// The clients run in this process (pinned to the load generator's core),
// one call at a time; the server is another process (on the server's
// core), so this process's CPU time and allocations are the client's.

// Client names in the client table.
const (
	ClientMcpgen      = "mcpgen"
	ClientMcpgenTyped = "mcpgen typed"
	ClientGoSDK       = "go-sdk"
	ClientMcpGo       = "mcp-go"
)

// Clients are the clients measured, in report order.
var Clients = []string{ClientMcpgen, ClientMcpgenTyped, ClientGoSDK, ClientMcpGo}

// ClientMode is a transport and a protocol revision.
type ClientMode struct {
	Name    string
	HTTP    bool
	Version string
}

// ClientModes are the client benchmark's modes, in report order.
var ClientModes = []ClientMode{
	{"modern-http", true, modernVersion},
	{"legacy-http", true, legacyVersion},
	{"modern-stdio", false, modernVersion},
	{"legacy-stdio", false, legacyVersion},
}

// ClientWorkloads are the client benchmark's workloads: echo (a short text
// back) and ingest (~6 KB of arguments, a structured result).
var ClientWorkloads = []Workload{Echo, Ingest}

// ClientConfig is the client benchmark.
type ClientConfig struct {
	Raw       string // the peer-raw binary
	Clients   []string
	Modes     []ClientMode
	Workloads []Workload
	Rounds    int
	Cell      CellConfig
	Cores     Cores
	Log       io.Writer
}

// ClientKey names one cell.
type ClientKey struct {
	Client   string
	Mode     string
	Workload Workload
}

// ClientCell is one measured cell: calls made in the window, and what
// they cost this process.
type ClientCell struct {
	Round    int
	Calls    int
	Wall     time.Duration
	CPU      time.Duration
	Bytes    uint64
	Allocs   uint64
	Failures int
	FirstErr string
}

// PerCall returns the cell's cost per call: wall time, CPU time, bytes and
// allocations.
func (c ClientCell) PerCall() (wall, cpu time.Duration, bytes, allocs float64) {
	if c.Calls == 0 {
		return 0, 0, 0, 0
	}
	n := float64(c.Calls)
	return time.Duration(float64(c.Wall) / n), time.Duration(float64(c.CPU) / n), float64(c.Bytes) / n, float64(c.Allocs) / n
}

// ClientResult holds every round of every cell.
type ClientResult struct {
	Config ClientConfig
	Cells  map[ClientKey][]ClientCell
	Errors []string
}

// Failures counts wrong answers and cells that could not run.
func (r *ClientResult) Failures() int {
	n := len(r.Errors)
	for _, cs := range r.Cells {
		for _, c := range cs {
			n += c.Failures
		}
	}
	return n
}

// RunClients runs the client benchmark: in each round, for each mode and
// workload, every client back to back (in an order rotated by round), each
// connecting afresh. Over HTTP one peer-raw serves every client of the
// round; over stdio each client starts its own, as stdio clients do, and
// the child is moved to the server's core.
func RunClients(ctx context.Context, cfg ClientConfig) *ClientResult {
	res := &ClientResult{Config: cfg, Cells: map[ClientKey][]ClientCell{}}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	for round := 0; round < cfg.Rounds && ctx.Err() == nil; round++ {
		order := slices.Clone(cfg.Clients)
		for i := 0; i < round%max(1, len(order)); i++ {
			order = append(order[1:], order[0])
		}
		start := time.Now()
		var srv *Server
		for _, m := range cfg.Modes {
			url := ""
			if m.HTTP {
				if srv == nil {
					var err error
					srv, err = Start(ctx, Spec{Name: "peer-raw", Bin: cfg.Raw}, cfg.Cores, true)
					if err != nil {
						res.Errors = append(res.Errors, fmt.Sprintf("client round %d: start peer-raw: %v", round+1, err))
						logf("ERROR %s", res.Errors[len(res.Errors)-1])
						return res
					}
				}
				url = "http://" + srv.Addr + "/mcp"
			}
			for _, w := range cfg.Workloads {
				for _, name := range order {
					cell, err := clientCell(ctx, cfg, name, m, url, w)
					if err != nil {
						msg := fmt.Sprintf("client round %d, %s, %s, %s: %v", round+1, name, m.Name, w, err)
						res.Errors = append(res.Errors, msg)
						logf("ERROR %s", msg)
						continue
					}
					cell.Round = round
					k := ClientKey{name, m.Name, w}
					res.Cells[k] = append(res.Cells[k], cell)
					if cell.Failures > 0 {
						logf("FAIL client %s %s %s: %d wrong answers; first: %s", name, m.Name, w, cell.Failures, cell.FirstErr)
					}
				}
			}
		}
		if srv != nil {
			srv.Stop()
		}
		logf("client round %d/%d %5.1fs", round+1, cfg.Rounds, time.Since(start).Seconds())
	}
	return res
}

// clientCell connects one client, warms it up, and measures its calls.
func clientCell(ctx context.Context, cfg ClientConfig, name string, m ClientMode, url string, w Workload) (ClientCell, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	call, closeFn, err := ConnectClient(cctx, name, m, url, cfg.Raw, w)
	if err != nil {
		return ClientCell{}, err
	}
	defer closeFn()
	if !m.HTTP {
		pinChildren(cfg.Cores)
	}
	var cell ClientCell
	fail := func(err error) {
		cell.Failures++
		if cell.FirstErr == "" {
			cell.FirstErr = err.Error()
		}
	}
	for end := time.Now().Add(cfg.Cell.Warmup); time.Now().Before(end) || cell.Calls == 0; cell.Calls++ {
		if err := call(cctx); err != nil {
			fail(err)
			return cell, nil // a client that fails is not timed
		}
	}
	cell.Calls = 0
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0, t0 := selfCPU(), time.Now()
	end := t0.Add(cfg.Cell.Window)
	for cell.Calls < max(1, cfg.Cell.MaxCalls) && (cell.Calls == 0 || time.Now().Before(end)) {
		if err := call(cctx); err != nil {
			fail(err)
			if cell.Failures > 10 {
				break
			}
		}
		cell.Calls++
	}
	cell.Wall, cell.CPU = time.Since(t0), selfCPU()-cpu0
	runtime.ReadMemStats(&m1)
	cell.Bytes, cell.Allocs = m1.TotalAlloc-m0.TotalAlloc, m1.Mallocs-m0.Mallocs
	return cell, nil
}

// pinChildren moves this process's children (the stdio servers the
// clients started) to the server's core.
func pinChildren(cores Cores) {
	if !cores.On {
		return
	}
	self := os.Getpid()
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so from the last ')'.
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(self) {
			_ = pinAll(pid, cores.Server)
		}
	}
}

// clientArgs are the arguments of each workload's call, as a Go value (each
// client encodes it itself).
func clientArgs() (echo tools.EchoIn, ingest tools.IngestIn) {
	echo = tools.EchoIn{Message: echoClientMessage}
	_ = json.Unmarshal([]byte(ingestArgs), &ingest)
	return echo, ingest
}

// echoClientMessage is what every echo call of the client benchmark sends.
const echoClientMessage = "hello from the client benchmark"

// checkCounts checks an ingest result's counts, however a client decoded
// them.
func checkCounts(count, observations int) error {
	if count != wantIngest.Count || observations != wantIngest.Observations {
		return fmt.Errorf("ingest: got %d entities, %d observations; want %d, %d", count, observations, wantIngest.Count, wantIngest.Observations)
	}
	return nil
}

// connectClient connects client name in mode m (to url over HTTP; else
// starting raw over stdio) and returns a function that makes one call of
// workload w and checks its answer, and one that closes the connection.
func ConnectClient(ctx context.Context, name string, m ClientMode, url, raw string, w Workload) (func(context.Context) error, func(), error) {
	echo, ingest := clientArgs()
	switch name {
	case ClientMcpgen, ClientMcpgenTyped:
		t := mcpgen.CommandTransport(raw)
		if m.HTTP {
			t = mcpgen.HTTPTransport(url)
		}
		c, err := mcpgen.Connect(ctx, t, mcpgen.ClientOptions{ProtocolVersion: m.Version})
		if err != nil {
			return nil, nil, fmt.Errorf("connect: %w", err)
		}
		if got := c.ProtocolVersion(); got != m.Version {
			c.Close()
			return nil, nil, fmt.Errorf("speaks %s, want %s", got, m.Version)
		}
		closeFn := func() { _ = c.Close() }
		if name == ClientMcpgenTyped {
			tc := benchclient.New(c)
			techo := benchclient.Echo{Message: echo.Message}
			var tingest benchclient.Ingest
			_ = json.Unmarshal([]byte(ingestArgs), &tingest)
			if w == Echo {
				return func(ctx context.Context) error {
					got, err := tc.Echo(ctx, techo)
					if err == nil && got != echoClientMessage {
						err = fmt.Errorf("echo: got %q", got)
					}
					return err
				}, closeFn, nil
			}
			return func(ctx context.Context) error {
				got, err := tc.Ingest(ctx, tingest)
				if err != nil {
					return err
				}
				return checkCounts(got.Count, got.Observations)
			}, closeFn, nil
		}
		if w == Echo {
			return func(ctx context.Context) error {
				res, err := c.CallTool(ctx, "echo", echo)
				if err != nil {
					return err
				}
				if len(res.Content) != 1 || res.Content[0].Text != echoClientMessage {
					return fmt.Errorf("echo: got %+v", res.Content)
				}
				return nil
			}, closeFn, nil
		}
		return func(ctx context.Context) error {
			res, err := c.CallTool(ctx, "ingest", ingest)
			if err != nil {
				return err
			}
			var got tools.Counts
			if err := json.Unmarshal(res.StructuredContent, &got); err != nil {
				return fmt.Errorf("ingest: structuredContent %s: %w", snippet(res.StructuredContent), err)
			}
			return checkCounts(got.Count, got.Observations)
		}, closeFn, nil

	case ClientGoSDK:
		var t mcp.Transport = &mcp.CommandTransport{Command: exec.Command(raw)}
		if m.HTTP {
			t = &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "0.1.0"}, nil)
		cs, err := client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: m.Version})
		if err != nil {
			return nil, nil, fmt.Errorf("connect: %w", err)
		}
		if got := cs.InitializeResult().ProtocolVersion; got != m.Version {
			cs.Close()
			return nil, nil, fmt.Errorf("speaks %s, want %s", got, m.Version)
		}
		closeFn := func() { _ = cs.Close() }
		if w == Echo {
			params := &mcp.CallToolParams{Name: "echo", Arguments: echo}
			return func(ctx context.Context) error {
				res, err := cs.CallTool(ctx, params)
				if err != nil {
					return err
				}
				if len(res.Content) != 1 || res.IsError {
					return fmt.Errorf("echo: %d blocks, isError %v", len(res.Content), res.IsError)
				}
				if tc, ok := res.Content[0].(*mcp.TextContent); !ok || tc.Text != echoClientMessage {
					return fmt.Errorf("echo: got %#v", res.Content[0])
				}
				return nil
			}, closeFn, nil
		}
		params := &mcp.CallToolParams{Name: "ingest", Arguments: ingest}
		return func(ctx context.Context) error {
			res, err := cs.CallTool(ctx, params)
			if err != nil {
				return err
			}
			return checkAnyCounts(res.StructuredContent, res.IsError)
		}, closeFn, nil

	case ClientMcpGo:
		var c *mcpgoclient.Client
		var err error
		if m.HTTP {
			c, err = mcpgoclient.NewStreamableHttpClient(url)
			if err == nil {
				err = c.Start(ctx)
			}
		} else {
			c, err = mcpgoclient.NewStdioMCPClient(raw, nil)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("connect: %w", err)
		}
		init := mcpgo.InitializeRequest{}
		init.Params.ProtocolVersion = m.Version
		init.Params.ClientInfo = mcpgo.Implementation{Name: "mcpbench", Version: "0.1.0"}
		ir, err := c.Initialize(ctx, init)
		if err != nil {
			c.Close()
			return nil, nil, fmt.Errorf("initialize: %w", err)
		}
		if ir.ProtocolVersion != m.Version {
			c.Close()
			return nil, nil, fmt.Errorf("speaks %s, want %s", ir.ProtocolVersion, m.Version)
		}
		closeFn := func() { _ = c.Close() }
		req := mcpgo.CallToolRequest{}
		if w == Echo {
			req.Params.Name, req.Params.Arguments = "echo", echo
			return func(ctx context.Context) error {
				res, err := c.CallTool(ctx, req)
				if err != nil {
					return err
				}
				if len(res.Content) != 1 || res.IsError {
					return fmt.Errorf("echo: %d blocks, isError %v", len(res.Content), res.IsError)
				}
				if tc, ok := res.Content[0].(mcpgo.TextContent); !ok || tc.Text != echoClientMessage {
					return fmt.Errorf("echo: got %#v", res.Content[0])
				}
				return nil
			}, closeFn, nil
		}
		req.Params.Name, req.Params.Arguments = "ingest", ingest
		return func(ctx context.Context) error {
			res, err := c.CallTool(ctx, req)
			if err != nil {
				return err
			}
			return checkAnyCounts(res.StructuredContent, res.IsError)
		}, closeFn, nil
	}
	return nil, nil, fmt.Errorf("unknown client %q", name)
}

// checkAnyCounts checks ingest's structuredContent as the SDKs decode it:
// a map with JSON numbers as float64.
func checkAnyCounts(sc any, isError bool) error {
	m, ok := sc.(map[string]any)
	if isError || !ok || len(m) != 2 {
		return fmt.Errorf("ingest: structuredContent %#v, isError %v", sc, isError)
	}
	count, ok1 := m["count"].(float64)
	obs, ok2 := m["observations"].(float64)
	if !ok1 || !ok2 {
		return fmt.Errorf("ingest: structuredContent %#v", sc)
	}
	return checkCounts(int(count), int(obs))
}

// ClientSummary is the median over rounds of one cell.
type ClientSummary struct {
	Wall, CPU     time.Duration
	Bytes, Allocs float64
	Failures      int
}

// Summarize takes the medians over rounds.
func (r *ClientResult) Summarize(k ClientKey) (ClientSummary, bool) {
	var wall, cpu, bytes, allocs []float64
	var s ClientSummary
	for _, c := range r.Cells[k] {
		s.Failures += c.Failures
		if c.Calls == 0 {
			continue
		}
		w, cp, b, a := c.PerCall()
		wall, cpu, bytes, allocs = append(wall, float64(w)), append(cpu, float64(cp)), append(bytes, b), append(allocs, a)
	}
	if len(cpu) == 0 {
		return s, len(r.Cells[k]) > 0
	}
	s.Wall, s.CPU = time.Duration(median(wall)), time.Duration(median(cpu))
	s.Bytes, s.Allocs = median(bytes), median(allocs)
	return s, true
}

// Ratio is the median over rounds of num's CPU per call divided by den's
// in the same round.
func (r *ClientResult) Ratio(num, den ClientKey) (float64, bool) {
	per := map[int]time.Duration{}
	for _, c := range r.Cells[den] {
		if _, cpu, _, _ := c.PerCall(); cpu > 0 {
			per[c.Round] = cpu
		}
	}
	var ratios []float64
	for _, c := range r.Cells[num] {
		if _, cpu, _, _ := c.PerCall(); cpu > 0 && per[c.Round] > 0 {
			ratios = append(ratios, float64(cpu)/float64(per[c.Round]))
		}
	}
	if len(ratios) == 0 {
		return 0, false
	}
	return median(ratios), true
}

// Goals of the client table: our client's CPU per call at most half the
// go-sdk client's and at most mcp-go's.
const (
	goalClientVsGoSDK = 0.5
	goalClientVsMcpGo = 1.0
)

// Markdown renders the client section.
func (r *ClientResult) Markdown() string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("## Client CPU per call\n\n")
	p("One tools/call at a time from each client to the raw JSON-RPC server (peer-raw, on the servers' core), for %s, then %s measured, at most %d calls; median over %d rounds. ",
		r.Config.Cell.Warmup, r.Config.Cell.Window, r.Config.Cell.MaxCalls, r.Config.Rounds)
	p("The clients run in the load generator's process, one after another in an order rotated by round, each connecting afresh (over stdio each starts its own server, moved to the servers' core); *CPU/call* is that process's user+system CPU time per call (getrusage), *B/call* and *allocs/call* its Go heap allocations per call (runtime.MemStats): the client's alone. ")
	p("*mcpgen typed* is the same client through the typed client generated for the bench server (benchclient: arguments as Go structs, the result decoded into Counts or a string). Every answer is checked. Goals: mcpgen's CPU per call at most %.1fx go-sdk's and at most %.0fx mcp-go's (ratios are medians of per-round ratios).\n\n", goalClientVsGoSDK, goalClientVsMcpGo)
	p("| mode | workload |")
	for _, c := range r.Config.Clients {
		p(" %s |", c)
	}
	p(" mcpgen / go-sdk (goal ≤ %.1f) | mcpgen / mcp-go (goal ≤ %.0f) |\n|---|---|", goalClientVsGoSDK, goalClientVsMcpGo)
	for range r.Config.Clients {
		p("---:|")
	}
	p("---:|---:|\n")
	for _, m := range r.Config.Modes {
		for _, w := range r.Config.Workloads {
			p("| %s | %s |", m.Name, w)
			for _, c := range r.Config.Clients {
				s, ok := r.Summarize(ClientKey{c, m.Name, w})
				if !ok || s.CPU == 0 {
					p(" – |")
					continue
				}
				p(" %s, %s B, %.0f allocs |", fmtDur(s.CPU), compactBytes(s.Bytes), s.Allocs)
			}
			for _, peer := range []struct {
				name string
				goal float64
			}{{ClientGoSDK, goalClientVsGoSDK}, {ClientMcpGo, goalClientVsMcpGo}} {
				x, ok := r.Ratio(ClientKey{ClientMcpgen, m.Name, w}, ClientKey{peer.name, m.Name, w})
				if !ok {
					p(" – |")
					continue
				}
				p(" %.2f %s |", x, mark(x <= peer.goal))
			}
			p("\n")
		}
	}
	p("\nEach cell: CPU per call, bytes and allocations per call. Wall time per call (µs), for the record:\n\n| mode | workload |")
	for _, c := range r.Config.Clients {
		p(" %s |", c)
	}
	p("\n|---|---|")
	for range r.Config.Clients {
		p("---:|")
	}
	p("\n")
	for _, m := range r.Config.Modes {
		for _, w := range r.Config.Workloads {
			p("| %s | %s |", m.Name, w)
			for _, c := range r.Config.Clients {
				s, _ := r.Summarize(ClientKey{c, m.Name, w})
				p(" %s |", fmtDur(s.Wall))
			}
			p("\n")
		}
	}
	p("\n![Client CPU per call](client-cpu-per-call.png)\n\n")
	return b.String()
}

// compactBytes renders a byte count as 812, 16.4k or 1.2M.
func compactBytes(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
