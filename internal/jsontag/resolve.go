package jsontag

import "sort"

// Resolve applies encoding/json's rule for struct members that share a
// JSON name to all, the candidates a breadth-first walk of a struct and
// its embedded structs found: of each name it keeps the only shallowest
// member (the shortest index path), or the only tagged one among the
// shallowest, and drops the name when neither exists. The members kept
// are sorted by index path, the order encoding/json writes them in. The
// generator (on go/types) and its schema program (on reflect) share it.
func Resolve[M any](all []M, name func(M) string, index func(M) []int, tagged func(M) bool) []M {
	byName := map[string][]M{}
	var names []string
	for _, m := range all {
		n := name(m)
		if _, ok := byName[n]; !ok {
			names = append(names, n)
		}
		byName[n] = append(byName[n], m)
	}
	var out []M
	for _, n := range names {
		ms := byName[n]
		depth := len(index(ms[0]))
		for _, m := range ms {
			depth = min(depth, len(index(m)))
		}
		var top, withTag []M
		for _, m := range ms {
			if len(index(m)) == depth {
				top = append(top, m)
				if tagged(m) {
					withTag = append(withTag, m)
				}
			}
		}
		switch {
		case len(top) == 1:
			out = append(out, top[0])
		case len(withTag) == 1:
			out = append(out, withTag[0])
		}
	}
	sort.Slice(out, func(i, j int) bool { return lessIndex(index(out[i]), index(out[j])) })
	return out
}

func lessIndex(a, b []int) bool {
	for i := range a {
		if i >= len(b) {
			return false
		}
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}
