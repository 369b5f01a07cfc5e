package mcpgen

// Rebuilds generated/ from the annotated packages under components/.
//go:generate go run ./cmd/mcpgen -out generated ./components/...
