package versions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"
)

// npmSections are package.json's dependency fields.
var npmSections = []string{"dependencies", "devDependencies", "peerDependencies", "optionalDependencies"}

// readNPM reads package.json, the lock file of npm, pnpm or yarn, and
// node_modules.
func readNPM(p *project, r *Report, name string, _ Options) {
	data := p.read("package.json")
	if data == nil {
		return
	}
	var pj map[string]json.RawMessage
	if err := json.Unmarshal(data, &pj); err != nil {
		p.syntax("package.json", jsonErrLine(data, err), err)
		return
	}
	declaredRange := ""
	for _, sec := range npmSections {
		raw, ok := pj[sec]
		if !ok {
			continue
		}
		var deps map[string]string
		if err := json.Unmarshal(raw, &deps); err != nil {
			continue // a field of another shape is package.json's business, not ours
		}
		c, ok := deps[name]
		if !ok {
			continue
		}
		secAt := bytes.Index(data, []byte(strconv.Quote(sec)))
		ev := Evidence{Kind: Declared, Ecosystem: "npm", File: "package.json", Line: lineOf(data, strconv.Quote(name), secAt), Name: name, Constraint: c, Scope: sec}
		if _, err := npmRange(c); err != nil {
			ev.Note = npmKind(c)
			ev.notRange = ev.Note != "" && !strings.HasPrefix(ev.Note, "a dist-tag")
		}
		if sec == "peerDependencies" {
			ev.Note = strings.TrimPrefix(ev.Note+"; a peer: the consuming project installs it", "; ")
		}
		r.Evidence = append(r.Evidence, ev)
		if declaredRange == "" && sec != "peerDependencies" {
			declaredRange = c
		}
	}
	declared := slices.ContainsFunc(r.Evidence, func(e Evidence) bool { return e.Ecosystem == "npm" })

	var lockFiles []string
	if b := p.read("package-lock.json"); b != nil {
		lockFiles = append(lockFiles, "package-lock.json")
		readPackageLock(p, r, "package-lock.json", b, name)
	} else if b := p.read("npm-shrinkwrap.json"); b != nil {
		lockFiles = append(lockFiles, "npm-shrinkwrap.json")
		readPackageLock(p, r, "npm-shrinkwrap.json", b, name)
	}
	if b := p.read("pnpm-lock.yaml"); b != nil {
		lockFiles = append(lockFiles, "pnpm-lock.yaml")
		readPnpmLock(p, r, b, name)
	}
	if b := p.read("yarn.lock"); b != nil {
		lockFiles = append(lockFiles, "yarn.lock")
		readYarnLock(p, r, b, name, declaredRange)
	}
	if len(lockFiles) == 0 && declared {
		p.notes = append(p.notes, "package.json has no lock file beside it (package-lock.json, pnpm-lock.yaml, yarn.lock)")
	}
	if len(lockFiles) > 1 {
		p.notes = append(p.notes, "several npm lock files ("+strings.Join(lockFiles, ", ")+"): the package manager in use reads one of them")
	}

	// node_modules.
	pkgJSON := joinPath("node_modules", name, "package.json")
	if b := p.read(pkgJSON); b != nil {
		var m struct {
			Version string `json:"version"`
		}
		if err := json.Unmarshal(b, &m); err == nil && m.Version != "" {
			r.Evidence = append(r.Evidence, Evidence{Kind: Installed, Ecosystem: "npm", File: pkgJSON, Name: name, Version: m.Version})
		}
	} else if declared {
		if st, err := fs.Stat(p.fsys, "node_modules"); err == nil && st.IsDir() {
			p.notes = append(p.notes, fmt.Sprintf("node_modules exists but has no %s: not installed", name))
		}
	}
	if declared {
		declaredNotLocked(p, r, "npm", name, lockFiles)
	}
	compareDeclaredLocked(p, r, "npm", name, npmSatisfies)
}

// jsonErrLine is the line of a JSON syntax error.
func jsonErrLine(data []byte, err error) int {
	var se *json.SyntaxError
	if e, ok := err.(*json.SyntaxError); ok {
		se = e
	}
	if se == nil || se.Offset <= 0 || int(se.Offset) > len(data) {
		return 0
	}
	return 1 + bytes.Count(data[:se.Offset], []byte("\n"))
}

// readPackageLock reads npm's package-lock.json: "packages" (v2, v3) keyed
// by install path, else "dependencies" (v1).
func readPackageLock(p *project, r *Report, file string, b []byte, name string) {
	var lock struct {
		LockfileVersion int `json:"lockfileVersion"`
		Packages        map[string]struct {
			Version string `json:"version"`
			Link    bool   `json:"link"`
		} `json:"packages"`
		Dependencies map[string]struct {
			Version string `json:"version"`
		} `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		p.syntax(file, jsonErrLine(b, err), err)
		return
	}
	key := "node_modules/" + name
	if pk, ok := lock.Packages[key]; ok && pk.Version != "" {
		r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "npm", File: file, Line: lineOf(b, strconv.Quote(key), 0), Name: name, Version: pk.Version})
		return
	} else if ok && pk.Link {
		r.Notes = append(r.Notes, fmt.Sprintf("%s links %s to a workspace directory", file, name))
		return
	}
	if lock.Packages == nil {
		if d, ok := lock.Dependencies[name]; ok && d.Version != "" {
			at := bytes.Index(b, []byte(`"dependencies"`))
			r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "npm", File: file, Line: lineOf(b, strconv.Quote(name), at), Name: name, Version: npmAliasVersion(d.Version)})
		}
	}
}

// npmAliasVersion reads a v1 lock's "npm:real@1.2.3" alias version.
func npmAliasVersion(v string) string {
	if rest, ok := strings.CutPrefix(v, "npm:"); ok {
		if i := strings.LastIndexByte(rest, '@'); i > 0 {
			return rest[i+1:]
		}
	}
	return v
}

// readPnpmLock reads pnpm-lock.yaml: importers["."] (v6 workspaces, v9)
// or the top level (v5, v6), each entry a version or {specifier, version}.
func readPnpmLock(p *project, r *Report, b []byte, name string) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		p.syntax("pnpm-lock.yaml", yamlErrLine(err), err)
		return
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	top := doc.Content[0]
	lockVersion := scalar(mapGet(top, "lockfileVersion"))
	scope := top
	if imp := mapGet(top, "importers"); imp != nil {
		if dot := mapGet(imp, "."); dot != nil {
			scope = dot
		}
	}
	for _, sec := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		deps := mapGet(scope, sec)
		if deps == nil {
			continue
		}
		keyNode, val := mapGetKey(deps, name)
		if val == nil {
			continue
		}
		v := scalar(val)
		if val.Kind == yaml.MappingNode {
			v = scalar(mapGet(val, "version"))
		}
		if v == "" {
			continue
		}
		if strings.HasPrefix(v, "link:") || strings.HasPrefix(v, "file:") {
			r.Notes = append(r.Notes, fmt.Sprintf("pnpm-lock.yaml resolves %s to %s", name, v))
			return
		}
		// Peer suffixes: "18.2.0(react@18.2.0)" (v6+), "1.2.3_react@18.2.0" (v5).
		if i := strings.IndexByte(v, '('); i > 0 {
			v = v[:i]
		}
		if strings.HasPrefix(lockVersion, "5") {
			if i := strings.IndexByte(v, '_'); i > 0 {
				v = v[:i]
			}
		}
		r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "npm", File: "pnpm-lock.yaml", Line: keyNode.Line, Name: name, Version: v, Scope: sec})
		return
	}
}

// readYarnLock reads yarn.lock, classic (v1) or berry (YAML with
// __metadata), and keeps the entries of name, preferring the one whose
// descriptor is the declared range.
func readYarnLock(p *project, r *Report, b []byte, name, declared string) {
	type entry struct {
		ranges  []string
		version string
		line    int
	}
	var entries []entry
	if bytes.Contains(b, []byte("\n__metadata:")) || bytes.HasPrefix(b, []byte("__metadata:")) {
		var doc yaml.Node
		if err := yaml.Unmarshal(b, &doc); err != nil {
			p.syntax("yarn.lock", yamlErrLine(err), err)
			return
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return
		}
		top := doc.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			k, v := top.Content[i], top.Content[i+1]
			e := entry{line: k.Line, version: scalar(mapGet(v, "version"))}
			for _, d := range strings.Split(k.Value, ",") {
				if n, rng, ok := splitDescriptor(strings.TrimSpace(d)); ok && n == name {
					e.ranges = append(e.ranges, strings.TrimPrefix(rng, "npm:"))
				}
			}
			if len(e.ranges) > 0 && e.version != "" {
				entries = append(entries, e)
			}
		}
	} else {
		// Classic: "desc, desc:" at column 0, then indented "version "x"".
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		var cur *entry
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if line[0] != ' ' {
				cur = nil
				head, ok := strings.CutSuffix(strings.TrimSpace(line), ":")
				if !ok {
					p.syntax("yarn.lock", n, fmt.Errorf("line %d: an entry header must end with ':'", n))
					return
				}
				e := entry{line: n}
				for _, d := range strings.Split(head, ",") {
					d = strings.Trim(strings.TrimSpace(d), `"`)
					if dn, rng, ok := splitDescriptor(d); ok && dn == name {
						e.ranges = append(e.ranges, strings.TrimPrefix(rng, "npm:"))
					}
				}
				if len(e.ranges) > 0 {
					entries = append(entries, e)
					cur = &entries[len(entries)-1]
				}
				continue
			}
			if cur == nil || cur.version != "" {
				continue
			}
			f := strings.Fields(line)
			if len(f) == 2 && f[0] == "version" && strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") {
				cur.version = strings.Trim(f[1], `"`)
			}
		}
	}
	var pick []entry
	for _, e := range entries {
		if declared != "" && slices.Contains(e.ranges, declared) {
			pick = append(pick, e)
		}
	}
	if len(pick) == 0 {
		pick = entries
	}
	seen := map[string]bool{}
	for _, e := range pick {
		if e.version == "" || seen[e.version] {
			continue
		}
		seen[e.version] = true
		r.Evidence = append(r.Evidence, Evidence{Kind: Locked, Ecosystem: "npm", File: "yarn.lock", Line: e.line, Name: name, Version: e.version, Constraint: strings.Join(e.ranges, ", ")})
	}
}

// splitDescriptor splits "name@range" ("@scope/name@range" too).
func splitDescriptor(d string) (name, rng string, ok bool) {
	i := strings.LastIndexByte(d, '@')
	if i <= 0 {
		return "", "", false
	}
	return d[:i], d[i+1:], true
}

// npmRange turns an npm range into a constraint, or errNotEvaluable for
// tags, URLs, paths and git dependencies.
func npmRange(c string) (*semver.Constraints, error) {
	c = strings.TrimSpace(c)
	if rest, ok := strings.CutPrefix(c, "npm:"); ok {
		if _, rng, ok := splitDescriptor(rest); ok {
			c = rng
		} else {
			c = "*"
		}
	}
	c = strings.TrimPrefix(c, "workspace:")
	if c == "" {
		c = "*"
	}
	if npmKind(c) != "" {
		return nil, errNotEvaluable
	}
	sc, err := semver.NewConstraint(c)
	if err != nil {
		return nil, errNotEvaluable
	}
	return sc, nil
}

// npmKind names a specifier that is not a range ("" for a range).
func npmKind(c string) string {
	switch {
	case strings.HasPrefix(c, "file:"), strings.HasPrefix(c, "link:"), strings.HasPrefix(c, "./"), strings.HasPrefix(c, "../"), strings.HasPrefix(c, "/"):
		return "a local path dependency"
	case strings.HasPrefix(c, "git"), strings.HasPrefix(c, "github:"), strings.HasPrefix(c, "http:"), strings.HasPrefix(c, "https:"):
		return "a git or URL dependency"
	case strings.Count(c, "/") == 1 && !strings.ContainsAny(c, " <>=^~"):
		return "a GitHub dependency"
	}
	if c != "" && c != "*" && c != "x" && !strings.ContainsAny(c, "0123456789") {
		return "a dist-tag (" + c + "): not a range"
	}
	return ""
}

func npmSatisfies(c, v string) (bool, error) {
	sc, err := npmRange(c)
	if err != nil {
		return false, err
	}
	sv, err := semver.NewVersion(v)
	if err != nil {
		return false, errNotEvaluable
	}
	return sc.Check(sv), nil
}

// yaml helpers.

func mapGet(m *yaml.Node, key string) *yaml.Node {
	_, v := mapGetKey(m, key)
	return v
}

func mapGetKey(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// yamlErrLine reads the line from yaml.v3's "yaml: line N: ..." errors.
func yamlErrLine(err error) int {
	s := err.Error()
	if _, rest, ok := strings.Cut(s, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return n
			}
		}
	}
	return 0
}
