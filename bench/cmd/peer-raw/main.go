// Command peer-raw answers the benchmark requests with net/http (or a plain
// line loop on stdio) and encoding/json and nothing else: no MCP library, no
// schema validation beyond hand-written checks of the required fields, no
// sessions (initialize hands out a fixed session id that is never checked).
// It is the practical limit the MCP servers are measured against.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/mcpgen/mcpgen/bench/internal/tools"
)

func main() {
	addr := flag.String("http", "", "serve HTTP on `ADDR` instead of stdio")
	path := flag.String("path", "/mcp", "HTTP `path` of the endpoint")
	flag.Parse()
	if *addr == "" {
		if err := serveStdio(os.Stdin, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc(*path, serveHTTP)
	log.Fatal(http.ListenAndServe(*addr, mux))
}

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callResult struct {
	ResultType        string         `json:"resultType,omitempty"`
	Content           []text         `json:"content"`
	StructuredContent *tools.Counts  `json:"structuredContent,omitempty"`
	IsError           bool           `json:"isError,omitempty"`
	Meta              map[string]any `json:"_meta,omitempty"`
}

// discover is the answer to server/discover (2026-07-28), which the
// clients of the client benchmark send before anything else.
var discover = json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{}},` +
	`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench","version":"0.1.0"}}}`)

// The tools/list results, built once from the same tool definitions
// mcp-bench lists (tools.ListJSON), so that both send the same bytes.
var listLegacy, listModern json.RawMessage

func init() {
	listLegacy = json.RawMessage(`{"tools":` + tools.ListJSON + `}`)
	listModern = json.RawMessage(`{"resultType":"complete","tools":` + tools.ListJSON + `,"ttlMs":300000,"cacheScope":"public"}`)
}

// handle answers one message; nil for notifications.
func handle(body []byte) *response {
	var req request
	if err := json.Unmarshal(body, &req); err != nil {
		return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32700, "parse error"}}
	}
	if len(req.ID) == 0 {
		return nil
	}
	modern := req.Params.Meta.Version != ""
	resp := &response{JSONRPC: "2.0", ID: req.ID}
	switch req.Method {
	case "initialize":
		resp.Result = map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "bench", "version": "0.1.0"}}
	case "server/discover":
		resp.Result = discover
	case "tools/list":
		if modern {
			resp.Result = listModern
		} else {
			resp.Result = listLegacy
		}
	case "tools/call":
		res, err := call(req.Params.Name, req.Params.Arguments)
		if err != nil {
			resp.Error = err
			break
		}
		if modern {
			res.ResultType = "complete"
		}
		resp.Result = res
	default:
		resp.Error = &rpcError{-32601, "method not found"}
	}
	return resp
}

func call(name string, args json.RawMessage) (*callResult, *rpcError) {
	switch name {
	case "echo":
		var in struct {
			Message *string `json:"message"`
		}
		if json.Unmarshal(args, &in) != nil || in.Message == nil {
			return invalid("message is required"), nil
		}
		return &callResult{Content: []text{{"text", *in.Message}}}, nil
	case "ingest":
		var in struct {
			Entities []struct {
				Name         *string  `json:"name"`
				EntityType   *string  `json:"entityType"`
				Observations []string `json:"observations"`
			} `json:"entities"`
		}
		if json.Unmarshal(args, &in) != nil || len(in.Entities) == 0 {
			return invalid("entities: at least one entity is required"), nil
		}
		c := tools.Counts{Count: len(in.Entities)}
		for _, e := range in.Entities {
			if e.Name == nil || e.EntityType == nil || e.Observations == nil {
				return invalid("entities: name, entityType and observations are required"), nil
			}
			c.Observations += len(e.Observations)
		}
		b, _ := json.Marshal(c)
		return &callResult{Content: []text{{"text", string(b)}}, StructuredContent: &c}, nil
	}
	if len(name) == 7 && name[:5] == "noop_" {
		return &callResult{Content: []text{{"text", ""}}}, nil
	}
	return nil, &rpcError{-32602, "unknown tool"}
}

func invalid(msg string) *callResult {
	return &callResult{Content: []text{{"text", msg}}, IsError: true}
}

func serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	resp := handle(body)
	if resp == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	out, _ := json.Marshal(resp)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if resp.Result != nil && bytes.Contains(body, []byte(`"initialize"`)) {
		h.Set("Mcp-Session-Id", "raw")
	}
	w.Write(out)
}

func serveStdio(r io.Reader, w io.Writer) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 32<<20)
	out := bufio.NewWriter(w)
	for sc.Scan() {
		resp := handle(sc.Bytes())
		if resp == nil {
			continue
		}
		b, _ := json.Marshal(resp)
		out.Write(b)
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}
