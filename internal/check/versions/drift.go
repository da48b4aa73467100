package versions

import (
	"context"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"golang.org/x/mod/modfile"

	"github.com/cairn-dev/cairn/internal/check"
)

// DeclaredNames lists the dependencies the project root's manifests declare,
// by ecosystem: go.mod requirements, package.json dependencies (peers
// aside), pyproject.toml and requirements*.txt names, Cargo.toml crates.
// Manifests that do not parse are left out (Verify reports them).
func DeclaredNames(fsys fs.FS) map[string][]string {
	p := &project{fsys: fsys}
	out := map[string][]string{}
	add := func(eco, name string) {
		if name != "" && !slices.Contains(out[eco], name) {
			out[eco] = append(out[eco], name)
		}
	}
	if b := p.read("go.mod"); b != nil {
		if mf, err := modfile.Parse("go.mod", b, nil); err == nil {
			for _, r := range mf.Require {
				add("go", r.Mod.Path)
			}
		}
	}
	if b := p.read("package.json"); b != nil {
		var pj map[string]json.RawMessage
		if json.Unmarshal(b, &pj) == nil {
			for _, sec := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
				var deps map[string]string
				if json.Unmarshal(pj[sec], &deps) == nil {
					for _, n := range sortedKeys(deps) {
						add("npm", n)
					}
				}
			}
		}
	}
	py := func(e Evidence) {
		if e.Kind == Declared && !strings.EqualFold(e.Name, "python") {
			add("python", e.Name)
		}
	}
	if b := p.read("pyproject.toml"); b != nil {
		readPyproject(p, b, "", py)
	}
	for _, pat := range []string{"requirements*.txt", "requirements/*.txt"} {
		m, _ := fs.Glob(fsys, pat)
		for _, f := range m {
			readRequirements(p, f, "", py, map[string]bool{}, 0)
		}
	}
	if b := p.read("Cargo.toml"); b != nil {
		var doc map[string]any
		if _, err := toml.Decode(string(b), &doc); err == nil {
			crates := func(tbl any) {
				if deps, ok := tbl.(map[string]any); ok {
					for _, k := range sortedKeys(deps) {
						if t, ok := deps[k].(map[string]any); ok {
							if pkg, ok := t["package"].(string); ok {
								add("cargo", pkg)
								continue
							}
						}
						add("cargo", k)
					}
				}
			}
			for _, sec := range []string{"dependencies", "dev-dependencies", "build-dependencies"} {
				crates(doc[sec])
			}
		}
	}
	return out
}

// Drift verifies every declared dependency and returns the findings
// (disagreements between manifest, lock and installed copy, and files
// that do not parse), each once, sorted. It is what a CI run asks: does
// the lock follow the manifest everywhere?
func Drift(ctx context.Context, fsys fs.FS, opt Options) ([]check.Finding, error) {
	var out []check.Finding
	seen := map[string]bool{}
	decl := DeclaredNames(fsys)
	names := []string{"_"} // a name no manifest has: reports syntax errors once
	for _, eco := range []string{"go", "npm", "python", "cargo"} {
		names = append(names, decl[eco]...)
	}
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := Verify(ctx, fsys, n, "", opt)
		if err != nil {
			return nil, err
		}
		for _, f := range r.Findings {
			if f.Rule == RuleNotFound || f.Rule == RuleBelief {
				continue
			}
			k := f.String()
			if !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	slices.SortFunc(out, func(a, b check.Finding) int {
		return strings.Compare(a.File+"\x00"+a.Rule+"\x00"+a.Message, b.File+"\x00"+b.Rule+"\x00"+b.Message)
	})
	return out, nil
}
