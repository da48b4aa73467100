package versions

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// readCargo reads Cargo.toml, Cargo.lock and Cargo's registry sources.
func readCargo(p *project, r *Report, name string, opt Options) {
	b := p.read("Cargo.toml")
	if b == nil {
		return
	}
	var doc map[string]any
	if _, err := toml.Decode(string(b), &doc); err != nil {
		p.syntax("Cargo.toml", tomlErrLine(err), err)
		return
	}
	declared := false
	scan := func(tbl any, scope string) {
		deps, ok := tbl.(map[string]any)
		if !ok {
			return
		}
		for _, key := range sortedKeys(deps) {
			e := Evidence{Kind: Declared, Ecosystem: "cargo", File: "Cargo.toml", Name: key, Scope: scope}
			crate := key
			switch v := deps[key].(type) {
			case string:
				e.Constraint = v
			case map[string]any:
				if s, ok := v["package"].(string); ok {
					crate = s
					e.Note = "renamed from " + s
				}
				if s, ok := v["version"].(string); ok {
					e.Constraint = s
				}
				if w, ok := v["workspace"].(bool); ok && w {
					e.Note = strings.TrimPrefix(e.Note+"; inherited from [workspace.dependencies]", "; ")
				}
				for _, k := range []string{"git", "path"} {
					if _, ok := v[k]; ok {
						e.Note = strings.TrimPrefix(e.Note+"; a "+k+" dependency", "; ")
						e.notRange = true
					}
				}
			}
			if crate != name && key != name {
				continue
			}
			at := bytes.Index(b, []byte("["+scope+"]"))
			e.Line = lineOf(b, key, max(at, 0))
			r.Evidence = append(r.Evidence, e)
			declared = true
		}
	}
	for _, sec := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
		scan(doc[sec], sec)
	}
	if ws, ok := doc["workspace"].(map[string]any); ok {
		scan(ws["dependencies"], "workspace.dependencies")
	}
	if tg, ok := doc["target"].(map[string]any); ok {
		for _, cfg := range sortedKeys(tg) {
			if t, ok := tg[cfg].(map[string]any); ok {
				for _, sec := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
					scan(t[sec], "target."+cfg+"."+sec)
				}
			}
		}
	}

	var lockFiles []string
	if lb := p.read("Cargo.lock"); lb != nil {
		lockFiles = append(lockFiles, "Cargo.lock")
		var lock struct {
			Package []struct {
				Name    string `toml:"name"`
				Version string `toml:"version"`
				Source  string `toml:"source"`
			} `toml:"package"`
		}
		if _, err := toml.Decode(string(lb), &lock); err != nil {
			p.syntax("Cargo.lock", tomlErrLine(err), err)
		} else {
			from := 0
			for _, pk := range lock.Package {
				if pk.Name != name {
					continue
				}
				needle := "name = \"" + name + "\"\nversion = \"" + pk.Version + "\""
				line := lineOf(lb, needle, from)
				r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "cargo", File: "Cargo.lock", Line: line, Name: name, Version: pk.Version})
				if !opt.NoCaches && strings.HasPrefix(pk.Source, "registry+") {
					if dir := cargoSource(opt, name, pk.Version); dir != "" {
						r.Evidence = append(r.Evidence, Evidence{Kind: Installed, Ecosystem: "cargo", File: filepath.ToSlash(dir), Name: name, Version: pk.Version, Note: "registry source"})
					}
				}
			}
		}
	}
	if declared {
		declaredNotLocked(p, r, "cargo", name, lockFiles)
	}
	compareDeclaredLocked(p, r, "cargo", name, cargoSatisfies)
}

// cargoSource finds the unpacked crate in $CARGO_HOME/registry/src/*/.
func cargoSource(opt Options, name, version string) string {
	home := opt.env("CARGO_HOME")
	if home == "" {
		h := opt.env("HOME")
		if h == "" {
			return ""
		}
		home = filepath.Join(h, ".cargo")
	}
	m, _ := filepath.Glob(filepath.Join(home, "registry", "src", "*", name+"-"+version))
	if len(m) == 0 {
		return ""
	}
	if st, err := os.Stat(m[0]); err != nil || !st.IsDir() {
		return ""
	}
	return m[0]
}

// cargoSatisfies checks a Cargo version requirement: comma-separated
// clauses, a bare version being a caret requirement.
func cargoSatisfies(c, v string) (bool, error) {
	parts := strings.Split(c, ",")
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if part != "" && part[0] >= '0' && part[0] <= '9' {
			part = "^" + part
		}
		parts[i] = part
	}
	ok, err := npmSatisfies(strings.Join(parts, ", "), v)
	if err != nil {
		return false, fmt.Errorf("cargo requirement %q: %w", c, err)
	}
	return ok, nil
}
