package projectinfo

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Finding is one thing a compatibility check found.
type Finding struct {
	Severity string `json:"severity"` // conflict, overlap, note
	Module   string `json:"module,omitempty"`
	Text     string `json:"text"`
}

// StackItem is one technology asked about and where the project has it.
type StackItem struct {
	Name   string   `json:"name"`
	Found  bool     `json:"found"`
	Where  []string `json:"where,omitempty"` // module directories
	Detail string   `json:"detail,omitempty"`
}

// CompatReport is tech_compatibility's answer.
type CompatReport struct {
	Stack    []StackItem `json:"stack"`
	Findings []Finding   `json:"findings"`
	// Score is 100 less 20 a conflict, 10 an overlap and 3 a note.
	Score int `json:"score"`
}

// overlapping are tools that do the same job: two in one module is
// usually one too many.
var overlapping = [][]string{
	{"Jest", "Vitest", "Mocha"},
	{"React", "Vue", "Svelte", "Angular"},
	{"Next.js", "Nuxt", "SvelteKit", "Remix", "Astro"},
	{"Express", "Fastify", "Koa", "Hono", "NestJS"},
	{"Gin", "Echo", "Fiber", "chi", "gorilla/mux"},
	{"Django", "Flask", "FastAPI"},
	{"Playwright", "Cypress"},
	{"SQLite (modernc)", "SQLite (cgo)"},
}

// Compatibility checks the project's stack for tools that clash or
// overlap, and says where each technology of stack (default: what the
// project uses) is found.
func Compatibility(info Info, stack []string) CompatReport {
	r := CompatReport{Findings: []Finding{}}
	for _, m := range info.Modules {
		if len(m.LockFiles) > 1 {
			r.Findings = append(r.Findings, Finding{"conflict", m.Dir, fmt.Sprintf("lock files of several package managers (%s): keep the one of %s and delete the others", strings.Join(m.LockFiles, ", "), m.PackageManagers[0])})
		}
		for _, group := range overlapping {
			var both []string
			for _, f := range m.Frameworks {
				if slices.Contains(group, f) {
					both = append(both, f)
				}
			}
			if len(both) > 1 {
				r.Findings = append(r.Findings, Finding{"overlap", m.Dir, strings.Join(both, " and ") + " do the same job: one of them is likely left over"})
			}
		}
		if slices.Contains(m.Manifests, "pyproject.toml") && slices.ContainsFunc(m.Manifests, func(f string) bool { return strings.HasPrefix(f, "requirements") }) {
			r.Findings = append(r.Findings, Finding{"note", m.Dir, "dependencies in both pyproject.toml and requirements files: say which one is the source"})
		}
	}
	goVersions := map[string][]string{}
	for _, m := range info.Modules {
		for _, l := range m.Languages {
			if v, ok := strings.CutPrefix(l, "Go "); ok {
				goVersions[v] = append(goVersions[v], m.Dir)
			}
		}
	}
	if len(goVersions) > 1 {
		var parts []string
		for v, dirs := range goVersions {
			parts = append(parts, "go "+v+" in "+strings.Join(dirs, ", "))
		}
		slices.Sort(parts)
		r.Findings = append(r.Findings, Finding{"note", "", "Go modules on different versions (" + strings.Join(parts, "; ") + ")"})
	}
	if len(stack) == 0 {
		stack = append(slices.Clone(info.Languages), info.Frameworks...)
	}
	for _, s := range stack {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		it := StackItem{Name: s}
		low := strings.ToLower(s)
		for _, m := range info.Modules {
			for _, have := range slices.Concat(m.Languages, m.Frameworks, m.PackageManagers) {
				h := strings.ToLower(have)
				if h == low || strings.HasPrefix(h, low+" ") || strings.HasPrefix(low, h+" ") {
					it.Found = true
					it.Where = append(it.Where, m.Dir)
					if it.Detail == "" && have != s {
						it.Detail = have
					}
					break
				}
			}
		}
		if !it.Found && low == "docker" && len(info.Containers) > 0 {
			it.Found, it.Where = true, []string{path.Dir(info.Containers[0])}
		}
		r.Stack = append(r.Stack, it)
	}
	r.Score = 100
	for _, f := range r.Findings {
		r.Score -= map[string]int{"conflict": 20, "overlap": 10, "note": 3}[f.Severity]
	}
	r.Score = max(r.Score, 0)
	return r
}
