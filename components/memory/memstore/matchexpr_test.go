package memstore

import (
	"fmt"
	"testing"
)

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
		if got := matchExpr(q, nil, false); got != want {
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
		if got := matchExpr("amber-12345-birch", c.s, false); got != c.want {
			t.Errorf("matchExpr with a sample = %s, want %s", got, c.want)
		}
	}
}

// TestMatchQueryProbe checks the probe: the rarest piece alone, only when
// the sample never saw it and the query asks for more than one piece.
func TestMatchQueryProbe(t *testing.T) {
	names := &trigramSample{rows: 1000, counts: map[string]int32{
		"amb": 40, "mbe": 40, "ber": 150, "er-": 160, "r-1": 15, "-12": 110, "123": 5, "234": 4, "345": 5, "45-": 12, "5-b": 9, "-bi": 60, "bir": 60, "irc": 60, "rch": 70,
	}}
	obs := &trigramSample{rows: 1000, counts: map[string]int32{"123": 30, "234": 30, "345": 30, "ber": 300, "mbe": 200, "amb": 100}}
	common := &trigramSample{rows: 1000, counts: map[string]int32{"amb": 100, "mbe": 100, "ber": 100, "er-": 100, "-bi": 100, "bir": 100, "irc": 100, "rch": 100}}
	for _, c := range []struct {
		q           string
		s           *trigramSample
		expr, probe string
	}{
		{"amber-12345-birch", names, `"234" AND "5-b"`, ``},         // its rarest piece was seen
		{"amber-12345-birch", obs, `"-12" AND "45-"`, `"-12"`},      // never seen: probed first
		{"amber-12345-birch", nil, `"-12" AND "345" AND "-bi"`, ``}, // no sample: nothing to go by
		{"12345", obs, `"123" AND "234" AND "345"`, ``},             // short: every piece, none rarer
		{"amber-birch", common, `"r-b"`, ``},                        // one piece: the probe would be the query
	} {
		expr, probe := matchQuery(c.q, c.s, false)
		if expr != c.expr || probe != c.probe {
			t.Errorf("matchQuery(%q) = %s, %s; want %s, %s", c.q, expr, probe, c.expr, c.probe)
		}
	}
}

// pairs is the names index's token for the four characters of s.
func pairs(s string) string {
	r := []rune(s)
	return string([]rune{pairRune(r[0], r[1]), pairRune(r[1], r[2]), pairRune(r[2], r[3])})
}

func TestMatchExprFourCharacterPieces(t *testing.T) {
	// Without a sample: four characters before three.
	for q, want := range map[string]string{
		`abc`:    `"abc"`,
		`abcd`:   `"` + pairs("abcd") + `"`,
		`abcde`:  `"` + pairs("abcd") + `" AND "` + pairs("bcde") + `"`,
		`abcdef`: `"` + pairs("abcd") + `"`,
	} {
		if got := matchExpr(q, nil, true); got != want {
			t.Errorf("matchExpr(%q, nil, true) = %s, want %s", q, got, want)
		}
	}
	// With a sample: a four-character run is chosen where it is rarer
	// than the trigrams, and on ties ("5-bi" over "5-b").
	names := &trigramSample{rows: 1000, counts: map[string]int32{
		"amb": 40, "mbe": 40, "ber": 150, "er-": 160, "r-1": 15, "-12": 110, "123": 5, "234": 4, "345": 5, "45-": 12, "5-b": 9, "-bi": 60, "bir": 60, "irc": 60, "rch": 70,
		"ambe": 40, "mber": 40, "ber-": 150, "er-1": 15, "r-12": 15, "-123": 5, "1234": 1, "2345": 2, "345-": 3, "45-b": 9, "5-bi": 9, "-bir": 60, "birc": 60, "irch": 60,
	}}
	if got, want := matchExpr("amber-12345-birch", names, true), `"`+pairs("1234")+`" AND "`+pairs("5-bi")+`"`; got != want {
		t.Errorf("matchExpr with a sample = %s, want %s", got, want)
	}
}

// TestPairRuneIsStable pins pairRune: stored names indexes hold its
// characters, so a change must come with a new searchTextVersion.
func TestPairRuneIsStable(t *testing.T) {
	for _, c := range []struct {
		a, b rune
		want rune
	}{{'a', 'b', 0xf123}, {'1', '2', 0xe072}, {'é', '\n', 0xe89c}, {0x10FFFF, 0x10FFFF, 0xf789}} {
		if got := pairRune(c.a, c.b); got != c.want {
			t.Errorf("pairRune(%q, %q) = %#x, want %#x", c.a, c.b, got, c.want)
		}
	}
}

// testSampleText checks that a small table is sampled whole and a large
// one by rows spread over all of it.
func testSampleText(t *testing.T) {
	sqliteOnly(t, "")
	s, _ := openSQLiteTest(t)
	sample := func() *trigramSample {
		t.Helper()
		var got *trigramSample
		mustNil(t, s.read(bg, func(tx *txn) error {
			tl, err := loadTail(bg, tx)
			if err == nil {
				got, err = sampleText(bg, tx, `SELECT id, name FROM entities WHERE id >= ? ORDER BY id LIMIT ?`, tl.maxEntity, true)
			}
			return err
		}))
		return got
	}
	create := func(from, to int) {
		var ents []Entity
		for i := from; i < to; i++ {
			ents = append(ents, Entity{Name: fmt.Sprintf("e%05d", i), EntityType: "t"})
		}
		must[[]Entity](t)(s.CreateEntities(bg, ents))
	}
	create(0, 100)
	if got := sample(); got.rows != 100 || got.counts["e000"] != 100 || got.counts["0099"] != 1 {
		t.Fatalf("100 rows: sampled %d, e000 %d, 0099 %d; want all 100", got.rows, got.counts["e000"], got.counts["0099"])
	}
	create(100, 10_000)
	create(10_000, 20_000)
	got := sample()
	if got.rows != sampleRows {
		t.Fatalf("20,000 rows: sampled %d, want %d", got.rows, sampleRows)
	}
	// Every hundred of the names (e000.., e001.., ... e199..) is seen:
	// runs of neighbours would have missed most of them.
	for k := range 200 {
		if n := got.counts[fmt.Sprintf("e%03d", k)]; n == 0 {
			t.Errorf("names e%03d..: none sampled", k)
		}
	}
}
