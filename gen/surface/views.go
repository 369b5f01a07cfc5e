package surface

import (
	"reflect"
	"slices"
	"strings"
)

// The comparison of what the MCP Apps extension adds to a surface: views,
// and each tool's link to one. A host shows a tool's results in its view,
// and a view calls the tools it may; so a removed view, a tool that moved
// to another view or lost its view, and a tool the model or the views may
// no longer call break someone. New views and links break nobody.

func (d *differ) view(o, n View) {
	d.described(o.Title, n.Title, o.Description, n.Description)
	if o.Name != n.Name {
		d.add("described", "", false, "name %q is now %q", o.Name, n.Name)
	}
	if o.Digest != n.Digest {
		d.add("view-changed", "", false, "content changed (digest %s is now %s)", o.Digest, n.Digest)
	}
	if !reflect.DeepEqual(o.CSP, n.CSP) || !slices.Equal(o.Permissions, n.Permissions) || o.Domain != n.Domain || !reflect.DeepEqual(o.PrefersBorder, n.PrefersBorder) {
		d.add("view-changed", "", false, "what it asks of hosts changed (CSP, permissions, domain or border)")
	}
}

// toolView compares a tool's link to a view and its visibility.
func (d *differ) toolView(o, n Tool) {
	switch {
	case o.View == n.View:
	case o.View == "":
		d.add("tool-view-added", "", false, "now shows its results in the view %s", n.View)
	case n.View == "":
		d.add("tool-view-changed", "", false, "no longer shows its results in the view %s", o.View)
	default:
		d.add("tool-view-changed", "", false, "shows its results in the view %s instead of %s", n.View, o.View)
	}
	was, now := callers(o.Visibility), callers(n.Visibility)
	var lost, gained []string
	for _, c := range was {
		if !slices.Contains(now, c) {
			lost = append(lost, c)
		}
	}
	for _, c := range now {
		if !slices.Contains(was, c) {
			gained = append(gained, c)
		}
	}
	if len(lost) > 0 {
		d.add("tool-view-changed", "", false, "may no longer be called by the %s (visibility %s is now %s)", strings.Join(lost, " and the "), strings.Join(was, ","), strings.Join(now, ","))
	}
	if len(gained) > 0 {
		d.add("tool-view-added", "", false, "may now be called by the %s too (visibility %s is now %s)", strings.Join(gained, " and the "), strings.Join(was, ","), strings.Join(now, ","))
	}
}

// callers is a visibility with its default (both) made explicit, in a
// fixed order.
func callers(visibility []string) []string {
	if len(visibility) == 0 {
		return []string{"model", "app"}
	}
	var out []string
	for _, c := range []string{"model", "app"} {
		if slices.Contains(visibility, c) {
			out = append(out, c)
		}
	}
	return out
}
