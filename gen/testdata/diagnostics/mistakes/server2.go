// A second package doc comment with a server directive.
//
/* want `duplicate server directive` */ //mcp:server name=again
package mistakes
