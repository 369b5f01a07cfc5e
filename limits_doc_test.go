package mcpgen

import (
	"flag"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLimitsTableDocumented: every limit of [Limits] has a row in
// docs/operations.md's table naming its flag, its field and its default,
// and a flag that [Limits.RegisterFlags] registers with that default.
func TestLimitsTableDocumented(t *testing.T) {
	doc, err := os.ReadFile("docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // flag -> its row
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 4 && strings.HasPrefix(strings.TrimSpace(cells[3]), "`--") {
			rows[strings.Trim(strings.TrimSpace(cells[3]), "`")] = line
		}
	}
	var l Limits
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	l.RegisterFlags(fs)
	inTable := map[string]bool{}
	for _, lm := range limitTable {
		inTable[lm.field] = true
	}
	for f := range reflect.TypeFor[Limits]().Fields() {
		if !inTable[f.Name] {
			t.Errorf("Limits.%s has no entry in limitTable (its flag, default and documentation)", f.Name)
		}
	}
	for _, lm := range limitTable {
		row, ok := rows["--"+lm.flag]
		if !ok {
			t.Errorf("docs/operations.md: no row for --%s", lm.flag)
			continue
		}
		cells := strings.Split(row, "|")
		if want := "`Limits." + lm.field + "`"; !strings.Contains(cells[4], want) {
			t.Errorf("--%s: the field column %q does not name %s", lm.flag, cells[4], want)
		}
		if got, want := strings.TrimSpace(cells[2]), docDefault(lm); got != want {
			t.Errorf("--%s: docs say the default is %q, Limits says %q", lm.flag, got, want)
		}
		f := fs.Lookup(lm.flag)
		if f == nil {
			t.Errorf("--%s is not registered", lm.flag)
			continue
		}
		if lm.def != nil && f.DefValue != flagValue(lm.def) {
			t.Errorf("--%s shows default %s, want %s", lm.flag, f.DefValue, flagValue(lm.def))
		}
	}
	d := Limits{}.withDefaults()
	if d.MaxSessions != DefaultMaxSessions || d.HTTPReadTimeout != DefaultReadTimeout || d.Rate != 0 || d.MaxMessageBytes != DefaultMaxMessageBytes {
		t.Errorf("withDefaults: %+v", d)
	}
	if n := (Limits{MaxSessions: -1, MaxMessageBytes: -1}).withDefaults(); n.MaxSessions != -1 || n.MaxMessageBytes != DefaultMaxMessageBytes {
		t.Errorf("negative limits: %+v, want no cap for sessions and the default message bound", n)
	}
}

// docDefault is how docs/operations.md writes the default of lm.
func docDefault(lm limit) string {
	switch d := lm.def.(type) {
	case nil:
		if lm.field == "Burst" {
			return "the rate rounded up"
		}
		return "off"
	case int:
		if strings.HasSuffix(lm.field, "Bytes") {
			return sizeString(int64(d))
		}
		return groupThousands(int64(d))
	case int64:
		return sizeString(d)
	case time.Duration:
		return strconv.Itoa(int(d/time.Second)) + " s"
	}
	return ""
}

func flagValue(v any) string {
	switch d := v.(type) {
	case int:
		return strconv.Itoa(d)
	case int64:
		return strconv.FormatInt(d, 10)
	case time.Duration:
		return d.String()
	}
	return ""
}

// groupThousands writes n with commas between groups of three digits.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
