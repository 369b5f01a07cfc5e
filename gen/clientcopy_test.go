package gen_test

import (
	"strings"
	"testing"
)

// roundTripMain encodes wire.Record values with the component's type,
// decodes each into the typed client's copy, encodes the copy, and prints
// a line for each pair that differs. It is run through an overlay: a test
// of package gen that imported the wire component would make go vet
// report the component's own repeated json tag (on purpose, in the golden
// case) against ./gen.
const roundTripMain = `package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/netip"
	"os"
	"time"

	"github.com/google/uuid"

	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/want/wire/wireclient"
)

func main() {
	at := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	for _, extra := range []*wire.Extra{nil, {Note: ""}, {Note: "a note"}} {
		in := wire.Record{
			Base:  wire.Base{ID: "r1", Name: "dropped"},
			Other: wire.Other{Name: "dropped too", Kind: "k"},
			Extra: extra,
			Temp:  units.Temp(21.5), Level: units.Level(3),
			ID2: uuid.MustParse("6ba7b810-9dad-11d1-80b4-00c04fd430c8"), Big: big.NewInt(12345678901234),
			Addr: netip.MustParseAddr("192.0.2.1"), At: at, Quoted: 42, Small: -8, Huge: 1 << 60,
			Dash: "dash", List: []string{"a"}, Names: map[wire.Lang]string{"en": "hello"},
			Root: &wire.Node{Label: "root", Children: []wire.Node{{Label: "leaf"}}},
		}
		b, err := json.Marshal(in)
		if err != nil {
			fmt.Println("encode:", err)
			os.Exit(1)
		}
		var copied wireclient.Record
		if err := json.Unmarshal(b, &copied); err != nil {
			fmt.Printf("the copy does not decode %s: %v\n", b, err)
			continue
		}
		back, err := json.Marshal(copied)
		if err != nil {
			fmt.Println("encode the copy:", err)
			continue
		}
		if string(back) != string(b) {
			fmt.Printf("extra %+v: the copy encodes\n%s\nthe component's type\n%s\n", extra, back, b)
		}
	}
	// A generic type is copied generic: Page[Item] stays an instance.
	page, _ := json.Marshal(wire.Page[wire.Item]{Items: []wire.Item{{Name: "a"}}, More: true})
	var copiedPage wireclient.Page[wireclient.Item]
	if err := json.Unmarshal(page, &copiedPage); err != nil {
		fmt.Printf("the generic copy does not decode %s: %v\n", page, err)
	} else if back, _ := json.Marshal(copiedPage); string(back) != string(page) {
		fmt.Printf("the generic copy encodes\n%s\nthe component's type\n%s\n", back, page)
	}
	fmt.Println("checked")
}
`

// TestClientCopyEncodesTheSame: the typed client's copy of wire.Record,
// whose embedded structs it writes out flat (Base and Other share "name",
// which encoding/json drops; *Extra's "note" is absent while it is nil),
// decodes what the component's type encodes and encodes it back to the
// same bytes, with the embedded pointer nil and set; and the generic copy
// of wire.Page, instantiated as the component's result is, does the same.
func TestClientCopyEncodesTheSame(t *testing.T) {
	o := newOverlay(t)
	o.add("gen/testdata/golden/wire/roundtrip/main.go", []byte(roundTripMain))
	out, err := goCmd(t, "run", "-overlay", o.file(), "./gen/testdata/golden/wire/roundtrip")
	if err != nil || strings.TrimSpace(out) != "checked" {
		t.Fatalf("round trip through the client's copy: %v\n%s", err, out)
	}
}
