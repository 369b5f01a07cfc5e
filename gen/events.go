package gen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/dave/jennifer/jen"
)

// This file is //mcp:event (the events extension, io.modelcontextprotocol/
// events): the check of the directive and events.go of the generated
// package, which registers each event with its schemas, the filter's
// Match and the type assertion mcpgen.Emit finds the event by.

// eventNameRule is what an event name may be: dotted lower-case words,
// as the design sketch's examples ("email.received").
var eventNameRule = regexp.MustCompile(`^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$`)

// emptyArguments is the input schema of an event without filter=.
var emptyArguments = []byte("{\n  \"type\": \"object\",\n  \"additionalProperties\": false\n}\n")

func (c *checker) checkEvent(s *server, comp component, d directive) {
	ev := &event{component: comp, InputSchema: emptyArguments}
	namePos := ev.Pos
	for _, o := range d.Options {
		switch o.Key {
		case "name", "title", "description", "scope":
			if o.Key == "name" {
				namePos = c.fset.Position(o.ValPos)
			}
			c.common(&ev.component, o)
		case "filter":
			ev.FilterName = c.str(o)
			obj, _ := c.pkg.Types.Scope().Lookup(ev.FilterName).(*types.TypeName)
			var named *types.Named
			if obj != nil {
				named, _ = types.Unalias(obj.Type()).(*types.Named)
			}
			if named == nil || !obj.Exported() {
				c.at(o.ValPos, ev.TypeName, "name an exported struct type of this package whose fields are the subscription arguments", "filter type %q not found", ev.FilterName)
				continue
			}
			if _, ok := named.Underlying().(*types.Struct); !ok {
				c.at(o.ValPos, ev.TypeName, "the filter's fields are the subscription arguments: use a struct type", "filter type %s is not a struct", ev.FilterName)
				continue
			}
			ev.Filter = named
			c.eventMatch(ev)
		default:
			c.unknownKey(d, o, "name, title, description, scope, filter")
		}
	}
	if !eventNameRule.MatchString(ev.Name) {
		c.atPosition(namePos, "event "+ev.Name, "use dotted lower-case words, e.g. name=entity.changed", "invalid event name")
	}
	c.unique("event", ev.Name, ev.Pos)
	c.needDescription("event", &ev.component)
	c.jsonFields(ev.TypeName, token.Position{}, ev.Type)
	if ev.Filter != nil {
		c.jsonFields(ev.FilterName, token.Position{}, ev.Filter)
	}
	s.Events = append(s.Events, ev)
}

// eventMatch finds the filter's Match(E) bool method, if any.
func (c *checker) eventMatch(ev *event) {
	ms := types.NewMethodSet(types.NewPointer(ev.Filter))
	sel := ms.Lookup(c.pkg.Types, "Match")
	if sel == nil {
		return // every occurrence goes to every subscriber
	}
	fn := sel.Obj().(*types.Func)
	sig := fn.Type().(*types.Signature)
	pos := c.fset.Position(fn.Pos())
	if sig.Params().Len() != 1 || !types.Identical(sig.Params().At(0).Type(), ev.Type) || sig.Results().Len() != 1 ||
		!types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		c.atPosition(pos, ev.FilterName+".Match", fmt.Sprintf("declare func (f %s) Match(e %s) bool", ev.FilterName, ev.TypeName), "Match of an event filter has the wrong signature")
		return
	}
	ev.HasMatch = true
	_, ev.MatchPtr = sig.Recv().Type().(*types.Pointer)
}

// eventsFile is events.go: the events of the server.
func (e *emitter) eventsFile() *jen.File {
	s := e.s
	f := e.newFile()
	f.Anon("embed")
	var entries []jen.Code
	for _, ev := range s.Events {
		v := "event" + ev.TypeName
		f.Comment("//go:embed schemas/event." + ev.Name + ".input.json")
		f.Var().Id(v + "Input").Index().Byte()
		f.Comment("//go:embed schemas/event." + ev.Name + ".payload.json")
		f.Var().Id(v + "Payload").Index().Byte()
		var fs fields
		fs.add("Name", jen.Lit(ev.Name))
		fs.addString("Description", ev.Description)
		fs.add("InputSchema", jen.Id(v+"Input"))
		fs.add("PayloadSchema", jen.Id(v+"Payload"))
		fs.addString("Scope", ev.Scope)
		if ev.HasMatch {
			fs.add("Match", jen.Id("match"+ev.TypeName))
		}
		fs.add("Accepts", jen.Func().Params(jen.Id("v").Any()).Bool().Block(
			jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("v").Assert(e.comp(ev.TypeName)),
			jen.Return(jen.Id("ok")),
		))
		entries = append(entries, jen.Values(fs.lines()...))
	}
	f.Comment("events lists the server's events (//mcp:event); components emit")
	f.Comment("them with mcpgen.Emit(ctx, component.EventType{...}).")
	f.Func().Id("events").Params().Index().Add(rt("EventType")).Block(
		jen.Return(jen.Index().Add(rt("EventType")).Values(entries...)),
	)
	for _, ev := range s.Events {
		if !ev.HasMatch {
			continue
		}
		f.Line()
		f.Commentf("match%s decodes a subscription's arguments (%s) and an occurrence,", ev.TypeName, ev.FilterName)
		f.Comment("and asks the filter; what does not decode matches nothing.")
		f.Func().Id("match"+ev.TypeName).Params(jen.List(jen.Id("args"), jen.Id("data")).Qual(jsonPkg, "RawMessage")).Bool().Block(
			jen.Var().Id("filter").Add(e.comp(ev.FilterName)),
			jen.Var().Id("ev").Add(e.comp(ev.TypeName)),
			jen.If(jen.Qual(jsonPkg, "Unmarshal").Call(jen.Id("args"), jen.Op("&").Id("filter")).Op("!=").Nil().Op("||").
				Qual(jsonPkg, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("ev")).Op("!=").Nil()).Block(jen.Return(jen.False())),
			jen.Return(jen.Id("filter").Dot("Match").Call(jen.Id("ev"))),
		)
	}
	return f
}

// checkEmits checks every value the package emits, the argument of
// mcpgen.Emit and the Event of an mcpgen.FeedEvent literal: it must be of
// one of the package's //mcp:event types, which the runtime finds the
// event by. Both take any, so the compiler cannot say it; the generator
// can, where the value is given.
func (c *checker) checkEmits(s *server) {
	for _, f := range c.pkg.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if len(n.Args) == 2 && c.isRuntimeFunc(n.Fun, "Emit") {
					c.checkEmitted(s, n.Args[1], "mcpgen.Emit")
				}
			case *ast.CompositeLit:
				if ev := c.feedEventValue(n); ev != nil {
					c.checkEmitted(s, ev, "mcpgen.FeedEvent")
				}
			}
			return true
		})
	}
}

// checkEmitted reports v, emitted through what, unless it is of an event
// type of s.
func (c *checker) checkEmitted(s *server, v ast.Expr, what string) {
	t := types.Unalias(c.pkg.TypesInfo.TypeOf(v))
	if allEvents(s, t) {
		return
	}
	var names []string
	for _, ev := range s.Events {
		names = append(names, ev.TypeName)
	}
	hint := "declare the type with //mcp:event, or emit a value of an event type"
	if len(names) > 0 {
		hint = "emit a value of an //mcp:event type of this package: " + strings.Join(names, ", ")
	}
	c.at(v.Pos(), what, hint, "%s is not an //mcp:event type: recording it would fail when it runs", types.TypeString(t, types.RelativeTo(c.pkg.Types)))
}

// feedEventValue is the Event of lit when lit is an mcpgen.FeedEvent
// literal that gives one.
func (c *checker) feedEventValue(lit *ast.CompositeLit) ast.Expr {
	named, ok := types.Unalias(c.pkg.TypesInfo.TypeOf(lit)).(*types.Named)
	if !ok || named.Obj().Name() != "FeedEvent" || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != runtimeModule {
		return nil
	}
	for i, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Event" {
				return kv.Value
			}
		} else if i == 1 { // FeedEvent{partition, event}
			return el
		}
	}
	return nil
}

// allEvents reports whether every value of type t is of an event type of
// s: t is one, or a type parameter whose constraint allows only them
// (func emit[E EntityChanged | RelationChanged]).
func allEvents(s *server, t types.Type) bool {
	isEvent := func(t types.Type) bool {
		for _, ev := range s.Events {
			if types.Identical(t, ev.Type) {
				return true
			}
		}
		return false
	}
	tp, ok := t.(*types.TypeParam)
	if !ok {
		return isEvent(t)
	}
	iface, _ := tp.Constraint().Underlying().(*types.Interface)
	if iface == nil || iface.NumEmbeddeds() != 1 || iface.NumMethods() != 0 {
		return false
	}
	switch e := iface.EmbeddedType(0).(type) {
	case *types.Union:
		for i := range e.Len() {
			if term := e.Term(i); term.Tilde() || !isEvent(term.Type()) {
				return false
			}
		}
		return true
	default:
		return isEvent(e)
	}
}

// isRuntimeFunc reports whether fun names the runtime's function name.
func (c *checker) isRuntimeFunc(fun ast.Expr, name string) bool {
	var id *ast.Ident
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	fn, ok := c.pkg.TypesInfo.Uses[id].(*types.Func)
	return ok && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == runtimeModule
}
