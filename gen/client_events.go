package gen

import (
	"github.com/dave/jennifer/jen"
)

// eventsFile is events.go of the typed client: Poll<Event> per event,
// its arguments and data typed.
func (ce *clientEmitter) eventsFile() *jen.File {
	f := ce.newFile()
	for i, ev := range ce.s.Events {
		if i > 0 {
			f.Line()
		}
		data := ce.types.code(ev.Type)
		var args jen.Code = jen.Id("args").Map(jen.String()).Any()
		argName := jen.Id("args")
		if ev.Filter != nil {
			args = jen.Id("args").Add(ce.types.code(ev.Filter))
		} else {
			args = nil
			argName = jen.Map(jen.String()).Any().Values()
		}
		f.Commentf("Poll%s polls the event %s from cursor (nil: from now, which", ev.TypeName, ev.Name)
		f.Comment("returns no events and the cursor to start from); persist the page's")
		f.Comment("Cursor and poll with it next, after a restart too.")
		if d := docLines(ev.Description); d != "" {
			f.Comment("//")
			f.Comment(comment(d))
		}
		params := []jen.Code{jen.Id("ctx").Qual(ctxPkg, "Context")}
		if args != nil {
			params = append(params, args)
		}
		params = append(params, jen.Id("cursor").Op("*").String())
		f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id("Poll"+ev.TypeName).Params(params...).Params(
			jen.Op("*").Add(rt("EventPage")).Types(data), jen.Error(),
		).Block(jen.Return(rt("PollEvents").Types(data).Call(jen.Id("ctx"), jen.Id("c").Dot("c"), jen.Lit(ev.Name), argName, jen.Id("cursor"))))
	}
	return f
}
