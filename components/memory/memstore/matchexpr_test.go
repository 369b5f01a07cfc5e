package memstore

import "testing"

func TestMatchExpr(t *testing.T) {
	// Without a sample: digits and punctuation first, then the earlier.
	for q, want := range map[string]string{
		`abc`:               `"abc"`,
		`abcde`:             `"abc" AND "bcd" AND "cde"`,
		`a"cde`:             `"a""c" AND """cd" AND "cde"`,
		`aaaa`:              `"aaa"`,
		`abcdef`:            `"abc" AND "def"`,
		`entity-050000`:     `"ent" AND "-05" AND "000"`,
		`amber-12345-birch`: `"-12" AND "345" AND "-bi"`,
		`coffee mornings`:   `"cof" AND "fee" AND " mo"`,
		`straße"x`:          `"str" AND "ße"""`,
	} {
		if got := matchExpr(q, nil); got != want {
			t.Errorf("matchExpr(%q, nil) = %s, want %s", q, got, want)
		}
	}
	// With a sample: the rarest there, while they pay for themselves.
	names := &trigramSample{rows: 1000, counts: map[string]int32{
		"amb": 40, "mbe": 40, "ber": 150, "er-": 160, "r-1": 15, "-12": 110, "123": 5, "234": 4, "345": 5, "45-": 12, "5-b": 9, "-bi": 60, "bir": 60, "irc": 60, "rch": 70,
	}}
	obs := &trigramSample{rows: 1000, counts: map[string]int32{"123": 30, "234": 30, "345": 30, "ber": 300, "mbe": 200, "amb": 100}}
	for _, c := range []struct {
		s    *trigramSample
		want string
	}{
		{names, `"234" AND "5-b"`}, // a third, "-bi" at best, costs more than it saves
		{obs, `"-12" AND "45-"`},   // never seen in observations, and digits
	} {
		if got := matchExpr("amber-12345-birch", c.s); got != c.want {
			t.Errorf("matchExpr with a sample = %s, want %s", got, c.want)
		}
	}
}
