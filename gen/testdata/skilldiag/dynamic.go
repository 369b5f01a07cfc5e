package skilldiag

import (
	"context"

	"github.com/mcpgen/mcpgen"
)

// This file holds the mistakes of //mcp:skill on a type (a dynamic skill):
// its name and description are checked as SKILL.md frontmatter is, and its
// Files method's signature as a handler's.

// BadName is a dynamic skill whose name breaks the Agent Skills rules.
//
/* want `skill Bad_Name: name "Bad_Name" contains 'B'` */ //mcp:skill name=Bad_Name
type BadName struct{}

func (BadName) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// TooLong has a name longer than 64 characters.
//
/* want `is 65 characters long` */ //mcp:skill name=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
type TooLong struct{}

func (TooLong) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

//mcp:skill
type Undescribed struct{} // want `skill undescribed: missing description`

func (Undescribed) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// Blank has a blank description= that overrides its doc comment.
//
/* want `skill blank: missing description` */ //mcp:skill description=" "
type Blank struct{}

func (Blank) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// Wordy has a description over the 1024-character limit.
//
/* want `skill wordy: description is 1025 characters long; the limit is 1024` */ //mcp:skill description="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
type Wordy struct{}

func (Wordy) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// Unknown has a key dynamic skills do not take.
//
/* want `//mcp:skill: unknown key "license"` */ //mcp:skill license=MIT
type Unknown struct{}

func (Unknown) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// Prefixed has a prefix with a bad segment.
//
/* want `//mcp:skill: prefix segment "Ops" contains 'O'` */ //mcp:skill prefix=acme/Ops
type Prefixed struct{}

func (Prefixed) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// NoFiles has no Files method.
//
//mcp:skill
type NoFiles struct{} // want `NoFiles: missing method Files`

// NoContext forgets the context.
//
//mcp:skill
type NoContext struct{}

func (NoContext) Files(req *mcpgen.Request) ([]mcpgen.SkillFile, error) { return nil, nil } // want `NoContext.Files: skill handler must take a context.Context first`

// WrongResult returns strings.
//
//mcp:skill
type WrongResult struct{}

func (WrongResult) Files(ctx context.Context) ([]string, error) { return nil, nil } // want `WrongResult.Files: skill Files returns \[\]string, not \[\]mcpgen.SkillFile`

// NoError returns no error.
//
//mcp:skill
type NoError struct{}

func (NoError) Files(ctx context.Context) []mcpgen.SkillFile { return nil } // want `NoError.Files: skill handler must return a result and an error`

// BadDep takes a parameter the server cannot supply.
//
//mcp:skill
type BadDep struct{}

func (BadDep) Files(ctx context.Context, n int) ([]mcpgen.SkillFile, error) { return nil, nil } // want `BadDep.Files: the server cannot supply a parameter of type int`

// Good is a dynamic skill at the path of the embedded skill good.
//
//mcp:skill
type Good struct{} // want `skill good: two skills at skill://good`

func (Good) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }

// hidden is a dynamic skill the generated package cannot name.
//
//mcp:skill
type hidden struct{} // want `hidden: component type is not exported`

func (hidden) Files(ctx context.Context) ([]mcpgen.SkillFile, error) { return nil, nil }
