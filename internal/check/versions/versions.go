// Package versions answers verify_version: for one dependency of a project,
// which version the project declares, which one its lock file pins, which
// one is installed where that can be read, whether they agree, and whether
// the version an agent believes it uses is the one the project resolves.
//
// It reads, offline and with each format's own parser:
//
//	Go      go.mod (golang.org/x/mod/modfile), go.sum, the module cache
//	        ($GOMODCACHE, else $GOPATH/pkg/mod, else ~/go/pkg/mod)
//	npm     package.json, package-lock.json (v1, v2, v3), pnpm-lock.yaml
//	        (v5, v6, v9), yarn.lock (v1 and berry), node_modules/<pkg>/package.json
//	Python  pyproject.toml ([project] PEP 621 and [tool.poetry]),
//	        requirements*.txt (PEP 508 lines, -r includes), poetry.lock,
//	        uv.lock, *.dist-info/METADATA in .venv, venv or env
//	Cargo   Cargo.toml, Cargo.lock, $CARGO_HOME/registry/src
//
// Ranges are evaluated with each ecosystem's rules: npm and Cargo ranges
// with Masterminds/semver (a bare Cargo version is a caret range), PEP 440
// specifiers and Poetry's ^ and ~ with this package's PEP 440 reader, Go
// versions with golang.org/x/mod/semver.
//
// Drift runs the same comparison for every dependency the root's
// manifests declare (DeclaredNames), for a CI run or a compliance check.
//
// What it does not do: it never names a "latest" version (nothing here
// talks to a registry); it reads the project root only (not each package
// of a monorepo's workspaces); it does not resolve a range to the version
// a fresh install would pick; Git, path and URL dependencies are reported
// as such, not evaluated.
package versions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Kind says where a version was read.
type Kind string

// The kinds of evidence.
const (
	Declared  Kind = "declared"  // the manifest: go.mod, package.json, pyproject.toml...
	Locked    Kind = "locked"    // the lock file
	Installed Kind = "installed" // what is on disk: node_modules, the module cache, a venv
)

// Evidence is one version (or constraint) read from one file.
type Evidence struct {
	Kind      Kind   `json:"kind"`
	Ecosystem string `json:"ecosystem"` // go, npm, python, cargo
	// File is slash-separated and relative to the project root, or an
	// absolute path for a cache outside it.
	File string `json:"file"`
	Line int    `json:"line,omitempty"`
	// Name is the dependency as this file spells it.
	Name string `json:"name"`
	// Constraint is what a manifest asks for ("^1.2.0", ">=2,<3").
	Constraint string `json:"constraint,omitempty"`
	// Version is an exact version: locked, installed, or a manifest's
	// exact pin (go.mod, "==1.2.3").
	Version string `json:"version,omitempty"`
	Scope   string `json:"scope,omitempty"` // devDependencies, dev group, build-dependencies...
	Note    string `json:"note,omitempty"`  // "replaced by ../fork", "git dependency"
	// notRange marks a declaration that is a path, URL or git source: a
	// lock may record it under another shape, so its absence from the
	// lock is not reported.
	notRange bool
}

// Report is the answer for one dependency.
type Report struct {
	Name     string     `json:"name"`
	Believed string     `json:"believed,omitempty"`
	Evidence []Evidence `json:"evidence"`
	// Resolved is the version the project uses, per ecosystem: installed
	// if that could be read, else locked, else an exact declared pin.
	Resolved map[string]string `json:"resolved,omitempty"`
	// Agree is true when every version found satisfies the others: the
	// lock satisfies the manifest and the installed copy is the locked one.
	Agree bool `json:"agree"`
	// BeliefMatches is set when Believed was given and something was
	// resolved: whether the belief names the resolved version.
	BeliefMatches *bool `json:"belief_matches,omitempty"`
	// Findings are the disagreements, in the shape of every check.
	Findings []check.Finding `json:"findings,omitempty"`
	// Notes say what was looked at and not found ("no lock file for npm").
	Notes []string `json:"notes,omitempty"`
}

// Options say where to look. The zero value reads the environment.
type Options struct {
	// Env reads an environment variable (GOMODCACHE, GOPATH, HOME,
	// CARGO_HOME); nil means os.Getenv.
	Env func(string) string
	// Caches says whether to look outside the project (the Go module
	// cache, Cargo's registry). Verify always reads node_modules and a
	// project venv, which are inside the root.
	NoCaches bool
}

func (o Options) env(k string) string {
	if o.Env != nil {
		return o.Env(k)
	}
	return os.Getenv(k)
}

// maxFile caps a manifest or lock file read. Lock files of large projects
// run to tens of MiB; beyond this the file is reported, not read.
const maxFile = 64 << 20

// project reads files of the project root.
type project struct {
	fsys  fs.FS
	notes []string
	finds []check.Finding
}

// read returns a file's content, or nil when it is absent. A file that is
// there but cannot be read is noted.
func (p *project) read(name string) []byte {
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	if st.Size() > maxFile {
		p.notes = append(p.notes, fmt.Sprintf("%s is %d bytes, over the %d MiB cap: not read", name, st.Size(), maxFile>>20))
		return nil
	}
	b := make([]byte, 0, st.Size())
	buf := make([]byte, 32<<10)
	for {
		n, err := f.Read(buf)
		b = append(b, buf[:n]...)
		if len(b) > maxFile {
			return nil
		}
		if err != nil {
			break
		}
	}
	return b
}

// syntax records a manifest or lock file that does not parse.
func (p *project) syntax(file string, line int, err error) {
	p.finds = append(p.finds, check.Finding{
		Rule: RuleSyntax, Severity: check.Error, File: file, Line: line,
		Message: fmt.Sprintf("%s does not parse: %v.", file, err),
		Fix:     "Fix the file (or regenerate the lock file with the package manager).",
	})
}

// Verify looks up dependency name in the project at fsys (the project
// root) and says what it found. believed is the version an agent thinks it
// uses ("" when none). The error is for a bad argument or a canceled ctx;
// unreadable or malformed files are findings and notes.
func Verify(ctx context.Context, fsys fs.FS, name, believed string, opt Options) (*Report, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, &problem.FieldError{Field: "name", Problem: "is empty", Fix: "give the dependency's name as its manifest spells it: golang.org/x/mod, react, requests, serde"}
	}
	if len(name) > 512 || strings.ContainsAny(name, "\x00\n\r") {
		return nil, &problem.FieldError{Field: "name", Problem: "is not a dependency name", Fix: "give one name, as the manifest spells it"}
	}
	believed = strings.TrimSpace(believed)
	if len(believed) > 256 || strings.ContainsAny(believed, "\x00\n\r") {
		return nil, &problem.FieldError{Field: "believed", Problem: "is not a version", Fix: "give a version such as 1.2.3 or v1.2.3, or leave it empty"}
	}
	p := &project{fsys: fsys}
	r := &Report{Name: name, Believed: believed, Resolved: map[string]string{}}
	for _, eco := range ecosystems {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		eco.read(p, r, name, opt)
	}
	r.Findings = append(r.Findings, p.finds...)
	r.Notes = append(r.Notes, p.notes...)
	if len(r.Evidence) == 0 && !hasRule(r.Findings, RuleSyntax) {
		r.Findings = append(r.Findings, check.Finding{
			Rule: RuleNotFound, Severity: check.Warning,
			Message: fmt.Sprintf("%s is not declared, locked or installed in this project.", name),
			Fix:     "Check the spelling (npm scope, Go module path, PyPI name), or add the dependency with the package manager.",
		})
	}
	r.Agree = !slices.ContainsFunc(r.Findings, func(f check.Finding) bool {
		return f.Rule != RuleBelief && f.Rule != RuleNotFound && f.Severity != check.Info
	}) && len(r.Evidence) > 0
	if believed != "" && len(r.Resolved) > 0 {
		match := false
		var got []string
		for _, eco := range slices.Sorted(maps.Keys(r.Resolved)) {
			v := r.Resolved[eco]
			got = append(got, eco+" "+v)
			if sameVersion(believed, v) {
				match = true
			}
		}
		r.BeliefMatches = &match
		if !match {
			r.Findings = append(r.Findings, check.Finding{
				Rule: RuleBelief, Severity: check.Error,
				Message: fmt.Sprintf("You believe %s is at %s, but the project resolves %s.", name, believed, strings.Join(got, ", ")),
				Fix:     "Write code against the resolved version (read its docs for that version), or upgrade the dependency on purpose with the package manager.",
			})
		}
	}
	for i := range r.Findings {
		r.Findings[i].Link = check.RuleLink(ruleByID(r.Findings[i].Rule))
	}
	slices.SortStableFunc(r.Evidence, func(a, b Evidence) int {
		return cmp.Or(cmp.Compare(a.Ecosystem, b.Ecosystem), cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)), cmp.Compare(a.File, b.File))
	})
	return r, nil
}

func kindRank(k Kind) int { return slices.Index([]Kind{Declared, Locked, Installed}, k) }

func hasRule(fs []check.Finding, id string) bool {
	return slices.ContainsFunc(fs, func(f check.Finding) bool { return f.Rule == id })
}

// sameVersion reports whether a believed version names v: equal once a
// leading v and build metadata are set aside, or a prefix of it at
// component boundaries ("1.2" names 1.2.7, "1" names 1.4.0).
func sameVersion(believed, v string) bool {
	norm := func(s string) string {
		s = strings.TrimSpace(s)
		s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
		if i := strings.IndexByte(s, '+'); i >= 0 {
			s = s[:i]
		}
		return strings.ToLower(s)
	}
	b, v2 := norm(believed), norm(v)
	if b == "" {
		return false
	}
	if b == v2 {
		return true
	}
	if strings.HasPrefix(v2, b) && len(v2) > len(b) && v2[len(b)] == '.' {
		return true
	}
	// PEP 440 equality pads with zeros: 2.0 == 2.0.0.
	if pb, err := parsePEP440(b); err == nil {
		if pv, err := parsePEP440(v2); err == nil && pb.compare(pv) == 0 {
			return true
		}
	}
	return false
}

// ecosystem reads one ecosystem's files for a name.
type ecosystem struct {
	name string
	read func(p *project, r *Report, name string, opt Options)
}

var ecosystems = []ecosystem{
	{"go", readGo},
	{"npm", readNPM},
	{"python", readPython},
	{"cargo", readCargo},
}

// finding adds a disagreement.
func (p *project) finding(rule string, sev check.Severity, file string, line int, msg, fix string) {
	p.finds = append(p.finds, check.Finding{Rule: rule, Severity: sev, File: file, Line: line, Message: msg, Fix: fix})
}

// lineOf returns the 1-based line of the first occurrence of needle in b
// at or after byte from, or 0.
func lineOf(b []byte, needle string, from int) int {
	if from < 0 || from > len(b) {
		from = 0
	}
	i := strings.Index(string(b[from:]), needle)
	if i < 0 {
		return 0
	}
	return 1 + strings.Count(string(b[:from+i]), "\n")
}

// errNotEvaluable says a constraint is not a version range (a git URL, a
// path, a dist-tag).
var errNotEvaluable = errors.New("not a version range")

// compareDeclaredLocked adds the findings of one ecosystem: lock against
// manifest, installed against lock (or manifest when there is no lock).
// satisfies reports whether version v meets constraint c.
func compareDeclaredLocked(p *project, r *Report, eco, name string, satisfies func(c, v string) (bool, error)) {
	var decl, lock, inst []Evidence
	for _, e := range r.Evidence {
		if e.Ecosystem != eco {
			continue
		}
		switch e.Kind {
		case Declared:
			decl = append(decl, e)
		case Locked:
			lock = append(lock, e)
		case Installed:
			inst = append(inst, e)
		}
	}
	// The lock (one version of it, for ecosystems that lock several) must
	// satisfy each declared constraint.
	for _, d := range decl {
		c := cmp.Or(d.Constraint, d.Version)
		if c == "" || len(lock) == 0 {
			continue
		}
		byFile := map[string][]Evidence{}
		for _, l := range lock {
			byFile[l.File] = append(byFile[l.File], l)
		}
		for _, file := range slices.Sorted(maps.Keys(byFile)) {
			ls := byFile[file]
			ok, evaluable := false, false
			var vs []string
			for _, l := range ls {
				vs = append(vs, l.Version)
				good, err := satisfies(c, l.Version)
				if err != nil {
					continue
				}
				evaluable = true
				ok = ok || good
			}
			if !evaluable {
				r.Notes = append(r.Notes, fmt.Sprintf("%s: %s's constraint %q is not a version range; not compared with %s", d.File, name, c, file))
				continue
			}
			if !ok {
				p.finding(RuleLockDrift, check.Error, file, ls[0].Line,
					fmt.Sprintf("%s locks %s at %s, which does not satisfy %q declared in %s.", file, name, strings.Join(vs, ", "), c, d.File),
					"Reinstall so the lock file follows the manifest (npm install, go mod tidy, poetry lock, uv lock, cargo update -p "+name+"), then commit both.")
			}
		}
	}
	// The installed copy must be the locked version (or satisfy the
	// manifest when nothing is locked).
	for _, in := range inst {
		if len(lock) > 0 {
			if !slices.ContainsFunc(lock, func(l Evidence) bool { return sameVersion(l.Version, in.Version) && sameVersion(in.Version, l.Version) }) {
				p.finding(RuleInstalledDrift, check.Warning, in.File, 0,
					fmt.Sprintf("%s is installed at %s but %s locks %s.", name, in.Version, lock[0].File, lock[0].Version),
					"Reinstall from the lock file (npm ci, pnpm install --frozen-lockfile, uv sync, poetry install, go mod download).")
			}
			continue
		}
		for _, d := range decl {
			c := cmp.Or(d.Constraint, d.Version)
			if ok, err := satisfies(c, in.Version); err == nil && !ok {
				p.finding(RuleInstalledDrift, check.Warning, in.File, 0,
					fmt.Sprintf("%s is installed at %s, which does not satisfy %q declared in %s.", name, in.Version, c, d.File),
					"Reinstall the project's dependencies so the installed copy follows the manifest.")
			}
		}
	}
	// The resolved version.
	switch {
	case len(inst) > 0:
		r.Resolved[eco] = inst[0].Version
	case len(lock) == 1:
		r.Resolved[eco] = lock[0].Version
	case len(lock) > 1:
		// Several locked (Cargo, nested npm copies): the one the manifest
		// asks for, when exactly one satisfies it.
		var fit []string
		for _, l := range lock {
			for _, d := range decl {
				if ok, err := satisfies(cmp.Or(d.Constraint, d.Version), l.Version); err == nil && ok && !slices.Contains(fit, l.Version) {
					fit = append(fit, l.Version)
				}
			}
		}
		if len(fit) == 1 {
			r.Resolved[eco] = fit[0]
		}
	default:
		for _, d := range decl {
			if d.Version != "" {
				r.Resolved[eco] = d.Version
				break
			}
		}
	}
}

// declaredNotLocked adds a finding when a manifest declares name, a lock
// file of the ecosystem exists, and it does not lock name.
func declaredNotLocked(p *project, r *Report, eco, name string, lockFiles []string) {
	if len(lockFiles) == 0 {
		return
	}
	var decl *Evidence
	locked := false
	for i, e := range r.Evidence {
		if e.Ecosystem != eco {
			continue
		}
		if e.Kind == Declared && decl == nil && !e.notRange {
			decl = &r.Evidence[i]
		}
		if e.Kind == Locked {
			locked = true
		}
	}
	if decl != nil && !locked {
		p.finding(RuleNotLocked, check.Error, lockFiles[0], 0,
			fmt.Sprintf("%s declares %s but %s does not lock it.", decl.File, name, strings.Join(lockFiles, " and ")),
			"Run the package manager's install (or lock) command and commit the updated lock file.")
	}
}

// joinPath joins slash paths of the project.
func joinPath(elem ...string) string { return path.Join(elem...) }
