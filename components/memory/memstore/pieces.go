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
// trigrams of the query that are rarest in that index, as estimated from
// a sample of its rows (the observations' rarest trigrams are often not
// the names'). Any trigram of the query is a necessary condition, so the
// choice changes only the cost, never the result.

// sampleRuns and sampleRun shape the sample: runs of consecutive rows
// spread evenly over the ids, a few thousand rows in all.
const (
	sampleRuns = 32
	sampleRun  = 64
)

// trigramSample counts, for each trigram, the sampled rows of one index's
// text that contain it.
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
		if p.names, err = sampleText(ctx, tx, `SELECT id, name || char(10) || entity_type FROM entities WHERE id >= ? ORDER BY id LIMIT ?`, t.maxEntity); err != nil {
			return nil, nil, err
		}
	}
	if p.obs == nil || outgrown(p.obs, t.maxObs) {
		if p.obs, err = sampleText(ctx, tx, `SELECT id, content FROM observations WHERE id >= ? ORDER BY id LIMIT ?`, t.maxObs); err != nil {
			return nil, nil, err
		}
	}
	return p.names, p.obs, nil
}

// outgrown reports whether a table has doubled (or shrunk to a quarter)
// since it was sampled at upTo.
func outgrown(s *trigramSample, maxID int64) bool {
	return maxID > 2*s.upTo+sampleRun || 4*maxID < s.upTo
}

// sampleText reads sampleRuns runs of rows with query (which takes the
// first id and a row count) and counts their lower-cased text's trigrams.
func sampleText(ctx context.Context, tx *txn, query string, maxID int64) (*trigramSample, error) {
	s := &trigramSample{counts: map[string]int32{}, upTo: maxID}
	seen := map[string]bool{}
	last := int64(-1)
	for i := range int64(sampleRuns) {
		from := max(maxID*i/sampleRuns, last+1)
		err := eachRow(ctx, tx, query, []any{from, sampleRun}, func(r *sql.Rows) error {
			var text string
			if err := r.Scan(&last, &text); err != nil {
				return err
			}
			s.rows++
			clear(seen)
			t := []rune(jsLower(text))
			for j := 0; j+3 <= len(t); j++ {
				if g := string(t[j : j+3]); !seen[g] {
					seen[g] = true
					s.counts[g]++
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

// maxPieces bounds the trigrams matchExpr asks for.
const maxPieces = 3

// falseCandidateCost is what a row that the trigrams let through but that
// does not contain the query costs (read and checked, see
// searchCandidates), in posting-list entries walked: a trigram is worth
// adding while it removes more of those than its own list is long, by
// this measure (about 1 us against 25 ns an entry).
const falseCandidateCost = 40

// matchExpr returns the FTS5 query for the lower-cased q (at least three
// characters, no NUL) on an index whose rows s samples (nil: no sample).
// The indexes keep no positions (detail=none), so every term is one
// trigram and the rows that hold them all are candidates, checked against
// q afterwards. Up to five characters, all of q's (three at most). Longer
// queries become the AND of a few non-overlapping trigrams of q, the
// rarest in s first, each added while the lists it makes the search walk
// are shorter than the false candidates it removes. Without a sample,
// or on ties, trigrams with digits and punctuation go first, then the
// earlier.
func matchExpr(q string, s *trigramSample) string {
	quote := func(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
	r := []rune(q)
	if len(r) <= 5 {
		var parts []string
		for i := 0; i+3 <= len(r); i++ {
			if g := quote(string(r[i : i+3])); !slices.Contains(parts, g) {
				parts = append(parts, g)
			}
		}
		return strings.Join(parts, " AND ")
	}
	type piece struct {
		at    int
		share float64 // estimated share of the index's rows holding it
		class int     // digits and punctuation count, the rarer classes
	}
	pieces := make([]piece, len(r)-2)
	for i := range pieces {
		p := piece{at: i, share: 1}
		if s != nil && s.rows > 0 {
			p.share = (float64(s.counts[string(r[i:i+3])]) + 0.5) / float64(s.rows)
		}
		for _, c := range r[i : i+3] {
			if !unicode.IsLetter(c) && !unicode.IsSpace(c) {
				p.class++
			}
		}
		pieces[i] = p
	}
	slices.SortStableFunc(pieces, func(a, b piece) int {
		if a.share != b.share {
			if a.share < b.share {
				return -1
			}
			return 1
		}
		return b.class - a.class
	})
	var kept []int
	left := 1.0 // the share of rows the kept pieces let through
	for _, p := range pieces {
		if len(kept) == maxPieces {
			break
		}
		if slices.ContainsFunc(kept, func(k int) bool { return p.at < k+3 && k < p.at+3 }) {
			continue
		}
		if len(kept) > 0 && s != nil && s.rows > 0 && p.share > left*(1-p.share)*falseCandidateCost {
			break // its list is longer than the false candidates it removes
		}
		kept = append(kept, p.at)
		left *= p.share
	}
	slices.Sort(kept)
	parts := make([]string, 0, len(kept))
	seen := map[string]bool{}
	for _, at := range kept {
		if g := string(r[at : at+3]); !seen[g] {
			seen[g] = true
			parts = append(parts, quote(g))
		}
	}
	return strings.Join(parts, " AND ")
}
