package bench

import "context"

// Do nothing (filler tool 01 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_01 readonly
type Noop01 struct{}

// Call does nothing.
func (Noop01) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 02 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_02 readonly
type Noop02 struct{}

// Call does nothing.
func (Noop02) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 03 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_03 readonly
type Noop03 struct{}

// Call does nothing.
func (Noop03) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 04 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_04 readonly
type Noop04 struct{}

// Call does nothing.
func (Noop04) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 05 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_05 readonly
type Noop05 struct{}

// Call does nothing.
func (Noop05) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 06 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_06 readonly
type Noop06 struct{}

// Call does nothing.
func (Noop06) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 07 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_07 readonly
type Noop07 struct{}

// Call does nothing.
func (Noop07) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 08 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_08 readonly
type Noop08 struct{}

// Call does nothing.
func (Noop08) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 09 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_09 readonly
type Noop09 struct{}

// Call does nothing.
func (Noop09) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 10 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_10 readonly
type Noop10 struct{}

// Call does nothing.
func (Noop10) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 11 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_11 readonly
type Noop11 struct{}

// Call does nothing.
func (Noop11) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 12 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_12 readonly
type Noop12 struct{}

// Call does nothing.
func (Noop12) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 13 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_13 readonly
type Noop13 struct{}

// Call does nothing.
func (Noop13) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 14 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_14 readonly
type Noop14 struct{}

// Call does nothing.
func (Noop14) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 15 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_15 readonly
type Noop15 struct{}

// Call does nothing.
func (Noop15) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 16 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_16 readonly
type Noop16 struct{}

// Call does nothing.
func (Noop16) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 17 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_17 readonly
type Noop17 struct{}

// Call does nothing.
func (Noop17) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 18 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_18 readonly
type Noop18 struct{}

// Call does nothing.
func (Noop18) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 19 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_19 readonly
type Noop19 struct{}

// Call does nothing.
func (Noop19) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 20 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_20 readonly
type Noop20 struct{}

// Call does nothing.
func (Noop20) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 21 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_21 readonly
type Noop21 struct{}

// Call does nothing.
func (Noop21) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 22 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_22 readonly
type Noop22 struct{}

// Call does nothing.
func (Noop22) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 23 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_23 readonly
type Noop23 struct{}

// Call does nothing.
func (Noop23) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 24 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_24 readonly
type Noop24 struct{}

// Call does nothing.
func (Noop24) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 25 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_25 readonly
type Noop25 struct{}

// Call does nothing.
func (Noop25) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 26 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_26 readonly
type Noop26 struct{}

// Call does nothing.
func (Noop26) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 27 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_27 readonly
type Noop27 struct{}

// Call does nothing.
func (Noop27) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 28 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_28 readonly
type Noop28 struct{}

// Call does nothing.
func (Noop28) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 29 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_29 readonly
type Noop29 struct{}

// Call does nothing.
func (Noop29) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 30 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_30 readonly
type Noop30 struct{}

// Call does nothing.
func (Noop30) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 31 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_31 readonly
type Noop31 struct{}

// Call does nothing.
func (Noop31) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 32 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_32 readonly
type Noop32 struct{}

// Call does nothing.
func (Noop32) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 33 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_33 readonly
type Noop33 struct{}

// Call does nothing.
func (Noop33) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 34 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_34 readonly
type Noop34 struct{}

// Call does nothing.
func (Noop34) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 35 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_35 readonly
type Noop35 struct{}

// Call does nothing.
func (Noop35) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 36 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_36 readonly
type Noop36 struct{}

// Call does nothing.
func (Noop36) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 37 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_37 readonly
type Noop37 struct{}

// Call does nothing.
func (Noop37) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 38 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_38 readonly
type Noop38 struct{}

// Call does nothing.
func (Noop38) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 39 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_39 readonly
type Noop39 struct{}

// Call does nothing.
func (Noop39) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 40 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_40 readonly
type Noop40 struct{}

// Call does nothing.
func (Noop40) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 41 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_41 readonly
type Noop41 struct{}

// Call does nothing.
func (Noop41) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 42 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_42 readonly
type Noop42 struct{}

// Call does nothing.
func (Noop42) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 43 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_43 readonly
type Noop43 struct{}

// Call does nothing.
func (Noop43) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 44 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_44 readonly
type Noop44 struct{}

// Call does nothing.
func (Noop44) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 45 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_45 readonly
type Noop45 struct{}

// Call does nothing.
func (Noop45) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 46 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_46 readonly
type Noop46 struct{}

// Call does nothing.
func (Noop46) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 47 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_47 readonly
type Noop47 struct{}

// Call does nothing.
func (Noop47) Call(context.Context) (string, error) { return "", nil }

// Do nothing (filler tool 48 of 48, so that tools/list has 50 tools).
//
//mcp:tool name=noop_48 readonly
type Noop48 struct{}

// Call does nothing.
func (Noop48) Call(context.Context) (string, error) { return "", nil }
