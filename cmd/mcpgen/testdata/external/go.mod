module example.com/notes

go 1.26.8

require github.com/mcpgen/mcpgen v0.0.0-00010101000000-000000000000

// The external-module test points this at the checkout it runs in.
replace github.com/mcpgen/mcpgen => ../../../..

tool github.com/mcpgen/mcpgen/cmd/mcpgen
