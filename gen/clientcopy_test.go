package gen_test

import (
	"encoding/json"
	"math/big"
	"net/netip"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/units"
	"github.com/mcpgen/mcpgen/gen/testdata/golden/wire/want/wire/wireclient"
)

// TestClientCopyEncodesTheSame: the typed client's copy of wire.Record,
// whose embedded structs it writes out flat (Base and Other share "name",
// which encoding/json drops; *Extra's "note" is absent while it is nil),
// decodes what the component's type encodes and encodes it back to the
// same bytes, with the embedded pointer nil and set.
func TestClientCopyEncodesTheSame(t *testing.T) {
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
			t.Fatal(err)
		}
		var copied wireclient.Record
		if err := json.Unmarshal(b, &copied); err != nil {
			t.Fatalf("the copy does not decode %s: %v", b, err)
		}
		back, err := json.Marshal(copied)
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != string(b) {
			t.Errorf("extra %+v: the copy encodes\n%s\nthe component's type\n%s", extra, back, b)
		}
	}
}
