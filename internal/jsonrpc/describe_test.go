package jsonrpc

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func TestDescribe(t *testing.T) {
	type entity struct {
		Name  string    `json:"name"`
		Obs   []string  `json:"observations"`
		Small int8      `json:"small"`
		Count uint      `json:"count"`
		When  time.Time `json:"when"`
	}
	type input struct {
		Entities []entity        `json:"entities"`
		Tags     map[string]int  `json:"tags"`
		Flag     bool            `json:"flag"`
		Raw      json.RawMessage `json:"raw"`
	}
	cases := []struct{ data, want string }{
		{`{"entities":[{"name":"a"},{"name":5}]}`, `/params/arguments/entities/1/name: expected string, got number 5`},
		{`{"entities":[{"observations":["x", 7]}]}`, `/params/arguments/entities/0/observations/1: expected string, got number 7`},
		{`{"entities":[{"small":300}]}`, `/params/arguments/entities/0/small: expected integer from -128 to 127, got number 300`},
		{`{"entities":[{"small":1.5}]}`, `/params/arguments/entities/0/small: expected integer from -128 to 127, got number 1.5`},
		{`{"entities":[{"count":-1}]}`, `/params/arguments/entities/0/count: expected non-negative integer, got number -1`},
		{`{"entities":{"a":1}}`, `/params/arguments/entities: expected array, got object`},
		{`{"entities":[{"name":["x"]}]}`, `/params/arguments/entities/0/name: expected string, got array`},
		{`{"tags":{"a/b~c":"x"}}`, `/params/arguments/tags/a~1b~0c: expected integer, got string "x"`},
		{`{"flag":"yes"}`, `/params/arguments/flag: expected boolean, got string "yes"`},
		{`{"entities":[{"when":12}]}`, `/params/arguments: input is not a JSON string`},
		{`{"entities":[{"when":"yesterday"}]}`, `/params/arguments: expected an RFC 3339 date-time, got "yesterday"`},
		{`[1]`, `/params/arguments: expected object, got array`},
		{`{"flag":"` + string(make([]byte, 0)) + `0123456789012345678901234567890123456789xyz"}`, `/params/arguments/flag: expected boolean, got string "0123456789012345678901234567890123456789…"`},
	}
	for _, c := range cases {
		var in input
		err := json.Unmarshal([]byte(c.data), &in)
		if err == nil {
			t.Fatalf("%s: no error", c.data)
		}
		if got := Describe([]byte(c.data), "/params/arguments", err); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.data, got, c.want)
		}
	}
}

func TestDecodeErrorKeepsCodedErrors(t *testing.T) {
	coded := Errorf(CodeInvalidParams, "/params/_meta: expected object, got string")
	if err := DecodeError(ErrInvalidParams, nil, "/params", coded); err != error(coded) {
		t.Fatalf("coded error rewritten: %v", err)
	}
	var in struct{ N int }
	raw := []byte(`{"N":"x"}`)
	err := DecodeError(ErrInvalidParams, raw, "/params", json.Unmarshal(raw, &in))
	if !errors.Is(err, ErrInvalidParams) || Wire(err).Message != `invalid params: /params/N: expected integer, got string "x"` {
		t.Fatalf("got %v", Wire(err))
	}
}

func TestDecodeEnvelopeErrors(t *testing.T) {
	for data, want := range map[string]string{
		`5`:                                   `invalid request: the message: expected object, got number 5`,
		`"x"`:                                 `invalid request: the message: expected object, got string "x"`,
		`{"jsonrpc":"2.0",`:                   `parse error: invalid JSON at byte 17: unexpected end of JSON input`,
		`{"jsonrpc":"2.0","id":1,"method":7}`: `invalid request: /method: expected string, got number 7`,
	} {
		_, err := Decode([]byte(data))
		if err == nil || Wire(err).Message != want {
			t.Errorf("%s: got %v, want %s", data, err, want)
		}
	}
}
