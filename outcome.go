package mcpgen

import (
	"errors"
	"time"
)

// outcome is how the core answered a message, in no transport's terms:
// besides the JSON-RPC answer, whether and why the request was refused.
// Each transport renders it its own way: HTTP as a status and headers
// (httpStatus), stdio by the answer alone.
type outcome struct {
	refusal refusal
	// scope is the scope to ask for, with refusedScope.
	scope string
	// retryAfter is when the client may try again, with refusedLimit and
	// refusedUnavailable (whole seconds).
	retryAfter time.Duration
}

// refusal is why the core refused a message, if it did.
type refusal uint8

const (
	answered             refusal = iota // served, successfully or with an error of the call
	refusedBadRequest                   // a stateless request whose envelope or headers are wrong
	refusedUnknownMethod                // a stateless request for a method this server does not serve
	refusedScope                        // the caller lacks the scope a component declares
	refusedLimit                        // over a limit of [Limits]
	refusedUnavailable                  // a service the request needs cannot be reached
)

// refusedError is an error that says how the request it answers was
// refused, from wherever in the core the refusal is decided up to
// Server.respond, which takes the outcome from it.
type refusedError struct {
	err error
	outcome
}

func (e *refusedError) Error() string { return e.err.Error() }
func (e *refusedError) Unwrap() error { return e.err }

// refuse wraps err, the answer to a request, with the outcome o.
func refuse(err error, o outcome) error { return &refusedError{err: err, outcome: o} }

// outcomeOf is the outcome an error answering a request carries; the
// zero outcome for nil, at no cost (most requests succeed).
func outcomeOf(err error) outcome {
	if err == nil {
		return outcome{}
	}
	var re *refusedError
	if errors.As(err, &re) {
		return re.outcome
	}
	return outcome{}
}
