package gen

import "go/types"

// One walk over go/types types serves every stage that looks inside a
// type: the checker (what JSON cannot carry, what generated code cannot
// name), the drift guard (the struct types it restates, the tags vet
// would refuse), the schema stage (field docs and positions), the
// trusted-output proof, the typed client (the types it copies) and the
// surfaces (the field a property names). Each is a visitor: typeWalk calls
// it for every type it reaches, with how it got there, and the visitor
// says whether to go on into that type's parts, skip them, or stop.

// typeStep says how a walk reached a type from its parent.
type typeStep int

const (
	stepRoot    typeStep = iota // the type the walk started from
	stepElem                    // the element of a pointer, slice, array, channel or map
	stepKey                     // the key of a map
	stepField                   // a field of a struct
	stepTypeArg                 // a type argument of a named type (spelled walks)
	stepParam                   // a parameter of a function type
	stepResult                  // a result of a function type
)

// typeNode is one type a walk reached.
type typeNode struct {
	typ    types.Type // aliases resolved
	step   typeStep
	parent *typeNode // nil at the root

	field *types.Var // stepField: the field
	tag   string     // stepField: its tag

	// repeat is set on a named type whose parts this walk has entered
	// already (or, with everyPath, is entering on this path): the walk
	// does not enter them again, so recursive types end and a type shared
	// by many fields is looked at once.
	repeat bool
}

// walkAction is a visitor's answer for one type.
type walkAction int

const (
	walkInto walkAction = iota // go on into the type's parts
	walkOver                   // skip its parts; go on with the next type
	walkStop                   // end the walk here
)

// typeWalk walks types depth first, in declaration order, calling visit
// for each. One typeWalk may walk several roots: what it entered in one
// counts for the next.
type typeWalk struct {
	visit func(n *typeNode) walkAction

	// spelled walks types as Go source spells them: the parts of a named
	// type are its type arguments. Otherwise they are the parts of its
	// underlying type (its fields, its element), as encoding/json sees
	// them, and it is entered once per walk.
	spelled bool
	// everyPath enters a named type on every path that reaches it, not
	// once per walk, for walks where the path matters (the depth of a
	// promoted field); a named type is still never entered inside itself.
	everyPath bool

	entered map[*types.Named]bool
}

// walkType walks t with visit, parts as encoding/json sees them.
func walkType(t types.Type, visit func(n *typeNode) walkAction) *typeNode {
	return (&typeWalk{visit: visit}).walk(t)
}

// walk walks t and returns the node where visit stopped the walk, or nil.
func (w *typeWalk) walk(t types.Type) *typeNode {
	return w.node(&typeNode{typ: types.Unalias(t), step: stepRoot})
}

func (w *typeWalk) node(n *typeNode) *typeNode {
	t := n.typ
	named, isNamed := t.(*types.Named)
	if isNamed && !w.spelled {
		if w.everyPath {
			n.repeat = n.parent.within(named)
		} else {
			n.repeat = w.entered[named]
		}
	}
	switch w.visit(n) {
	case walkOver:
		return nil
	case walkStop:
		return n
	}
	if n.repeat {
		return nil
	}
	if isNamed {
		if w.spelled {
			args := named.TypeArgs()
			for i := range args.Len() {
				if stop := w.child(n, args.At(i), stepTypeArg); stop != nil {
					return stop
				}
			}
			return nil
		}
		if w.entered == nil {
			w.entered = map[*types.Named]bool{}
		}
		w.entered[named] = true
		t = named.Underlying()
	}
	switch u := t.(type) {
	case *types.Pointer:
		return w.child(n, u.Elem(), stepElem)
	case *types.Slice:
		return w.child(n, u.Elem(), stepElem)
	case *types.Array:
		return w.child(n, u.Elem(), stepElem)
	case *types.Chan:
		return w.child(n, u.Elem(), stepElem)
	case *types.Map:
		if stop := w.child(n, u.Key(), stepKey); stop != nil {
			return stop
		}
		return w.child(n, u.Elem(), stepElem)
	case *types.Struct:
		for i := range u.NumFields() {
			f := u.Field(i)
			if stop := w.node(&typeNode{typ: types.Unalias(f.Type()), step: stepField, parent: n, field: f, tag: u.Tag(i)}); stop != nil {
				return stop
			}
		}
	case *types.Signature:
		for _, tuple := range []struct {
			vars *types.Tuple
			step typeStep
		}{{u.Params(), stepParam}, {u.Results(), stepResult}} {
			for i := range tuple.vars.Len() {
				if stop := w.child(n, tuple.vars.At(i).Type(), tuple.step); stop != nil {
					return stop
				}
			}
		}
	}
	return nil
}

func (w *typeWalk) child(parent *typeNode, t types.Type, step typeStep) *typeNode {
	return w.node(&typeNode{typ: types.Unalias(t), step: step, parent: parent})
}

// within reports whether named is n's type or that of one of its parents.
func (n *typeNode) within(named *types.Named) bool {
	for ; n != nil; n = n.parent {
		if n.typ == named {
			return true
		}
	}
	return false
}

// nearestField is the node reached as a struct field nearest to n on its
// path from the root, n included, or nil when there is none.
func (n *typeNode) nearestField() *typeNode {
	for ; n != nil; n = n.parent {
		if n.step == stepField {
			return n
		}
	}
	return nil
}

// fieldDepth is the number of struct fields on n's path, n included: 1
// for a field of the root struct, 2 for one of a struct it embeds.
func (n *typeNode) fieldDepth() int {
	d := 0
	for ; n != nil; n = n.parent {
		if n.step == stepField {
			d++
		}
	}
	return d
}

// fieldPath is the names of the fields on n's path, outermost first, each
// after a dot: ".Items.Owner".
func (n *typeNode) fieldPath() string {
	if n == nil {
		return ""
	}
	p := n.parent.fieldPath()
	if n.step == stepField {
		p += "." + n.field.Name()
	}
	return p
}
