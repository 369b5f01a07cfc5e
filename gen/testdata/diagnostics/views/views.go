// Package views holds the mistakes of //mcp:view and of the view= and
// visibility= keys of //mcp:tool (see ../mistakes/doc.go for the want
// comments).
//
//mcp:server name=viewmistakes
//mcp:view uri=ui://shop/cart.html file=ui/cart.html
/* want `unknown CSP key "csp.connects"` `//mcp:view: csp.frame: "'self'" is a CSP keyword` `csp.resource: "https://cdn.example.com/lib" has a path` */ //mcp:view uri=ui://shop/csp.html file=ui/cart.html name=csp csp.connects=https://api.example.com csp.frame='self' csp.resource=https://cdn.example.com/lib
/* want `permission "usb" is not a permission of the specification \(camera, microphone, geolocation, clipboardWrite\)` */ //mcp:view uri=ui://shop/perm.html file=ui/cart.html name=perm permissions=camera,usb
/* want `//mcp:view: unknown key "colour"\n\tknown keys: uri, file, dir` */ //mcp:view uri=ui://shop/key.html file=ui/cart.html name=key colour=red
/* want `//mcp:view: missing uri` */ //mcp:view file=ui/cart.html
/* want `//mcp:view: uri "https://shop.example.com/cart.html" does not start with ui://` */ //mcp:view uri=https://shop.example.com/cart.html file=ui/cart.html
/* want `need exactly one of file= and dir=` */ //mcp:view uri=ui://shop/both.html file=ui/cart.html dir=ui/panels
/* want `view ui://shop/gone.html: no file ui/gone.html` */ //mcp:view uri=ui://shop/gone.html file=ui/gone.html
/* want `view ui://shop/plain.html: ui/plain.html does not start with <!DOCTYPE html>\n\ta view is one self-contained HTML5 document` */ //mcp:view uri=ui://shop/plain.html file=ui/plain.html
/* want `uri "ui://shop/panels" does not end with /` */ //mcp:view uri=ui://shop/panels dir=ui/panels
/* want `title= with dir=` */ //mcp:view uri=ui://shop/panels/ dir=ui/panels title=Panels
/* want `dir ui/empty holds no .html file` */ //mcp:view uri=ui://shop/empty/ dir=ui/empty
/* want `file=../../../../../go.mod leaves the module` */ //mcp:view uri=ui://shop/far.html file=../../../../../go.mod
/* want `view ui://shop/cart.html: duplicate view URI` */ //mcp:view uri=ui://shop/cart.html file=ui/cart.html name=again
/* want `view ui://shop/other.html: view name "cart" is taken by ui://shop/cart.html` */ //mcp:view uri=ui://shop/other.html file=ui/cart.html
package views

import "context"

// Checkout shows the cart.
//
//mcp:tool view=ui://shop/cart.html
type Checkout struct{}

// Call checks out.
func (Checkout) Call(context.Context) (string, error) { return "ok", nil }

// Pay links a view the server does not declare.
//
/* want `tool pay: view=ui://shop/pay.html names no view of server viewmistakes\n\tdeclare it in the package doc comment: //mcp:view uri=ui://shop/pay.html file=path/to/view.html; the package declares ui://shop/cart.html, ` */ //mcp:tool view=ui://shop/pay.html
type Pay struct{}

// Call pays.
func (Pay) Call(context.Context) (string, error) { return "ok", nil }

// Refund links something that is not a view.
//
/* want `Refund: view=https://shop.example.com/refund.html does not start with ui://` `Refund: visibility holds "user"; the values are model and app` */ //mcp:tool view=https://shop.example.com/refund.html visibility=app,user
type Refund struct{}

// Call refunds.
func (Refund) Call(context.Context) (string, error) { return "ok", nil }

// Banner is a view declared on a type.
//
/* want `//mcp:view belongs in the package doc comment` */ //mcp:view uri=ui://shop/banner.html file=ui/cart.html
type Banner struct{}
