// Package units holds types the wire golden case uses from another
// package: a text marshaler and a type that describes its own JSON.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Temp is a temperature that travels as text such as "21.5C".
type Temp float64

// MarshalText writes the temperature with its unit.
func (t Temp) MarshalText() ([]byte, error) {
	return []byte(strconv.FormatFloat(float64(t), 'f', -1, 64) + "C"), nil
}

// UnmarshalText reads what MarshalText writes.
func (t *Temp) UnmarshalText(b []byte) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(string(b), "C"), 64)
	if err != nil {
		return fmt.Errorf("temperature %q: %w", b, err)
	}
	*t = Temp(v)
	return nil
}

// Level is an integer level that travels as a JSON string "L<n>"; its
// JSONSchema method says so.
type Level int

// MarshalJSON writes "L<n>".
func (l Level) MarshalJSON() ([]byte, error) { return []byte(`"L` + strconv.Itoa(int(l)) + `"`), nil }

// UnmarshalJSON reads "L<n>".
func (l *Level) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil || !strings.HasPrefix(s, "L") {
		return fmt.Errorf("level %s: want \"L<n>\"", b)
	}
	n, err := strconv.Atoi(s[1:])
	*l = Level(n)
	return err
}

// JSONSchema describes the JSON of MarshalJSON.
func (Level) JSONSchema() map[string]any {
	return map[string]any{"type": "string", "pattern": "^L-?[0-9]+$"}
}
