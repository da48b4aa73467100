package versions

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/cairn-dev/cairn/internal/check"
)

// pyName normalizes a distribution name as PEP 503 does.
func pyName(s string) string {
	return strings.ToLower(pyNameSep().ReplaceAllString(strings.TrimSpace(s), "-"))
}

var pyNameSep = check.LazyRegexp(`[-_.]+`)

// pep508RE splits a requirement: name, extras, the rest.
var pep508RE = check.LazyRegexp(`^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(\[[^\]]*\])?\s*(.*)$`)

// parsePEP508 reads "name[extras] (specs) ; marker" or "name @ url".
func parsePEP508(s string) (name, spec, note string, ok bool) {
	m := pep508RE().FindStringSubmatch(s)
	if m == nil {
		return "", "", "", false
	}
	rest := m[3]
	if i := strings.IndexByte(rest, ';'); i >= 0 {
		note = "only where " + strings.TrimSpace(rest[i+1:])
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	if strings.HasPrefix(rest, "@") {
		return m[1], "", strings.TrimPrefix(note+"; a URL dependency", "; "), true
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")"))
	rest = strings.Join(strings.Fields(rest), "")
	return m[1], rest, note, true
}

// exactPin returns X for a specifier that is exactly "==X".
func exactPin(spec string) string {
	if v, ok := strings.CutPrefix(spec, "=="); ok && !strings.ContainsAny(v, ",*") {
		return v
	}
	return ""
}

// readPython reads pyproject.toml, requirements files, poetry.lock,
// uv.lock and a project venv.
func readPython(p *project, r *Report, name string, _ Options) {
	want := pyName(name)
	declared := false
	add := func(e Evidence) {
		e.Ecosystem = "python"
		r.Evidence = append(r.Evidence, e)
		if e.Kind == Declared {
			declared = true
		}
	}
	havePyproject := false
	if b := p.read("pyproject.toml"); b != nil {
		havePyproject = true
		readPyproject(p, b, want, add)
	}
	// requirements*.txt at the root and in requirements/.
	var reqFiles []string
	for _, pat := range []string{"requirements*.txt", "requirements/*.txt"} {
		m, _ := fs.Glob(p.fsys, pat)
		reqFiles = append(reqFiles, m...)
	}
	seen := map[string]bool{}
	for _, f := range reqFiles {
		readRequirements(p, f, want, add, seen, 0)
	}

	var lockFiles []string
	for _, lf := range []string{"poetry.lock", "uv.lock"} {
		b := p.read(lf)
		if b == nil {
			continue
		}
		lockFiles = append(lockFiles, lf)
		var lock struct {
			Package []struct {
				Name    string `toml:"name"`
				Version string `toml:"version"`
			} `toml:"package"`
		}
		if _, err := toml.Decode(string(b), &lock); err != nil {
			p.syntax(lf, tomlErrLine(err), err)
			continue
		}
		for _, pk := range lock.Package {
			if pyName(pk.Name) == want && pk.Version != "" {
				add(Evidence{Kind: Locked, File: lf, Line: lineOf(b, `name = "`+pk.Name+`"`, 0), Name: pk.Name, Version: pk.Version})
			}
		}
	}
	if !havePyproject && len(reqFiles) == 0 && len(lockFiles) == 0 {
		return
	}
	readVenv(p, want, add)
	if declared {
		declaredNotLocked(p, r, "python", name, lockFiles)
	}
	compareDeclaredLocked(p, r, "python", name, poetrySatisfies)
}

// readPyproject reads PEP 621 [project], PEP 735 [dependency-groups],
// [tool.poetry] and [tool.uv] dependencies.
func readPyproject(p *project, b []byte, want string, add func(Evidence)) {
	var doc struct {
		Project struct {
			Dependencies         []string            `toml:"dependencies"`
			OptionalDependencies map[string][]string `toml:"optional-dependencies"`
		} `toml:"project"`
		DependencyGroups map[string][]any `toml:"dependency-groups"`
		Tool             struct {
			Poetry struct {
				Dependencies    map[string]any `toml:"dependencies"`
				DevDependencies map[string]any `toml:"dev-dependencies"`
				Group           map[string]struct {
					Dependencies map[string]any `toml:"dependencies"`
				} `toml:"group"`
			} `toml:"poetry"`
			UV struct {
				DevDependencies []string `toml:"dev-dependencies"`
			} `toml:"uv"`
		} `toml:"tool"`
	}
	if _, err := toml.Decode(string(b), &doc); err != nil {
		p.syntax("pyproject.toml", tomlErrLine(err), err)
		return
	}
	pep := func(reqs []string, scope string) {
		for _, s := range reqs {
			n, spec, note, ok := parsePEP508(s)
			if !ok || want != "" && pyName(n) != want {
				continue
			}
			add(Evidence{Kind: Declared, File: "pyproject.toml", Line: lineOf(b, s, 0), Name: n, Constraint: spec, Version: exactPin(spec), Scope: scope, Note: note, notRange: strings.Contains(note, "URL dependency")})
		}
	}
	pep(doc.Project.Dependencies, "project.dependencies")
	for _, g := range sortedKeys(doc.Project.OptionalDependencies) {
		pep(doc.Project.OptionalDependencies[g], "optional-dependencies."+g)
	}
	for _, g := range sortedKeys(doc.DependencyGroups) {
		var reqs []string
		for _, it := range doc.DependencyGroups[g] {
			if s, ok := it.(string); ok {
				reqs = append(reqs, s)
			}
		}
		pep(reqs, "dependency-groups."+g)
	}
	pep(doc.Tool.UV.DevDependencies, "tool.uv.dev-dependencies")
	poetry := func(deps map[string]any, scope string) {
		for _, n := range sortedKeys(deps) {
			if want != "" && pyName(n) != want {
				continue
			}
			e := Evidence{Kind: Declared, File: "pyproject.toml", Name: n, Scope: scope}
			at := bytes.Index(b, []byte("[tool.poetry"))
			e.Line = lineOf(b, n+" =", max(at, 0))
			switch v := deps[n].(type) {
			case string:
				e.Constraint = v
			case map[string]any:
				if s, ok := v["version"].(string); ok {
					e.Constraint = s
				}
				for _, k := range []string{"git", "path", "url"} {
					if _, ok := v[k]; ok {
						e.Note = "a " + k + " dependency"
						e.notRange = true
					}
				}
			case []any:
				var cs []string
				for _, it := range v {
					if m, ok := it.(map[string]any); ok {
						if s, ok := m["version"].(string); ok {
							cs = append(cs, s)
						}
					}
				}
				e.Constraint = strings.Join(cs, " || ")
				e.Note = "several constraints by marker"
			}
			if pin := e.Constraint; pin != "" && !strings.ContainsAny(pin, "^~<>=!*|, ") {
				e.Version = pin // a bare Poetry version is an exact pin
			}
			add(e)
		}
	}
	poetry(doc.Tool.Poetry.Dependencies, "tool.poetry.dependencies")
	poetry(doc.Tool.Poetry.DevDependencies, "tool.poetry.dev-dependencies")
	for _, g := range sortedKeys(doc.Tool.Poetry.Group) {
		poetry(doc.Tool.Poetry.Group[g].Dependencies, "tool.poetry.group."+g)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// readRequirements reads a pip requirements file, following -r and -c
// includes inside the project (depth-limited, each file once).
func readRequirements(p *project, file, want string, add func(Evidence), seen map[string]bool, depth int) {
	if seen[file] || depth > 8 {
		return
	}
	seen[file] = true
	b := p.read(file)
	if b == nil {
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var logical strings.Builder
	start := 0
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if logical.Len() == 0 {
			start = n
		}
		if s, ok := strings.CutSuffix(line, `\`); ok {
			logical.WriteString(s + " ")
			continue
		}
		logical.WriteString(line)
		text := logical.String()
		logical.Reset()
		if i := strings.Index(text, " #"); i >= 0 {
			text = text[:i]
		}
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if strings.HasPrefix(text, "-") {
			f := strings.Fields(strings.Replace(text, "=", " ", 1))
			if len(f) == 2 && slices.Contains([]string{"-r", "--requirement", "-c", "--constraint"}, f[0]) {
				inc := path.Clean(path.Join(path.Dir(file), f[1]))
				if !strings.HasPrefix(inc, "../") && !path.IsAbs(inc) {
					readRequirements(p, inc, want, add, seen, depth+1)
				}
			}
			continue
		}
		if i := strings.Index(text, " --"); i >= 0 {
			text = text[:i] // per-requirement options: --hash=...
		}
		n2, spec, note, ok := parsePEP508(text)
		if !ok || want != "" && pyName(n2) != want {
			continue
		}
		add(Evidence{Kind: Declared, File: file, Line: start, Name: n2, Constraint: spec, Version: exactPin(spec), Scope: "requirements", Note: note, notRange: strings.Contains(note, "URL dependency")})
	}
}

// readVenv reads *.dist-info/METADATA of a virtualenv in the project.
func readVenv(p *project, want string, add func(Evidence)) {
	var sites []string
	for _, venv := range []string{".venv", "venv", "env"} {
		m, _ := fs.Glob(p.fsys, venv+"/lib/python*/site-packages")
		sites = append(sites, m...)
		if st, err := fs.Stat(p.fsys, venv+"/Lib/site-packages"); err == nil && st.IsDir() {
			sites = append(sites, venv+"/Lib/site-packages")
		}
	}
	for _, site := range sites {
		ents, err := fs.ReadDir(p.fsys, site)
		if err != nil {
			continue
		}
		for _, e := range ents {
			base, ok := strings.CutSuffix(e.Name(), ".dist-info")
			if !ok {
				continue
			}
			dist, _, _ := strings.Cut(base, "-")
			if pyName(dist) != want {
				continue
			}
			meta := path.Join(site, e.Name(), "METADATA")
			b := p.read(meta)
			n, v := metadataField(b, "Name"), metadataField(b, "Version")
			if v == "" {
				continue
			}
			add(Evidence{Kind: Installed, File: meta, Name: n, Version: v})
			return
		}
	}
}

// metadataField reads one header of a core metadata file (RFC 822 style;
// the headers end at the first blank line).
func metadataField(b []byte, key string) string {
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(k, key) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// tomlErrLine is the line of a BurntSushi/toml parse error.
func tomlErrLine(err error) int {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return pe.Position.Line
	}
	return 0
}
