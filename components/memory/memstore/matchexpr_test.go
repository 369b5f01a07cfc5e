package memstore

import "testing"

func TestMatchExpr(t *testing.T) {
	for q, want := range map[string]string{
		`abc`:               `"abc"`,
		`abcd`:              `"abc" AND "bcd"`,
		`abcde`:             `"abc" AND "bcd" AND "cde"`,
		`a"cde`:             `"a""c" AND """cd" AND "cde"`,
		`aaaaa`:             `"aaa"`,
		`σοφια`:             `"σοφ" AND "οφι" AND "φια"`,
		`abcdef`:            `"abc" AND "def"`,
		`entity-050000`:     `"-05" AND "000"`,
		`amber-12345-birch`: `"er-" AND "123" AND "45-"`,
		`coffee mornings`:   `"cof" AND "fee" AND " mo"`,
		`straße"x`:          `"str" AND "aße" AND "e""x"`,
	} {
		if got := matchExpr(q); got != want {
			t.Errorf("matchExpr(%q) = %s, want %s", q, got, want)
		}
	}
}
