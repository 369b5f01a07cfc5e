package memstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// A trigram query costs about the length of the posting lists it walks,
// and a trigram's list grows with the graph: at 1,000,000 entities "er-"
// is in a sixth of the names and walking it was most of a search, while
// "482" is in one in two hundred. So each search index is asked for the
// pieces of the query (trigrams, and in the names index four-character
// runs, below) that are rarest in that index, as estimated from a sample
// of its rows (the observations' rarest pieces are often not the
// names'). Any piece of the query is a necessary condition, so the choice
// changes only the cost, never the result.

// sampleRows is the size of the sample: one row at a pseudo-random place
// in each of as many equal slices of the ids. Rows are often stored in the
// order they were made, and neighbours alike (entity-1000, entity-1001,
// ...); a sample of runs of neighbours saw few of the four-character runs
// of such names and took the others for rare. A table of up to
// sampleRows rows is read whole.
const sampleRows = 2048

// trigramSample counts, for each piece (three characters, and four in
// the names index), the sampled rows of one index's text that hold it.
type trigramSample struct {
	counts map[string]int32
	rows   int
	upTo   int64 // the table's highest id when sampled
}

// pieceSamples holds the samples of both indexes, taken on first use and
// again once a table has doubled.
type pieceSamples struct {
	mu         sync.Mutex
	names, obs *trigramSample
}

// get returns the samples, taking them in tx if missing or outgrown.
func (p *pieceSamples) get(ctx context.Context, tx *txn) (names, obs *trigramSample, err error) {
	t, err := loadTail(ctx, tx) // for the tables' highest ids
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock() // held while sampling, which is rare
	defer p.mu.Unlock()
	if p.names == nil || outgrown(p.names, t.maxEntity) {
		if p.names, err = sampleText(ctx, tx, `SELECT id, name || char(10) || entity_type FROM entities WHERE id >= ? ORDER BY id LIMIT ?`, t.maxEntity, true); err != nil {
			return nil, nil, err
		}
	}
	if p.obs == nil || outgrown(p.obs, t.maxObs) {
		if p.obs, err = sampleText(ctx, tx, `SELECT id, content FROM observations WHERE id >= ? ORDER BY id LIMIT ?`, t.maxObs, false); err != nil {
			return nil, nil, err
		}
	}
	return p.names, p.obs, nil
}

// outgrown reports whether a table has doubled (or shrunk to a quarter)
// since it was sampled at upTo.
func outgrown(s *trigramSample, maxID int64) bool {
	return maxID > 2*s.upTo+64 || 4*maxID < s.upTo
}

// sampleText reads sampleRows rows with query (which takes the first id
// and a row count) and counts their lower-cased text's trigrams and, with
// quads, its runs of four characters.
func sampleText(ctx context.Context, tx *txn, query string, maxID int64, quads bool) (*trigramSample, error) {
	s := &trigramSample{counts: map[string]int32{}, upTo: maxID}
	widths := []int{3}
	if quads {
		widths = append(widths, 4)
	}
	seen := map[string]bool{}
	last := int64(-1)
	strata, each := int64(sampleRows), int64(1)
	if maxID <= sampleRows {
		strata, each = 1, sampleRows
	}
	for i := range strata {
		from := maxID * i / strata
		if strata > 1 {
			// A place in slice i by a fixed hash of i, so that samples repeat.
			from += int64(uint64(i+1)*0x9E3779B97F4A7C15>>33) % max(maxID*(i+1)/strata-from, 1)
		}
		from = max(from, last+1)
		err := eachRow(ctx, tx, query, []any{from, each}, func(r *sql.Rows) error {
			var text string
			if err := r.Scan(&last, &text); err != nil {
				return err
			}
			s.rows++
			clear(seen)
			t := []rune(jsLower(text))
			for _, w := range widths {
				for j := 0; j+w <= len(t); j++ {
					if g := string(t[j : j+w]); !seen[g] {
						seen[g] = true
						s.counts[g]++
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("memstore: sample the search text: %w", err)
		}
	}
	return s, nil
}

// maxPieces bounds the pieces matchExpr asks for.
const maxPieces = 3

// falseCandidateCost is what a row that the pieces let through but that
// does not contain the query costs (read and checked, see
// searchCandidates), in posting-list entries walked: a piece is worth
// adding while it removes more of those than its own list is long, by
// this measure (about 1 us against 25 ns an entry).
const falseCandidateCost = 40

// matchExpr returns the FTS5 query for the lower-cased q (at least three
// characters, no NUL) on an index whose rows s samples (nil: no sample);
// quads says the index also holds every four-character run as a token
// (pairText). The indexes keep no positions (detail=none), so every term
// is one token and the rows that hold them all are candidates, checked
// against q afterwards. Up to five characters, all of q's pieces of the
// widest kind the index has (three at most). Longer queries become the
// AND of a few non-overlapping pieces of q, the rarest in s first, each
// added while the lists it makes the search walk are shorter than the
// false candidates it removes. Without a sample, or on ties, four
// characters go before three, then pieces with digits and punctuation,
// then the earlier.
func matchExpr(q string, s *trigramSample, quads bool) string {
	expr, _ := matchQuery(q, s, quads)
	return expr
}

// matchQuery returns matchExpr's query and its probe: when the query asks
// for more than one piece and the rarest of them is in no sampled row,
// that piece alone, else "". A piece the sample never saw may be in no
// row of the index at all (an entity's name in the observations index,
// say), and then one look at it settles the search of that index without
// reading the other pieces' lists: a seek per segment each, which after
// another connection's commit has emptied the page cache are page reads
// (see searchCandidates).
func matchQuery(q string, s *trigramSample, quads bool) (expr, probe string) {
	r := []rune(q)
	widths := []int{3}
	if quads && len(r) >= 4 {
		widths = []int{4, 3}
	}
	type piece struct {
		at, width int
		share     float64 // estimated share of the index's rows holding it
		class     int     // digits and punctuation count, the rarer classes
	}
	var kept []piece
	if len(r) <= 5 {
		for i := 0; i+widths[0] <= len(r); i++ {
			kept = append(kept, piece{at: i, width: widths[0]})
		}
	} else {
		var pieces []piece
		for _, w := range widths {
			for i := 0; i+w <= len(r); i++ {
				p := piece{at: i, width: w, share: 1}
				if s != nil && s.rows > 0 {
					p.share = (float64(s.counts[string(r[i:i+w])]) + 0.5) / float64(s.rows)
				}
				for _, c := range r[i : i+w] {
					if !unicode.IsLetter(c) && !unicode.IsSpace(c) {
						p.class++
					}
				}
				pieces = append(pieces, p)
			}
		}
		slices.SortStableFunc(pieces, func(a, b piece) int {
			if a.share != b.share {
				if a.share < b.share {
					return -1
				}
				return 1
			}
			if a.width != b.width {
				return b.width - a.width
			}
			return b.class - a.class
		})
		left := 1.0 // the share of rows the kept pieces let through
		for _, p := range pieces {
			if len(kept) == maxPieces {
				break
			}
			if slices.ContainsFunc(kept, func(k piece) bool { return p.at < k.at+k.width && k.at < p.at+p.width }) {
				continue
			}
			if len(kept) > 0 && s != nil && s.rows > 0 && p.share > left*(1-p.share)*falseCandidateCost {
				break // its list is longer than the false candidates it removes
			}
			kept = append(kept, p)
			left *= p.share
		}
		if len(kept) > 1 && s != nil && s.rows > 0 && s.counts[string(r[kept[0].at:kept[0].at+kept[0].width])] == 0 {
			probe = matchTerm(r, kept[0].at, kept[0].width)
		}
		slices.SortFunc(kept, func(a, b piece) int { return a.at - b.at })
	}
	parts := make([]string, 0, len(kept))
	for _, p := range kept {
		if g := matchTerm(r, p.at, p.width); !slices.Contains(parts, g) {
			parts = append(parts, g)
		}
	}
	if len(parts) < 2 {
		probe = ""
	}
	return strings.Join(parts, " AND "), probe
}

// matchTerm is the FTS5 term of the piece of r at at, width characters
// long: quoted, and a four-character piece as its three pair characters.
func matchTerm(r []rune, at, width int) string {
	term := r[at : at+width]
	if width == 4 {
		term = []rune{pairRune(term[0], term[1]), pairRune(term[1], term[2]), pairRune(term[2], term[3])}
	}
	return `"` + strings.ReplaceAll(string(term), `"`, `""`) + `"`
}

// Four-character pieces. In a large graph even the rarest trigram of a
// name is in thousands of rows (at 1,000,000 entities a run of three
// digits is in about one name in 250), and a search walks the posting
// lists of the pieces it asks for, so its cost grew with the graph. The
// names index therefore also holds every run of four characters of a
// name and of a type, each as one FTS5 trigram: after the text itself
// comes one pair character (pairRune) for each two adjacent characters,
// and three adjacent pair characters are the four characters they cover.
// Two pairs may share a pair character; that only lets through rows that
// the check against the query drops. The observations index holds
// trigrams only: observations are long, and four-character runs would
// add a token per character of every one.

// pairRune is the character that stands for the adjacent characters a, b
// in the names index: one of the 6,400 code points of Unicode's private
// use area in the Basic Multilingual Plane (three bytes in UTF-8, the
// fewest that keep clear of the letters of real text), by a hash of the
// pair. Stored indexes depend on it: changing it means rebuilding them.
func pairRune(a, b rune) rune {
	h := (uint64(a)<<21 | uint64(b)) * 0x9E3779B97F4A7C15
	return 0xE000 + rune((h>>32)%0x1900)
}

// pairText returns the search_names text of the lower-cased fields: each
// field, then each field's pair characters, one per line.
func pairText(fields ...string) string {
	var b strings.Builder
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f)
	}
	for _, f := range fields {
		b.WriteByte('\n')
		var prev rune = -1
		for _, c := range f {
			if prev >= 0 {
				b.WriteRune(pairRune(prev, c))
			}
			prev = c
		}
	}
	return b.String()
}
