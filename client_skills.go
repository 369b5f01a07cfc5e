package mcpgen

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v4"
)

// This file is the client side of the skills extension
// (io.modelcontextprotocol/skills): list the skills a server offers, and
// load one file at a time, verified against the skill's entry, so that
// nothing a server sends is used unless it is what the entry promised.

// SkillInfo is one skill as skills/list and skills/get describe it: the
// URI of its SKILL.md, its frontmatter (name, description ...), and its
// files with their digests and sizes, or "dynamic" for a skill whose
// files the server generates when read.
type SkillInfo struct {
	// URI is the address of the skill's SKILL.md.
	URI string `json:"uri"`
	// Frontmatter is the SKILL.md frontmatter as a JSON object (name,
	// description ...).
	Frontmatter json.RawMessage `json:"frontmatter,omitempty"`
	// Resources lists the skill's files as the server sent it: an array
	// of entries (see [SkillInfo.Files]) or "dynamic".
	Resources json.RawMessage `json:"resources,omitempty"`
	// Meta is the entry's _meta object.
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// SkillFileInfo is one file of a skill's entry: where to read it, and the
// digest ("sha256:<hex>") and size its content must have.
type SkillFileInfo struct {
	// URI is where to read the file.
	URI string `json:"uri"`
	// Digest is "sha256:<hex>" of the file's content.
	Digest string `json:"digest,omitempty"`
	// Size is the content's length in bytes; nil when the entry does not
	// say.
	Size *int64 `json:"size,omitempty"`
}

// Files returns the skill's files as its entry lists them; false for a
// dynamic skill, whose files carry no digests to verify.
func (s *SkillInfo) Files() ([]SkillFileInfo, bool) {
	var files []SkillFileInfo
	if json.Unmarshal(s.Resources, &files) != nil {
		return nil, false
	}
	return files, true
}

// ErrSkillVerification is wrapped by every failure of [Client.ReadSkillFile]
// to verify a file against its skill's entry: a size or digest that
// differs, or a SKILL.md whose frontmatter is not the entry's.
var ErrSkillVerification = errors.New("skill file verification failed")

// ListSkills lists every skill the server offers, following every page.
// It reads none of their files.
func (c *Client) ListSkills(ctx context.Context) ([]SkillInfo, error) {
	return listAll[SkillInfo](ctx, c, "skills/list", "skills", nil)
}

// GetSkill returns the entry of the skill whose SKILL.md is at uri.
func (c *Client) GetSkill(ctx context.Context, uri string) (*SkillInfo, error) {
	raw, err := c.call(ctx, "skills/get", map[string]any{"uri": uri}, uri)
	if err != nil {
		return nil, fmt.Errorf("skills/get %s: %w", uri, err)
	}
	var res struct {
		Skill SkillInfo `json:"skill"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("skills/get %s: decode result: %w", uri, err)
	}
	return &res.Skill, nil
}

// ReadSkillFile reads the file uri of skill (skill.URI for its SKILL.md)
// and verifies it against the skill's entry before returning its bytes:
// the size, then the digest, and for SKILL.md the frontmatter, field by
// field. A file that fails is never returned; the error wraps
// [ErrSkillVerification]. A static skill's entry lists every file, so
// a URI it does not list is refused; a dynamic skill's files come with no
// digests and are returned as read.
func (c *Client) ReadSkillFile(ctx context.Context, skill *SkillInfo, uri string) ([]byte, error) {
	files, static := skill.Files()
	var want *SkillFileInfo
	for i := range files {
		if files[i].URI == uri {
			want = &files[i]
		}
	}
	if static && want == nil {
		return nil, fmt.Errorf("skill %s: %s is not one of its files", skill.URI, uri)
	}
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	if len(res.Contents) != 1 {
		return nil, fmt.Errorf("skill %s: reading %s gave %d contents, want 1", skill.URI, uri, len(res.Contents))
	}
	var body []byte
	switch rc := res.Contents[0]; {
	case rc.Text != nil:
		body = []byte(*rc.Text)
	default:
		if body, err = base64.StdEncoding.DecodeString(rc.Blob); err != nil {
			return nil, fmt.Errorf("skill %s: %s: decode blob: %w", skill.URI, uri, err)
		}
	}
	if want != nil {
		if want.Size != nil && int64(len(body)) != *want.Size {
			return nil, fmt.Errorf("%w: %s has %d bytes, its entry says %d", ErrSkillVerification, uri, len(body), *want.Size)
		}
		sum := sha256.Sum256(body)
		if got := "sha256:" + hex.EncodeToString(sum[:]); !strings.EqualFold(got, want.Digest) {
			return nil, fmt.Errorf("%w: %s has digest %s, its entry says %q", ErrSkillVerification, uri, got, want.Digest)
		}
	}
	if uri == skill.URI && len(skill.Frontmatter) > 0 {
		if err := sameFrontmatter(body, skill.Frontmatter); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrSkillVerification, uri, err)
		}
	}
	return body, nil
}

// sameFrontmatter checks that the YAML frontmatter of a SKILL.md holds
// exactly the fields and values of the entry's frontmatter.
func sameFrontmatter(skillMD []byte, entry json.RawMessage) error {
	text := strings.TrimPrefix(string(skillMD), "\ufeff")
	lines := strings.SplitAfter(text, "\n")
	if strings.TrimRight(lines[0], "\r\n") != "---" {
		return errors.New("no frontmatter")
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t\r\n") == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return errors.New("the frontmatter is not closed")
	}
	var fm map[string]any
	if err := yaml.Unmarshal([]byte(strings.Join(lines[1:end], "")), &fm); err != nil {
		return fmt.Errorf("frontmatter: %w", err)
	}
	// Compare as JSON values: YAML's and JSON's numbers and maps differ
	// in Go types, not in meaning.
	b, err := json.Marshal(fm)
	if err != nil {
		return fmt.Errorf("frontmatter: %w", err)
	}
	var got, want map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		return fmt.Errorf("frontmatter: %w", err)
	}
	if err := json.Unmarshal(entry, &want); err != nil {
		return fmt.Errorf("the entry's frontmatter: %w", err)
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			return fmt.Errorf("frontmatter field %q is %v in the file and %v in the entry", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			return fmt.Errorf("frontmatter field %q is in the file but not in the entry", k)
		}
	}
	return nil
}
