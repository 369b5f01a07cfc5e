// Package skills holds the rules of Agent Skills (agentskills.io) and of the
// MCP Skills extension (io.modelcontextprotocol/skills, SEP-2640) that the
// generator and the runtime share: the extension's identifiers and limits,
// skill name rules, file digests and MIME types. Both sides use the same
// functions, so what mcpgen checks and digests at generate time is exactly
// what the server verifies and serves at run time.
package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// Identifiers and limits of the extension.
const (
	// Extension is the capability key under capabilities.extensions.
	Extension = "io.modelcontextprotocol/skills"
	// Scheme is the URI scheme of skill files: skill://<skill-path>/<file>.
	Scheme = "skill://"
	// Manifest is the file every skill has at its root.
	Manifest = "SKILL.md"
	// DirectoryMimeType marks directory resources (resources/directory/read).
	DirectoryMimeType = "inode/directory"
	// MaxFiles and MaxBytes are the per-skill limits every host accepts:
	// 512 files, SKILL.md included, and 16 MiB in total.
	MaxFiles = 512
	MaxBytes = 16 << 20
	// MaxNameLen, MaxDescriptionLen and MaxCompatibilityLen are the
	// Agent Skills length limits, in characters.
	MaxNameLen          = 64
	MaxDescriptionLen   = 1024
	MaxCompatibilityLen = 500
	// ReservedMetadataPrefix starts frontmatter metadata keys reserved for
	// MCP extensions; this extension defines none, so none may be used.
	ReservedMetadataPrefix = "io.modelcontextprotocol/"
)

// Fields lists the frontmatter fields the Agent Skills specification
// defines; any other top-level field belongs under metadata.
var Fields = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// CheckName reports why name is not a valid skill name, or "" when it is:
// 1-64 characters of a-z, 0-9 and '-', not starting or ending with '-',
// without "--".
func CheckName(name string) string {
	switch {
	case name == "":
		return "is empty"
	case utf8.RuneCountInString(name) > MaxNameLen:
		return fmt.Sprintf("is %d characters long; the limit is %d", utf8.RuneCountInString(name), MaxNameLen)
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		return "starts or ends with a hyphen"
	case strings.Contains(name, "--"):
		return "contains consecutive hyphens"
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return fmt.Sprintf("contains %q; only lowercase letters a-z, digits and hyphens are allowed", c)
		}
	}
	return ""
}

// CheckPrefixSegment reports why seg cannot be a segment of a skill path
// prefix, or "" when it can: the same characters as a name, plus '.', so
// that the first segment is a valid URI authority (RFC 3986 reg-name).
func CheckPrefixSegment(seg string) string {
	if seg == "" {
		return "is empty"
	}
	for _, c := range seg {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return fmt.Sprintf("contains %q; use lowercase letters a-z, digits, '-' and '.'", c)
		}
	}
	return ""
}

// Digest returns the extension's digest of a file: "sha256:" and 64
// lowercase hex digits of the SHA-256 of its raw bytes.
func Digest(content []byte) string {
	sum := sha256.Sum256(content)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// URI returns the resource URI of file (a slash path relative to the skill
// root) of the skill at skillPath.
func URI(skillPath, file string) string { return Scheme + skillPath + "/" + file }

// IsText reports whether content is served as text (valid UTF-8 without NUL
// bytes) rather than as a base64 blob. Both carry the same bytes, so the
// digest holds either way.
func IsText(content []byte) bool {
	return utf8.Valid(content) && !strings.ContainsRune(string(content), 0)
}

// MimeType returns the MIME type a skill file is served with. It depends
// only on the file's name and content (never on the machine's MIME
// database), so generated code is the same everywhere.
func MimeType(name string, content []byte) string {
	if t, ok := mimeTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	if IsText(content) {
		return "text/plain"
	}
	return "application/octet-stream"
}

var mimeTypes = map[string]string{
	".md":       "text/markdown",
	".markdown": "text/markdown",
	".txt":      "text/plain",
	".text":     "text/plain",
	".csv":      "text/csv",
	".tsv":      "text/tab-separated-values",
	".html":     "text/html",
	".htm":      "text/html",
	".css":      "text/css",
	".xml":      "application/xml",
	".json":     "application/json",
	".jsonl":    "application/jsonl",
	".yaml":     "application/yaml",
	".yml":      "application/yaml",
	".toml":     "application/toml",
	".sql":      "application/sql",
	".js":       "text/javascript",
	".mjs":      "text/javascript",
	".ts":       "text/x-typescript",
	".py":       "text/x-python",
	".sh":       "text/x-shellscript",
	".bash":     "text/x-shellscript",
	".rb":       "text/x-ruby",
	".go":       "text/x-go",
	".java":     "text/x-java",
	".c":        "text/x-c",
	".h":        "text/x-c",
	".rs":       "text/x-rust",
	".svg":      "image/svg+xml",
	".png":      "image/png",
	".jpg":      "image/jpeg",
	".jpeg":     "image/jpeg",
	".gif":      "image/gif",
	".webp":     "image/webp",
	".pdf":      "application/pdf",
	".zip":      "application/zip",
}
