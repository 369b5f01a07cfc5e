package memstore

import "testing"

func TestMatchExpr(t *testing.T) {
	for q, want := range map[string]string{
		`abc`:               `"abc"`,
		`abcde`:             `"abcde"`,
		`a"cde`:             `"a""cde"`,
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
