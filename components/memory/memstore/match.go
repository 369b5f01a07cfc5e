package memstore

import "strings"

// The reference's search predicate, shared by the stores: their indexes
// only find candidates, and every candidate is checked here, so that
// search_nodes answers exactly as the reference does.

// searchQuery checks search_nodes' query and returns it lower-cased as the
// reference lower-cases it: what entityMatches looks for.
func searchQuery(query string) (string, error) {
	if err := checkObservation("query", query); err != nil {
		return "", err
	}
	return jsLower(query), nil
}

// matchingEntities returns the entities of cands that entityMatches
// accepts for the lower-cased query q, in their order; never nil.
func matchingEntities(cands []Entity, q string) []Entity {
	ents := make([]Entity, 0, len(cands))
	for _, e := range cands {
		if entityMatches(e, q) {
			ents = append(ents, e)
		}
	}
	return ents
}

// entityMatches is the reference's predicate: q (already lower-cased) is a
// substring of the lower-cased name, type or one of the observations. An
// empty q matches everything, as "x".includes("") is true.
func entityMatches(e Entity, q string) bool {
	if eitherContains(e.Name, e.EntityType, q) {
		return true
	}
	for _, o := range e.Observations {
		if strings.Contains(jsLower(o), q) {
			return true
		}
	}
	return false
}

// eitherContains reports whether the lower-cased a or b contains q.
func eitherContains(a, b, q string) bool {
	return strings.Contains(jsLower(a), q) || strings.Contains(jsLower(b), q)
}
