package projectinfo

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Project knowledge: documents a repository keeps for its agents, each a
// Markdown file whose YAML front matter describes it.
//
//	knowledge/**/*.md           entries of the technical knowledge base (category, maturity, use_cases)
//	skills/*/SKILL.md           skills (name, description, expertise)
//	.claude/agents/*.md         agents, as Claude Code defines them (name, description, tools)
//	workflows/*.md              workflows (name, description, triggers)
//	templates/*.md              templates
//	routing.md, templates/routing.md   a routing table, shown as written
//
// The folders are fixed relative to the root (KnowledgePaths); a project
// without them has an empty knowledge base.

// Paths are the folders knowledge is read from, relative to the root.
type Paths struct {
	Knowledge, Skills, Agents, Workflows, Templates string
	Routing                                         []string
}

// KnowledgePaths are where knowledge is read from by default; a project's
// [knowledge] table names others (Detector.Paths).
var KnowledgePaths = Paths{"knowledge", "skills", ".claude/agents", "workflows", "templates", []string{"routing.md", "templates/routing.md", "docs/routing.md"}}

// Doc kinds.
const (
	DocKnowledge = "knowledge"
	DocSkill     = "skill"
	DocAgent     = "agent"
	DocWorkflow  = "workflow"
	DocTemplate  = "template"
)

// Doc is one knowledge document: its front matter's common fields, the
// rest of it, and its body.
type Doc struct {
	Kind        string         `json:"kind"`
	Path        string         `json:"path"` // relative to the root
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	Category    string         `json:"category,omitempty"`
	Maturity    string         `json:"maturity,omitempty"`
	UseCases    []string       `json:"use_cases,omitempty"`
	Expertise   []string       `json:"expertise,omitempty"` // skills, agents: what they are good at
	Triggers    []string       `json:"triggers,omitempty"`  // workflows: when they apply
	Tags        []string       `json:"tags,omitempty"`
	Meta        map[string]any `json:"meta,omitempty"` // the whole front matter
	Body        string         `json:"-"`
	Truncated   bool           `json:"truncated,omitempty"` // the file was longer than maxRead
}

// Knowledge is a project's knowledge documents, and its routing table if
// it has one.
type Knowledge struct {
	Docs    []Doc  `json:"docs"`
	Routing string `json:"routing,omitempty"`
	// RoutingPath is the file the routing table came from.
	RoutingPath string `json:"routing_path,omitempty"`
}

const maxKnowledgeDocs = 2000

// KnowledgeMaxDepth is how many folders deep under KnowledgePaths.Knowledge
// entries are read: knowledge/1/2/3/4/5/6/entry.md is, one folder deeper
// is not.
const KnowledgeMaxDepth = 6

// ParseDoc reads a document as the context tools read it: its first 256
// KiB (what they read of a file), then its front matter and body. The
// hands' validate_tkb_entry uses it to see an entry as query_tkb and
// get_tkb_entry will.
func ParseDoc(kind, rel, text string) Doc {
	if len(text) > maxRead {
		text = text[:maxRead]
	}
	return parseDoc(kind, rel, text)
}

// readKnowledge scans the knowledge folders.
func readKnowledge(w *walked, paths Paths) Knowledge {
	var k Knowledge
	add := func(kind, rel string) {
		if len(k.Docs) >= maxKnowledgeDocs {
			return
		}
		text := w.read(rel)
		if text == "" {
			return
		}
		k.Docs = append(k.Docs, parseDoc(kind, rel, text))
	}
	walk := func(dir string, depth int, keep func(rel string, d fs.DirEntry) bool) []string {
		var out []string
		root := filepath.Join(w.root, filepath.FromSlash(dir))
		fi, err := os.Lstat(root)
		if err != nil || !fi.IsDir() {
			return nil
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			rel, _ := filepath.Rel(w.root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if strings.Count(strings.TrimPrefix(rel, dir), "/") > depth {
					return filepath.SkipDir
				}
				if info, err := d.Info(); err == nil {
					w.stamp(rel, info)
				}
				return nil
			}
			if keep(rel, d) {
				out = append(out, rel)
			}
			return nil
		})
		sort.Strings(out)
		return out
	}
	md := func(_ string, d fs.DirEntry) bool { return strings.HasSuffix(d.Name(), ".md") && d.Type().IsRegular() }
	for _, rel := range walk(paths.Knowledge, KnowledgeMaxDepth, md) {
		add(DocKnowledge, rel)
	}
	for _, rel := range walk(paths.Skills, 1, func(_ string, d fs.DirEntry) bool { return d.Name() == "SKILL.md" && d.Type().IsRegular() }) {
		add(DocSkill, rel)
	}
	for _, rel := range walk(paths.Agents, 0, md) {
		add(DocAgent, rel)
	}
	for _, rel := range walk(paths.Workflows, 1, md) {
		add(DocWorkflow, rel)
	}
	for _, rel := range walk(paths.Templates, 1, md) {
		if path.Base(rel) != "routing.md" {
			add(DocTemplate, rel)
		}
	}
	for _, rel := range paths.Routing {
		if text := w.read(rel); text != "" {
			k.Routing, k.RoutingPath = text, rel
			break
		}
	}
	return k
}

// parseDoc reads a document's front matter and body.
func parseDoc(kind, rel, text string) Doc {
	d := Doc{Kind: kind, Path: rel, Truncated: len(text) >= maxRead}
	body := text
	if strings.HasPrefix(text, "---\n") || strings.HasPrefix(text, "---\r\n") {
		rest := text[strings.Index(text, "\n")+1:]
		if end := strings.Index(rest, "\n---"); end >= 0 {
			_ = yaml.Unmarshal([]byte(rest[:end]), &d.Meta)
			body = rest[end+4:]
			if i := strings.Index(body, "\n"); i >= 0 {
				body = body[i+1:]
			} else {
				body = ""
			}
		}
	}
	d.Body = strings.TrimSpace(body)
	str := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := d.Meta[k]; ok {
				if s, ok := v.(string); ok {
					return strings.TrimSpace(s)
				}
			}
		}
		return ""
	}
	list := func(keys ...string) []string {
		var out []string
		for _, k := range keys {
			switch v := d.Meta[k].(type) {
			case string:
				for _, s := range strings.Split(v, ",") {
					if s = strings.TrimSpace(s); s != "" {
						out = append(out, s)
					}
				}
			case []any:
				for _, x := range v {
					if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
						out = append(out, strings.TrimSpace(s))
					}
				}
			}
		}
		return out
	}
	d.Name = str("name", "id")
	if d.Name == "" {
		d.Name = strings.TrimSuffix(path.Base(rel), ".md")
		if kind == DocSkill {
			d.Name = path.Base(path.Dir(rel))
		}
	}
	d.Title = str("title")
	if d.Title == "" {
		for _, l := range strings.Split(d.Body, "\n") {
			if h, ok := heading(strings.TrimSpace(l)); ok {
				d.Title = h
				break
			}
		}
	}
	d.Description = clip(str("description", "summary"))
	d.Category = str("category")
	d.Maturity = str("maturity", "status")
	d.UseCases = list("use_cases", "use-cases", "useCases", "use cases")
	d.Expertise = list("expertise", "skills", "competencies")
	d.Triggers = list("triggers", "when", "keywords")
	d.Tags = list("tags")
	return d
}
