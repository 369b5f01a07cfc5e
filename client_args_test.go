package mcpgen

import (
	"encoding/json"
	"testing"
	"time"
)

type argEntity struct {
	Name         string   `json:"name"`
	Observations []string `json:"observations"`
	Tags         []string `json:"tags,omitempty"`
	Raw          []byte   `json:"raw"`
	Maybe        *[]int   `json:"maybe"`
	Meta         map[string][]string
	When         time.Time `json:"when"`
}

type argBase struct {
	Items  []int `json:"items"`
	Shadow []int `json:"shadow"`
}

type argCall struct {
	argBase
	Shadow   *int         `json:"shadow"` // hides the embedded slice
	Entities []argEntity  `json:"entities"`
	Ptr      *argEntity   `json:"ptr"`
	Any      any          `json:"any"`
	Grid     [][]string   `json:"grid"`
	Next     *argCall     `json:"next"`
	Fixed    [2][]float64 `json:"fixed"`
}

// TestEmptyNilSlices: a nil slice of the arguments is sent as [], at any
// depth (fields, elements, map values, embedded structs, behind a
// pointer to a struct); null stays where it means something else: a nil
// pointer, map, []byte or interface, a pointer to a slice, a field that
// hides an embedded slice, and a type that encodes itself.
func TestEmptyNilSlices(t *testing.T) {
	v := argCall{
		Entities: []argEntity{{Name: "a", Meta: map[string][]string{"k": nil}}},
		Ptr:      &argEntity{Name: "p"},
		Grid:     [][]string{nil, {"x"}},
		Next:     &argCall{},
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got := string(emptyNilSlices(v, b))
	want := `{"items":[],"shadow":null,"entities":[{"name":"a","observations":[],"raw":null,"maybe":null,"Meta":{"k":[]},"when":"0001-01-01T00:00:00Z"}],` +
		`"ptr":{"name":"p","observations":[],"raw":null,"maybe":null,"Meta":null,"when":"0001-01-01T00:00:00Z"},"any":null,"grid":[[],["x"]],` +
		`"next":{"items":[],"shadow":null,"entities":[],"ptr":null,"any":null,"grid":[],"next":null,"fixed":[[],[]]},"fixed":[[],[]]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var back argCall
	if err := json.Unmarshal([]byte(got), &back); err != nil {
		t.Fatalf("the filled encoding does not decode: %v", err)
	}
	// Nothing to fill: the same bytes.
	m := map[string]any{"a": nil}
	mb, _ := json.Marshal(m)
	if string(emptyNilSlices(m, mb)) != `{"a":null}` {
		t.Error("a map's null value was changed")
	}
}
