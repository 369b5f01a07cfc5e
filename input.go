package mcpgen

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/internal/jsonrpc"
)

// requestStateTTL bounds how long a client may take to answer.
const requestStateTTL = 10 * time.Minute

type requestState struct {
	Method    string                     `json:"m"`
	Target    string                     `json:"t"`
	Digest    string                     `json:"d"`
	Subject   string                     `json:"s,omitempty"`
	Expires   int64                      `json:"e"`
	Responses map[string]json.RawMessage `json:"r,omitempty"`
}

func stateTarget(p *params) (target, digest string) {
	sum := sha256.Sum256(p.Arguments)
	if p.URI != "" {
		return p.URI, ""
	}
	return p.Name, hex.EncodeToString(sum[:8])
}

// restoreInput gathers the client's answers for a retried request: those of
// earlier rounds from the verified requestState, then this round's.
func (r *Request) restoreInput(s *Server, p *params) error {
	if !r.Modern() || (p.RequestState == "" && len(p.InputResponses) == 0) {
		return nil
	}
	merged := map[string]json.RawMessage{}
	if p.RequestState != "" {
		payload, ok := s.signer.open(p.RequestState)
		var st requestState
		if !ok || json.Unmarshal([]byte(payload), &st) != nil {
			return fmt.Errorf("%w: requestState was not issued by this server or was altered", jsonrpc.ErrInvalidParams)
		}
		target, digest := stateTarget(p)
		switch {
		case st.Method != r.Method || st.Target != target || st.Digest != digest:
			return fmt.Errorf("%w: requestState belongs to another request", jsonrpc.ErrInvalidParams)
		case st.Subject != r.Auth.ID():
			return fmt.Errorf("%w: requestState belongs to another caller", jsonrpc.ErrInvalidParams)
		case time.Now().Unix() > st.Expires:
			return fmt.Errorf("%w: requestState has expired; send the request again without it", jsonrpc.ErrInvalidParams)
		}
		for k, v := range st.Responses {
			merged[k] = v
		}
		r.requestState = p.RequestState
	}
	for k, v := range p.InputResponses {
		if len(v) == 0 || v[0] != '{' {
			return fmt.Errorf("%w: inputResponses[%q] must be an object", jsonrpc.ErrInvalidParams, k)
		}
		merged[k] = v
	}
	r.inputResponses = merged
	return nil
}

// inputRequiredResult is the 2026-07-28 answer asking the client for input.
type inputRequiredResult struct {
	ResultType    string                  `json:"resultType"`
	InputRequests map[string]InputRequest `json:"inputRequests,omitempty"`
	RequestState  string                  `json:"requestState,omitempty"`
}

// inputRequired turns a handler's error into the right answer: an
// input_required result when it asked for input, the era's not-found error
// for ErrResourceNotFound, and the error itself otherwise.
func (s *Server) inputRequired(req *Request, p *params, err error) (any, error) {
	if errors.Is(err, ErrResourceNotFound) {
		return nil, resourceNotFound(req, p.URI)
	}
	var ir *InputRequiredError
	if !errors.As(err, &ir) {
		return nil, err
	}
	if !req.Modern() {
		return nil, fmt.Errorf("%w: handler asked for input outside a stateless request", jsonrpc.ErrInternal)
	}
	if err := req.checkClientCaps(ir); err != nil {
		return nil, err
	}
	target, digest := stateTarget(p)
	st := requestState{
		Method: req.Method, Target: target, Digest: digest, Subject: req.Auth.ID(),
		Expires: time.Now().Add(requestStateTTL).Unix(), Responses: req.inputResponses,
	}
	payload, _ := json.Marshal(st)
	return inputRequiredResult{
		ResultType:    resultInputRequired,
		InputRequests: ir.Requests,
		RequestState:  s.signer.seal(string(payload)),
	}, nil
}

// checkClientCaps refuses to ask the client for what it did not declare on
// this request (2026-07-28) or in initialize (legacy): -32021 naming the
// capability. Elicitation is checked per mode: an elicitation object
// without form or url means form only.
func (r *Request) checkClientCaps(ir *InputRequiredError) error {
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(r.ClientCaps, &caps)
	for _, key := range sortedKeys(ir.Requests) {
		q := ir.Requests[key]
		var need string
		switch q.Method {
		case "elicitation/create":
			need = "elicitation"
		case "sampling/createMessage":
			need = "sampling"
		case "roots/list":
			need = "roots"
		default:
			continue
		}
		have, ok := caps[need]
		if !ok {
			return missingClientCapability(need, map[string]any{need: map[string]any{}})
		}
		if need == "elicitation" {
			var modes map[string]json.RawMessage
			_ = json.Unmarshal(have, &modes)
			_, form := modes["form"]
			_, url := modes["url"]
			mode := elicitMode(q.Params)
			switch {
			case mode == "url" && !url:
				return missingClientCapability("elicitation.url", map[string]any{"elicitation": map[string]any{"url": map[string]any{}}})
			case mode != "url" && !form && url:
				return missingClientCapability("elicitation.form", map[string]any{"elicitation": map[string]any{"form": map[string]any{}}})
			}
		}
	}
	return nil
}

func missingClientCapability(name string, required map[string]any) error {
	return (&jsonrpc.Error{Code: -32021, Message: fmt.Sprintf("this request needs the client capability %q", name)}).
		WithData(map[string]any{"requiredCapabilities": required})
}

// elicitMode returns the mode of elicitation/create params ("form" when
// absent).
func elicitMode(params any) string {
	var p struct {
		Mode string `json:"mode"`
	}
	b, _ := json.Marshal(params)
	_ = json.Unmarshal(b, &p)
	if p.Mode == "" {
		return "form"
	}
	return p.Mode
}
