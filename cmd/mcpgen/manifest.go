package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/gen/surface"
)

// manifestVersion is the MCP Bundle manifest format mcpgen writes: 0.3,
// the current one of @anthropic-ai/mcpb (0.4 only adds the uv server
// type and is marked experimental).
const manifestVersion = "0.3"

// manifest is an MCP Bundle's manifest.json, the fields mcpgen fills.
// The format is defined by the zod schemas of @anthropic-ai/mcpb
// (dist/schemas/0.3.js) and its MANIFEST.md.
type manifest struct {
	ManifestVersion string                `json:"manifest_version"`
	Name            string                `json:"name"`
	DisplayName     string                `json:"display_name,omitempty"`
	Version         string                `json:"version"`
	Description     string                `json:"description"`
	Author          manifestAuthor        `json:"author"`
	Repository      *manifestRepository   `json:"repository,omitempty"`
	Server          manifestServer        `json:"server"`
	Tools           []manifestTool        `json:"tools,omitempty"`
	Prompts         []manifestPrompt      `json:"prompts,omitempty"`
	Compatibility   manifestCompatibility `json:"compatibility"`
	UserConfig      map[string]userOption `json:"user_config,omitempty"`
}

type manifestAuthor struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type manifestRepository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

type manifestServer struct {
	Type       string    `json:"type"`
	EntryPoint string    `json:"entry_point"`
	MCPConfig  mcpConfig `json:"mcp_config"`
}

type mcpConfig struct {
	Command           string                      `json:"command"`
	Args              []string                    `json:"args,omitempty"`
	PlatformOverrides map[string]platformOverride `json:"platform_overrides,omitempty"`
}

type platformOverride struct {
	Command string `json:"command"`
}

type manifestTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

type manifestPrompt struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Arguments   []string `json:"arguments,omitempty"`
	Text        string   `json:"text"`
}

type manifestCompatibility struct {
	Platforms []string `json:"platforms"`
}

// userOption is one entry of user_config: what a desktop client asks the
// user before it starts the server.
type userOption struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required,omitempty"`
	Default     any    `json:"default,omitempty"`
}

// registryEntry is the part of generated/<server>/server.json the
// manifest uses.
type registryEntry struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Version     string `json:"version"`
	Repository  struct {
		URL string `json:"url"`
	} `json:"repository"`
}

// platform is one GOOS/GOARCH pair a bundle carries a binary for.
type platform struct{ OS, Arch string }

func (p platform) String() string { return p.OS + "/" + p.Arch }

// nodePlatform is the name of p's OS in the manifest: Node's
// process.platform, which the client compares with compatibility.platforms
// and the keys of platform_overrides.
func (p platform) nodePlatform() string {
	if p.OS == "windows" {
		return "win32"
	}
	return p.OS
}

// binaryPath is where the bundle holds the server binary for p, relative
// to the bundle's root.
func (p platform) binaryPath(command string) string {
	name := command
	if p.OS == "windows" {
		name += ".exe"
	}
	return path.Join("server", p.OS+"-"+p.Arch, name)
}

// launcherPath is where the bundle holds the launcher of the binaries of
// goos, when it has more than one.
func launcherPath(command, goos string) string {
	return path.Join("server", command+"-"+goos+".sh")
}

// bundleInput is everything a manifest is made of.
type bundleInput struct {
	Command     string // the main package's binary name, mcp-memory
	Surface     *surface.Surface
	SurfaceFile string         // where Surface was read, for messages
	Registry    *registryEntry // nil when the server has no server.json
	Author      string         // -author, or "" to derive it from the repository
	Flags       []mainFlag     // the flags the main package declares, in order
	Platforms   []platform     // sorted by OS, then architecture
}

// buildManifest fills the manifest of a bundle of in's server, and
// returns the launchers it needs beside the binaries (path -> content).
//
// The manifest format chooses a command per OS only: mcp_config.command
// and its platform_overrides are keyed by Node's process.platform (darwin,
// linux, win32), with nothing for the CPU architecture. An OS with one
// architecture in the bundle runs its binary directly. An OS with several
// (darwin/amd64 and darwin/arm64, say) runs a POSIX sh launcher,
// server/<command>-<os>.sh, that execs the binary matching `uname -m`.
// Windows has no sh, so a bundle carries at most one Windows architecture
// (windows/amd64 also runs on arm64 Windows under emulation).
//
// Every flag of the main package becomes a user_config entry passed as
// --name=${user_config.name}: see flagOption for how each is typed.
//
// Hosts substitute placeholders in the manifest (see literal), so no text
// from the server's source becomes one: prose keeps its words with each
// "${" broken, names and flag defaults holding one are refused (every
// such mistake in one error), and checkPlaceholders verifies that the
// only placeholders left are mcpgen's own.
func buildManifest(in bundleInput) (*manifest, map[string]string, error) {
	s := in.Surface
	from := in.SurfaceFile
	if from == "" {
		from = "surface.json"
	}
	var refused []string
	checkName := func(what, name, fix string) string {
		if strings.ContainsAny(name, "${}") {
			refused = append(refused, fmt.Sprintf("%s: %s %q: a name in a bundle cannot hold $, { or }, which MCP Bundle hosts read as (part of) a ${...} placeholder and substitute\n\t%s", from, what, name, fix))
		}
		return name
	}
	rerun := "rename it in the server's source and run mcpgen again"
	m := &manifest{
		ManifestVersion: manifestVersion,
		Name:            checkName("server", s.Server.Name, rerun),
		DisplayName:     literal(s.Server.Title),
		Version:         checkName("server version", s.Server.Version, "change //mcp:server version= and run mcpgen again"),
		Server:          manifestServer{Type: "binary"},
	}
	if m.Version == "" {
		m.Version = "0.0.0"
	}
	repo := ""
	if r := in.Registry; r != nil {
		m.Description = r.Description
		repo = r.Repository.URL
		if r.Version != "" && s.Server.Version == "" {
			m.Version = checkName("server version", r.Version, "change //mcp:server version= and run mcpgen again")
		}
	}
	if m.Description == "" {
		m.Description = firstSentence(s.Server.Instructions)
	}
	if m.Description == "" {
		m.Description = "The " + s.Server.Name + " MCP server"
	}
	m.Description = literal(m.Description)
	if repo != "" {
		m.Repository = &manifestRepository{Type: "git", URL: literalURL(repo)}
	}
	m.Author.Name = literal(in.Author)
	if m.Author.Name == "" {
		owner, home, ok := repositoryOwner(repo)
		if !ok {
			return nil, nil, fmt.Errorf("no author: server %s names no repository (//mcp:server repository=) to take the owner from; pass -author NAME", s.Server.Name)
		}
		m.Author = manifestAuthor{Name: literal(owner), URL: literalURL(home)}
	}

	for _, t := range s.Tools {
		if len(t.Visibility) > 0 && !slices.Contains(t.Visibility, "model") {
			// Only the server's views call it (MCP Apps): the manifest
			// lists what the model is offered, and a host that shows
			// views lists it to the view, not to the user.
			continue
		}
		m.Tools = append(m.Tools, manifestTool{Name: checkName("tool", t.Name, rerun), Description: literal(t.Description)})
	}
	for _, p := range s.Prompts {
		checkName("prompt", p.Name, rerun)
		for _, a := range p.Arguments {
			checkName("prompt "+p.Name+": argument", a.Name, "rename it with its json tag and run mcpgen again")
		}
		m.Prompts = append(m.Prompts, promptEntry(p))
	}
	checkName("command", in.Command, "rename the main package's directory")

	launchers := map[string]string{}
	byOS := map[string][]platform{}
	var oses []string
	for _, p := range in.Platforms {
		if _, ok := byOS[p.OS]; !ok {
			oses = append(oses, p.OS)
		}
		byOS[p.OS] = append(byOS[p.OS], p)
	}
	for i, goos := range oses {
		ps := byOS[goos]
		var rel string
		switch {
		case len(ps) == 1:
			rel = ps[0].binaryPath(in.Command)
		case goos == "windows":
			return nil, nil, fmt.Errorf("more than one windows architecture (%s): a bundle can only choose its command per OS, and Windows has no sh for a launcher; keep one (windows/amd64 also runs on arm64 Windows)", joinPlatforms(ps))
		default:
			rel = launcherPath(in.Command, goos)
			text, err := launcher(in.Command, ps)
			if err != nil {
				return nil, nil, err
			}
			launchers[rel] = text
		}
		cmd := "${__dirname}/" + rel
		if i == 0 {
			m.Server.EntryPoint = rel
			m.Server.MCPConfig.Command = cmd
		} else {
			if m.Server.MCPConfig.PlatformOverrides == nil {
				m.Server.MCPConfig.PlatformOverrides = map[string]platformOverride{}
			}
			m.Server.MCPConfig.PlatformOverrides[ps[0].nodePlatform()] = platformOverride{Command: cmd}
		}
		m.Compatibility.Platforms = append(m.Compatibility.Platforms, ps[0].nodePlatform())
	}

	seen := map[string]bool{}
	for _, f := range in.Flags {
		if seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		opt, ok := flagOption(f)
		if !ok {
			continue
		}
		if strings.ContainsAny(f.Name, "${}") {
			refused = append(refused, fmt.Sprintf("%s: flag -%s: its name holds $, { or }, and the manifest passes it as --%s=${user_config.%s}, a placeholder MCP Bundle hosts substitute\n\trename the flag", f.NamePos, f.Name, f.Name, f.Name))
			continue
		}
		if d, ok := f.Default.(string); ok && strings.Contains(d, "${") {
			refused = append(refused, fmt.Sprintf("%s: flag -%s: its default %q holds \"${\", which MCP Bundle hosts would substitute where the manifest passes the default (${user_config.KEY} is one of the user's settings, maybe a secret)\n\tdefault to text without \"${\" (a relative file or directory default is taken in ${HOME}), or compute the default in code", f.DefaultPos, f.Name, d))
			continue
		}
		if m.UserConfig == nil {
			m.UserConfig = map[string]userOption{}
		}
		m.UserConfig[f.Name] = opt
		m.Server.MCPConfig.Args = append(m.Server.MCPConfig.Args, "--"+f.Name+"=${user_config."+f.Name+"}")
	}
	if len(refused) > 0 {
		return nil, nil, errors.New(strings.Join(refused, "\n"))
	}
	if err := checkPlaceholders(m); err != nil {
		return nil, nil, err
	}
	return m, launchers, nil
}

// literal is prose from the server's source (a description, a title, a
// flag's usage) made safe to put in a manifest. MCP Bundle hosts replace
// ${__dirname}, ${HOME}, ${user_config.KEY} and the like in mcp_config,
// and ${arguments.NAME} in a prompt's text; the format has no escape, and
// a host may substitute in other fields too. So every "${" is broken into
// "$ {": the words stay readable, and none of them can become a
// placeholder (a description saying ${user_config.token} must not be
// filled with a user's token).
func literal(s string) string { return strings.ReplaceAll(s, "${", "$ {") }

// literalURL is a URL from the server's source made safe the same way,
// with the brace percent-encoded so that it stays the same URL.
func literalURL(s string) string { return strings.ReplaceAll(s, "${", "$%7B") }

// checkPlaceholders verifies that every "${" in m, in any string or key
// of its JSON, begins a placeholder mcpgen wrote on purpose: ${__dirname}
// in a command, ${user_config.KEY} of a declared KEY in the arguments,
// ${HOME} in a default, ${arguments.NAME} of the prompt's own arguments
// in its text. Anything else is a field that missed literal.
func checkPlaceholders(m *manifest) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("internal error: manifest: %v; please report", err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("internal error: manifest: %v; please report", err)
	}
	var bad []string
	var walk func(at []string, v any)
	walk = func(at []string, v any) {
		switch v := v.(type) {
		case string:
			rest := v
			for _, p := range ownPlaceholders(m, at) {
				rest = strings.ReplaceAll(rest, p, "")
			}
			if strings.Contains(rest, "${") {
				bad = append(bad, fmt.Sprintf("%s %q", strings.Join(at, "."), v))
			}
		case []any:
			for i, e := range v {
				walk(append(slices.Clip(at), strconv.Itoa(i)), e)
			}
		case map[string]any:
			for k, e := range v {
				if strings.Contains(k, "${") {
					bad = append(bad, fmt.Sprintf("%s key %q", strings.Join(at, "."), k))
				}
				walk(append(slices.Clip(at), k), e)
			}
		}
	}
	walk(nil, doc)
	if len(bad) > 0 {
		slices.Sort(bad)
		return fmt.Errorf("internal error: the manifest would have hosts substitute text of the server's: %s; please report", strings.Join(bad, ", "))
	}
	return nil
}

// ownPlaceholders are the placeholders mcpgen writes at the JSON path at
// of m.
func ownPlaceholders(m *manifest, at []string) []string {
	is := func(want ...string) bool {
		if len(at) != len(want) {
			return false
		}
		for i, w := range want {
			if w != "*" && w != at[i] {
				return false
			}
		}
		return true
	}
	switch {
	case is("server", "mcp_config", "command"), is("server", "mcp_config", "platform_overrides", "*", "command"):
		return []string{"${__dirname}"}
	case is("server", "mcp_config", "args", "*"):
		var ps []string
		for k := range m.UserConfig {
			ps = append(ps, "${user_config."+k+"}")
		}
		return ps
	case is("user_config", "*", "default"):
		return []string{"${HOME}"}
	case is("prompts", "*", "text"):
		i, _ := strconv.Atoi(at[1])
		var ps []string
		for _, a := range m.Prompts[i].Arguments {
			ps = append(ps, "${arguments."+a+"}")
		}
		return ps
	}
	return nil
}

// promptEntry is p in the manifest. The format requires a prompt's text;
// mcpgen prompts are rendered by Go code when they are called, so the
// text is the description with each argument as a ${arguments.NAME}
// placeholder: a summary for the client's listing, not what the server
// returns.
func promptEntry(p surface.Prompt) manifestPrompt {
	e := manifestPrompt{Name: p.Name, Description: literal(p.Description)}
	text := e.Description
	if text == "" {
		text = literal(p.Title)
	}
	if text == "" {
		text = p.Name
	}
	var b strings.Builder
	b.WriteString(text)
	for i, a := range p.Arguments {
		e.Arguments = append(e.Arguments, a.Name)
		if i == 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "\n%s: ${arguments.%s}", a.Name, a.Name)
	}
	e.Text = b.String()
	return e
}

// unameArch maps GOARCH to the names `uname -m` prints for it on Linux
// and macOS.
var unameArch = map[string][]string{
	"amd64":   {"x86_64", "amd64"},
	"arm64":   {"aarch64", "arm64"},
	"386":     {"i386", "i486", "i586", "i686", "i86pc"},
	"arm":     {"armv6l", "armv7l", "armv7", "armv8l"},
	"riscv64": {"riscv64"},
	"ppc64le": {"ppc64le"},
	"ppc64":   {"ppc64"},
	"s390x":   {"s390x"},
	"loong64": {"loongarch64"},
	"mips64":  {"mips64"},
	"mips":    {"mips"},
}

// launcher is the sh script that execs the binary of ps (several
// architectures of one OS) for the machine it runs on.
func launcher(command string, ps []platform) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n# Runs the %s binary of this bundle built for this machine's CPU.\n", command)
	b.WriteString("dir=$(dirname \"$0\")\ncase \"$(uname -m)\" in\n")
	for _, p := range ps {
		names, ok := unameArch[p.Arch]
		if !ok {
			return "", fmt.Errorf("%s: cannot tell %s machines apart by uname -m to pick among %s; bundle one architecture for %s", p, p.Arch, joinPlatforms(ps), p.OS)
		}
		fmt.Fprintf(&b, "%s) exec \"$dir/%s\" \"$@\" ;;\n", strings.Join(names, "|"), strings.TrimPrefix(p.binaryPath(command), "server/"))
	}
	fmt.Fprintf(&b, "esac\necho \"%s: this bundle has no binary for $(uname -s) $(uname -m) (it has %s)\" >&2\nexit 1\n", command, joinPlatforms(ps))
	return b.String(), nil
}

func joinPlatforms(ps []platform) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.String())
	}
	return strings.Join(s, ", ")
}

// flagOption is the user_config entry of a flag the main declares, false
// for a flag that cannot be one.
//
//   - bool flags are "boolean", integer and float flags "number";
//   - string flags whose usage names their value `file` or `path` are
//     "file", `dir`, `directory` or `folder` "directory", the others
//     (durations too) "string";
//   - the default is the flag's when it is a constant; a relative default
//     of a file or directory is taken in the user's home, ${HOME}/...,
//     since a client starts servers in no particular directory;
//   - a flag whose default is computed (from the environment, say) is
//     required: the manifest cannot leave a flag out of the command line
//     when the user gives no value, and passing an empty one would not be
//     the default the code computes;
//   - Func, BoolFunc, Var and TextVar flags are left out: their values are
//     parsed by code mcpgen cannot see.
func flagOption(f mainFlag) (userOption, bool) {
	opt := userOption{Title: "--" + f.Name, Description: literal(strings.ReplaceAll(f.Usage, "`", ""))}
	if opt.Description == "" {
		opt.Description = "The --" + f.Name + " flag"
	}
	switch f.Kind {
	case "bool":
		opt.Type = "boolean"
	case "int", "uint", "int64", "uint64", "float64":
		opt.Type = "number"
	case "string":
		opt.Type = "string"
		switch usageName(f.Usage) {
		case "file", "path":
			opt.Type = "file"
		case "dir", "directory", "folder":
			opt.Type = "directory"
		}
	case "duration":
		opt.Type = "string"
	default:
		return userOption{}, false
	}
	if f.Default == nil {
		opt.Required = true
		return opt, true
	}
	opt.Default = f.Default
	if s, ok := f.Default.(string); ok && (opt.Type == "file" || opt.Type == "directory") && s != "" && !path.IsAbs(s) && !strings.Contains(s, "://") {
		opt.Default = "${HOME}/" + s
	}
	if s, ok := f.Default.(string); ok && s == "" {
		opt.Default = nil // "" is what the flag gets from an empty field anyway
	}
	return opt, true
}

// usageName is the back-quoted name in a flag's usage, as
// flag.UnquoteUsage finds it, or "".
func usageName(usage string) string {
	_, rest, ok := strings.Cut(usage, "`")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rest, "`")
	if !ok {
		return ""
	}
	return name
}

// repositoryOwner is the owner of a repository URL
// (https://github.com/acme/tools gives acme, https://github.com/acme).
func repositoryOwner(repo string) (name, home string, ok bool) {
	u, err := url.Parse(repo)
	if err != nil || u.Host == "" {
		return "", "", false
	}
	owner, _, _ := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if owner == "" {
		return "", "", false
	}
	return owner, u.Scheme + "://" + u.Host + "/" + owner, true
}

// firstSentence is s up to the end of its first sentence.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// sortPlatforms orders ps by OS, then architecture, so that the manifest
// and the bundle do not depend on the order of -platforms.
func sortPlatforms(ps []platform) {
	slices.SortFunc(ps, func(a, b platform) int {
		if c := strings.Compare(a.OS, b.OS); c != 0 {
			return c
		}
		return strings.Compare(a.Arch, b.Arch)
	})
}
