// The skills extension's client scenarios (SEP-2640): list without
// fetching, and load a skill only after its SKILL.md passed verification.
package main

import (
	"context"
	"encoding/json"
	"fmt"
)

func init() {
	scenarios["sep-2640-client-no-prefetch"] = func(ctx context.Context, url string, _ json.RawMessage) error {
		c, err := connect(ctx, url, handlers())
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.ListSkills(ctx)
		return err
	}
	for _, s := range []string{"sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"} {
		scenarios[s] = loadSkills
	}
}

// loadSkills loads every skill: its SKILL.md, verified, then its other
// files, each verified. A skill that fails verification is not used
// further; the first failure is returned.
func loadSkills(ctx context.Context, url string, _ json.RawMessage) error {
	c, err := connect(ctx, url, handlers())
	if err != nil {
		return err
	}
	defer c.Close()
	skills, err := c.ListSkills(ctx)
	if err != nil {
		return err
	}
	var first error
	for i := range skills {
		sk := &skills[i]
		if _, err := c.ReadSkillFile(ctx, sk, sk.URI); err != nil {
			if first == nil {
				first = fmt.Errorf("skill %s not loaded: %w", sk.URI, err)
			}
			continue
		}
		files, _ := sk.Files()
		for _, f := range files {
			if f.URI == sk.URI {
				continue
			}
			if _, err := c.ReadSkillFile(ctx, sk, f.URI); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}
