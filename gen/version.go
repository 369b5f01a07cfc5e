package gen

import (
	"runtime/debug"
	"strings"
)

// devel is the version of an mcpgen built from a checkout or a directory:
// nothing that names a release, and the same on every machine.
const devel = "(devel)"

// Version is the version of the mcpgen module doing the generating, as the
// header of every generated Go file records it: the module's version when
// the running program has mcpgen as a dependency (go tool mcpgen) or was
// installed from the module proxy (go install ...@v1.2.3), and "(devel)"
// when it was built from a checkout of mcpgen, or from a directory that
// replaces it, whose version control state must not change the output.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return devel
	}
	return moduleVersion(bi)
}

// moduleVersion is Version read from bi.
func moduleVersion(bi *debug.BuildInfo) string {
	if bi.Main.Path == runtimeModule {
		for _, s := range bi.Settings {
			if strings.HasPrefix(s.Key, "vcs.") {
				return devel // built in a checkout: its version is the commit's
			}
		}
		if bi.Main.Version == "" {
			return devel
		}
		return bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path != runtimeModule {
			continue
		}
		if r := d.Replace; r != nil {
			if r.Version == "" {
				return devel // a directory
			}
			return r.Version
		}
		return d.Version
	}
	return devel
}
