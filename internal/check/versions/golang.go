package versions

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// readGo reads go.mod, go.sum, vendor/modules.txt and the module cache.
// name may be a module path or a package path inside a required module.
func readGo(p *project, r *Report, name string, opt Options) {
	data := p.read("go.mod")
	if data == nil {
		return
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		line := 0
		var el modfile.ErrorList
		if errors.As(err, &el) && len(el) > 0 {
			line = el[0].Pos.Line
		}
		p.syntax("go.mod", line, err)
		return
	}
	// The requirement: the module path itself, or the longest one that
	// contains the package.
	var req *modfile.Require
	for _, rq := range mf.Require {
		if rq.Mod.Path == name || strings.HasPrefix(name, rq.Mod.Path+"/") {
			if req == nil || len(rq.Mod.Path) > len(req.Mod.Path) {
				req = rq
			}
		}
	}
	if req == nil {
		return
	}
	mod := req.Mod
	ev := Evidence{Kind: Declared, Ecosystem: "go", File: "go.mod", Name: mod.Path, Version: mod.Version}
	if req.Syntax != nil {
		ev.Line = req.Syntax.Start.Line
	}
	if req.Indirect {
		ev.Scope = "indirect"
	}
	if mod.Path != name {
		ev.Note = fmt.Sprintf("%s is a package of module %s", name, mod.Path)
	}
	// A replace directive changes what is built.
	sumMod := mod
	localDir := ""
	for _, rp := range mf.Replace {
		if rp.Old.Path != mod.Path || (rp.Old.Version != "" && rp.Old.Version != mod.Version) {
			continue
		}
		if rp.New.Version == "" {
			localDir = rp.New.Path
			ev.Note = strings.TrimPrefix(ev.Note+"; replaced by the directory "+rp.New.Path, "; ")
		} else {
			sumMod = rp.New
			ev.Note = strings.TrimPrefix(ev.Note+"; replaced by "+rp.New.Path+" "+rp.New.Version, "; ")
		}
	}
	r.Evidence = append(r.Evidence, ev)
	if localDir != "" {
		r.Resolved["go"] = mod.Version + " (replaced by " + localDir + ")"
		r.Notes = append(r.Notes, fmt.Sprintf("go.mod replaces %s with the directory %s: no go.sum entry or cache copy applies", mod.Path, localDir))
		return
	}

	// go.sum: the go.mod hash is enough for the module graph, the h1 of
	// the zip is needed to build its packages.
	if sum := p.read("go.sum"); sum != nil {
		zipLine, modLine, others := 0, 0, []string(nil)
		sc := bufio.NewScanner(bytes.NewReader(sum))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for n := 1; sc.Scan(); n++ {
			f := strings.Fields(sc.Text())
			if len(f) != 3 || f[0] != sumMod.Path {
				continue
			}
			switch f[1] {
			case sumMod.Version:
				zipLine = n
			case sumMod.Version + "/go.mod":
				modLine = n
			default:
				if v := strings.TrimSuffix(f[1], "/go.mod"); v == f[1] {
					others = append(others, v)
				}
			}
		}
		switch {
		case zipLine > 0:
			r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "go", File: "go.sum", Line: zipLine, Name: sumMod.Path, Version: sumMod.Version})
		case modLine > 0 && req.Indirect:
			// Indirect requirements whose packages are not built keep only
			// the go.mod hash after go mod tidy.
			r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "go", File: "go.sum", Line: modLine, Name: sumMod.Path, Version: sumMod.Version, Note: "go.mod hash only"})
		default:
			msg := fmt.Sprintf("go.mod requires %s %s but go.sum has no checksum for it", sumMod.Path, sumMod.Version)
			if len(others) > 0 {
				msg += " (it has " + strings.Join(others, ", ") + ")"
			}
			p.finding(RuleGoSumMissing, check.Error, "go.sum", 0, msg+".", "Run go mod tidy and commit go.sum.")
		}
	} else {
		p.notes = append(p.notes, "go.mod has no go.sum beside it")
	}

	// vendor/modules.txt, when the project vendors.
	if vt := p.read("vendor/modules.txt"); vt != nil {
		sc := bufio.NewScanner(bytes.NewReader(vt))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for n := 1; sc.Scan(); n++ {
			f := strings.Fields(sc.Text())
			if len(f) >= 3 && f[0] == "#" && f[1] == mod.Path {
				v := f[2]
				if len(f) >= 6 && f[3] == "=>" {
					v = f[5]
				}
				r.Evidence = append(r.Evidence, Evidence{Kind: Installed, Ecosystem: "go", File: "vendor/modules.txt", Line: n, Name: mod.Path, Version: v, Note: "vendored"})
				break
			}
		}
	}

	// The module cache.
	if !opt.NoCaches {
		if cache := goModCache(opt); cache != "" {
			ep, err1 := module.EscapePath(sumMod.Path)
			evr, err2 := module.EscapeVersion(sumMod.Version)
			if err1 == nil && err2 == nil {
				dir := filepath.Join(cache, filepath.FromSlash(ep)+"@"+evr)
				if st, err := os.Stat(dir); err == nil && st.IsDir() {
					r.Evidence = append(r.Evidence, Evidence{Kind: Installed, Ecosystem: "go", File: filepath.ToSlash(dir), Name: sumMod.Path, Version: sumMod.Version, Note: "module cache"})
				} else {
					r.Notes = append(r.Notes, fmt.Sprintf("%s %s is not in the module cache %s (go mod download fetches it)", sumMod.Path, sumMod.Version, cache))
				}
			}
		}
	}
	compareDeclaredLocked(p, r, "go", name, goSatisfies)
}

// goSatisfies: a go.mod requirement is an exact minimum the build selects
// (after go mod tidy, the selected version itself).
func goSatisfies(c, v string) (bool, error) {
	if !semver.IsValid(c) || !semver.IsValid(v) {
		return false, errNotEvaluable
	}
	return semver.Compare(c, v) == 0, nil
}

// goModCache finds the module cache the go command uses, without running it.
func goModCache(opt Options) string {
	if c := opt.env("GOMODCACHE"); c != "" {
		return c
	}
	if gp := opt.env("GOPATH"); gp != "" {
		return filepath.Join(filepath.SplitList(gp)[0], "pkg", "mod")
	}
	if h := opt.env("HOME"); h != "" {
		return filepath.Join(h, "go", "pkg", "mod")
	}
	return ""
}
