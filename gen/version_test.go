package gen

import (
	"runtime/debug"
	"testing"
)

// The version in the header is a release's when mcpgen comes from a
// module, and "(devel)" when it is built from files whose version says
// nothing stable (a checkout, a replacing directory), so that -check
// passes on every machine and at every commit of such a build.
func TestModuleVersion(t *testing.T) {
	mod := func(path, version string, replace *debug.Module) debug.Module {
		return debug.Module{Path: path, Version: version, Replace: replace}
	}
	for _, c := range []struct {
		name string
		bi   debug.BuildInfo
		want string
	}{
		{"go install @version", debug.BuildInfo{Main: mod(runtimeModule, "v1.2.3", nil)}, "v1.2.3"},
		{"checkout without VCS stamp", debug.BuildInfo{Main: mod(runtimeModule, "(devel)", nil)}, devel},
		{"checkout with VCS stamp", debug.BuildInfo{Main: mod(runtimeModule, "v1.2.4-0.20260101000000-abcdef123456+dirty", nil),
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdef123456"}}}, devel},
		{"go tool", debug.BuildInfo{Main: mod("example.com/app", "(devel)", nil), Deps: []*debug.Module{ptr(mod(runtimeModule, "v1.2.3", nil))}}, "v1.2.3"},
		{"replaced by a directory", debug.BuildInfo{Main: mod("example.com/app", "(devel)", nil),
			Deps: []*debug.Module{ptr(mod(runtimeModule, "v0.0.0-00010101000000-000000000000", ptr(mod("/home/me/mcpgen", "", nil))))}}, devel},
		{"replaced by a fork", debug.BuildInfo{Main: mod("example.com/app", "(devel)", nil),
			Deps: []*debug.Module{ptr(mod(runtimeModule, "v1.2.3", ptr(mod("github.com/me/mcpgen", "v1.2.4", nil))))}}, "v1.2.4"},
	} {
		if got := moduleVersion(&c.bi); got != c.want {
			t.Errorf("%s: moduleVersion = %q, want %q", c.name, got, c.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }
