package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen"
)

// registrySchema is the version of the MCP registry's server.json format
// the generator writes.
const registrySchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

// registryServer is the part of the registry's server.json we fill.
type registryServer struct {
	Schema      string              `json:"$schema"`
	Name        string              `json:"name"`
	Title       string              `json:"title,omitempty"`
	Description string              `json:"description"`
	Version     string              `json:"version"`
	Repository  *registryRepository `json:"repository,omitempty"`
	Packages    []registryPackage   `json:"packages,omitempty"`
	Remotes     []registryTransport `json:"remotes,omitempty"`
}

type registryRepository struct {
	URL    string `json:"url"`
	Source string `json:"source"`
}

type registryPackage struct {
	RegistryType string `json:"registryType"`
	Identifier   string `json:"identifier"`
	Version      string `json:"version,omitempty"`
	// FileSha256 is the hex SHA-256 of the package file, which the
	// registry requires of an MCPB package; mcpgen bundle fills it in the
	// copy of server.json it writes beside the bundle (the generator
	// cannot know it: the bundle is built from the generated code).
	FileSha256 string            `json:"fileSha256,omitempty"`
	Transport  registryTransport `json:"transport"`
}

type registryTransport struct {
	Type string `json:"type"`
	URL  string `json:"url,omitempty"`
}

// registryFile is generated/<server>/server.json, the server's entry for
// the official MCP registry, filled from the //mcp:server directive.
func registryFile(s *server) (File, error) {
	r, err := registryOf(s)
	if err != nil {
		return File{}, err
	}
	b, err := encodeJSON(r)
	if err != nil {
		return File{}, internalError("server.json of %s: %v", s.Name, err)
	}
	return File{Path: path.Join(s.Name, "server.json"), Content: b}, nil
}

// registryOf is the server.json entry of s.
func registryOf(s *server) (registryServer, error) {
	r := registryServer{
		Schema: registrySchema, Name: registryNameOf(s), Title: s.Title,
		Description: descriptionOf(s), Version: s.Version,
	}
	if r.Version == "" {
		r.Version = "0.0.0" // set version= on //mcp:server to publish
	}
	if repo := repositoryOf(s); repo != "" {
		source := "github"
		if !strings.HasPrefix(repo, "https://github.com/") {
			source = strings.SplitN(strings.TrimPrefix(repo, "https://"), "/", 2)[0]
		}
		r.Repository = &registryRepository{URL: repo, Source: source}
	}
	for _, p := range s.Packages {
		typ, id, _ := strings.Cut(p, ":")
		pkg := registryPackage{RegistryType: typ, Identifier: id, Transport: registryTransport{Type: "stdio"}}
		if typ != "oci" && typ != "mcpb" { // those carry the version in the identifier
			pkg.Version = r.Version
		}
		r.Packages = append(r.Packages, pkg)
	}
	for _, u := range s.Remotes {
		r.Remotes = append(r.Remotes, registryTransport{Type: "streamable-http", URL: u})
	}
	return r, nil
}

// RegistryWithDigest returns serverJSON, a server.json the generator
// wrote, with fileSha256 set to sha256Hex on the MCPB package whose URL
// names the file bundle (its last path element), or on the only MCPB
// package when none does; ok is false when there is no such package.
func RegistryWithDigest(serverJSON []byte, bundle, sha256Hex string) (out []byte, ok bool, err error) {
	var r registryServer
	if err := json.Unmarshal(serverJSON, &r); err != nil {
		return nil, false, fmt.Errorf("server.json: %w", err)
	}
	var mcpb []int
	for i, p := range r.Packages {
		if p.RegistryType == "mcpb" {
			mcpb = append(mcpb, i)
		}
	}
	pick := -1
	for _, i := range mcpb {
		if u := r.Packages[i].Identifier; path.Base(strings.SplitN(u, "?", 2)[0]) == bundle {
			pick = i
		}
	}
	if pick < 0 && len(mcpb) == 1 {
		pick = mcpb[0]
	}
	if pick < 0 {
		return nil, false, nil
	}
	r.Packages[pick].FileSha256 = sha256Hex
	b, err := encodeJSON(r)
	return b, err == nil, err
}

// registryNameOf is registry= or, from the module path, the reverse-DNS
// namespace of its host and owner: github.com/acme/tools gives
// io.github.acme/<server>.
func registryNameOf(s *server) string {
	if s.Registry != "" {
		return s.Registry
	}
	parts := strings.Split(s.Module, "/")
	host := parts[0]
	if !strings.Contains(host, ".") {
		return "local." + sanitizeRegistry(host) + "/" + s.Name
	}
	if host == "github.com" { // the registry's namespace for GitHub accounts
		host = "github.io"
	}
	labels := strings.Split(host, ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	ns := strings.Join(labels, ".")
	if len(parts) > 1 {
		ns += "." + sanitizeRegistry(parts[1])
	}
	return ns + "/" + s.Name
}

func sanitizeRegistry(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, s)
}

// repositoryOf is repository= or, for a module on GitHub, its repository.
func repositoryOf(s *server) string {
	if s.Repository != "" {
		return s.Repository
	}
	if parts := strings.Split(s.Module, "/"); len(parts) >= 3 && parts[0] == "github.com" {
		return "https://github.com/" + parts[1] + "/" + parts[2]
	}
	return ""
}

// descriptionOf is description= or the first sentence of the package
// doc (the registry takes 100 characters), else the title.
func descriptionOf(s *server) string {
	if s.Description != "" {
		return s.Description
	}
	doc := strings.Join(strings.Fields(s.Doc), " ")
	doc = strings.TrimPrefix(doc, "Package "+s.PkgName+" is ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i+1]
	}
	if doc != "" {
		doc = strings.ToUpper(doc[:1]) + doc[1:]
	}
	if utf8.RuneCountInString(doc) > 100 {
		cut := string([]rune(doc)[:99])
		if i := strings.LastIndex(cut, " "); i > 60 {
			cut = cut[:i]
		}
		doc = strings.TrimRight(cut, " ,;:") + "…"
	}
	if doc == "" {
		doc = s.Title
	}
	if doc == "" {
		doc = "MCP server " + s.Name
	}
	return doc
}

// cardSchema is the $schema of an MCP Server Card (SEP-2127, the
// experimental extension io.modelcontextprotocol/server-card).
const cardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"

// serverCard is an MCP Server Card: the part of server.json that
// describes a remote server (identity, repository, remotes), which
// clients fetch before they connect.
type serverCard struct {
	Schema      string              `json:"$schema"`
	Name        string              `json:"name"`
	Version     string              `json:"version"`
	Description string              `json:"description"`
	Title       string              `json:"title,omitempty"`
	Repository  *registryRepository `json:"repository,omitempty"`
	Remotes     []cardRemote        `json:"remotes,omitempty"`
}

type cardRemote struct {
	Type                      string   `json:"type"`
	URL                       string   `json:"url"`
	SupportedProtocolVersions []string `json:"supportedProtocolVersions"`
}

// cardFile is generated/<server>/server-card.json, the server's MCP
// Server Card, from the same //mcp:server options as server.json: its
// name, version, description, title, repository, and a remote per
// remote= URL with the protocol revisions the runtime serves. The
// generated package embeds it and the HTTP transport serves it at the
// endpoint's URL + "/server-card".
func cardFile(s *server) (File, error) {
	r, err := registryOf(s)
	if err != nil {
		return File{}, err
	}
	c := serverCard{Schema: cardSchema, Name: r.Name, Version: r.Version, Description: r.Description, Title: r.Title, Repository: r.Repository}
	for _, u := range s.Remotes {
		c.Remotes = append(c.Remotes, cardRemote{Type: "streamable-http", URL: u, SupportedProtocolVersions: mcpgen.Versions()})
	}
	b, err := encodeJSON(c)
	if err != nil {
		return File{}, internalError("server-card.json of %s: %v", s.Name, err)
	}
	return File{Path: path.Join(s.Name, "server-card.json"), Content: b}, nil
}

// encodeJSON is v as indented JSON without HTML escaping, ending in a
// newline.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
