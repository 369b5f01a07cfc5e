module example.com/caller

go 1.26.8

require (
	example.com/notes v0.0.0-00010101000000-000000000000
	github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000
)

// The external-module test points these at the notes module it generated
// and at the checkout it runs in.
replace (
	example.com/notes => ../external
	github.com/mcpgen/mcpgen => ../../../..
)
