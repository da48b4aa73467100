package knowledge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// The project's knowledge (projectinfo.Knowledge): the knowledge base,
// skills and agents, workflows, templates and the routing table, as the
// context toolset serves them.

// TKBQuery is what query_tkb takes.
type TKBQuery struct {
	Query, Category, Maturity, UseCase string
	page.Page
}

// TKBPage is a page of knowledge entries.
type TKBPage struct {
	Entries    []projectinfo.Doc
	Total      int
	Offset     int
	NextOffset int
	// Empty says the project has no knowledge base at all.
	Empty bool
}

// KnowledgePage is the knowledge lists' page rule.
var KnowledgePage = page.Rule{Default: 10, Max: 50}

// Knowledge is the project's knowledge documents.
func (b *Service) Knowledge() projectinfo.Knowledge { return b.detector.Knowledge(b.root) }

func docsOf(k projectinfo.Knowledge, kinds ...string) []projectinfo.Doc {
	var out []projectinfo.Doc
	for _, d := range k.Docs {
		if slices.Contains(kinds, d.Kind) {
			out = append(out, d)
		}
	}
	return out
}

func docText(d projectinfo.Doc) string {
	return strings.Join(append(append(append([]string{d.Name, d.Title, d.Description, d.Category}, d.UseCases...), d.Expertise...), append(d.Triggers, d.Tags...)...), " ")
}

// QueryTKB filters and ranks the knowledge base: entries of the category,
// maturity and use case given, those holding more of the query's words
// first (title, description, tags and use cases count; the body less).
func (b *Service) QueryTKB(q TKBQuery) (TKBPage, error) {
	p, err := KnowledgePage.Apply(q.Page)
	if err != nil {
		return TKBPage{}, err
	}
	if len(q.Query) > MaxQuery {
		return TKBPage{}, &problem.FieldError{Field: "query", Problem: fmt.Sprintf("is %d bytes", len(q.Query)), Fix: fmt.Sprintf("keep it under %d", MaxQuery)}
	}
	all := docsOf(b.Knowledge(), projectinfo.DocKnowledge)
	out := TKBPage{Offset: p.Offset, Empty: len(all) == 0}
	ws := words.Query(q.Query)
	type scored struct {
		d projectinfo.Doc
		s float64
	}
	var hits []scored
	eq := func(want, have string) bool { return want == "" || strings.EqualFold(strings.TrimSpace(want), have) }
	for _, d := range all {
		if !eq(q.Category, d.Category) || !eq(q.Maturity, d.Maturity) {
			continue
		}
		if q.UseCase != "" && !slices.ContainsFunc(d.UseCases, func(u string) bool {
			return strings.Contains(strings.ToLower(u), strings.ToLower(strings.TrimSpace(q.UseCase)))
		}) {
			continue
		}
		s := 1.0
		if len(ws) > 0 {
			s = 2*words.Overlap(ws, docText(d)) + words.Overlap(ws, d.Body)
			if s == 0 {
				continue
			}
		}
		hits = append(hits, scored{d, s})
	}
	slices.SortStableFunc(hits, func(x, y scored) int {
		switch {
		case x.s > y.s:
			return -1
		case x.s < y.s:
			return 1
		}
		return 0
	})
	out.Total = len(hits)
	for _, h := range hits[min(p.Offset, len(hits)):min(p.Offset+p.Limit, len(hits))] {
		out.Entries = append(out.Entries, h.d)
	}
	out.NextOffset = page.NextOffset(out.Offset, len(out.Entries), out.Total)
	return out, nil
}

// maxDocBody bounds the body a document answer carries.
const maxDocBody = 16 << 10

// Document is one knowledge document in full (its body clipped to
// maxDocBody, which Clipped says).
type Document struct {
	projectinfo.Doc
	Body    string
	Clipped bool
}

// findDoc finds a document of the kinds by path or name.
func (b *Service) findDoc(field, ref string, what string, kinds ...string) (Document, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return Document{}, &problem.FieldError{Field: field, Problem: "is empty", Fix: "pass a " + what + " name or path"}
	}
	docs := docsOf(b.Knowledge(), kinds...)
	for _, d := range docs {
		if d.Path == ref || strings.EqualFold(d.Name, ref) || strings.EqualFold(strings.TrimSuffix(d.Path, ".md"), ref) {
			doc := Document{Doc: d, Body: d.Body}
			if len(doc.Body) > maxDocBody {
				doc.Body, doc.Clipped = problem.Clip(doc.Body, maxDocBody), true
			}
			return doc, nil
		}
	}
	fix := "pass a name or path the list shows"
	if len(docs) == 0 {
		fix = "the project has none yet: pass one after adding it"
	}
	return Document{}, &problem.FieldError{Field: field, Problem: fmt.Sprintf("names no %s (%s)", what, problem.Quote(ref)), Fix: fix}
}

// TKBEntry returns one knowledge base entry by path or name.
func (b *Service) TKBEntry(ref string) (Document, error) {
	return b.findDoc("entry", ref, "knowledge entry", projectinfo.DocKnowledge)
}

// Agent returns a skill or agent by name or path.
func (b *Service) Agent(name string) (Document, error) {
	return b.findDoc("name", name, "skill or agent", projectinfo.DocSkill, projectinfo.DocAgent)
}

// Agents are the project's skills and agents.
func (b *Service) Agents() []projectinfo.Doc {
	return docsOf(b.Knowledge(), projectinfo.DocSkill, projectinfo.DocAgent)
}

// Competency is one row of the competency matrix.
type Competency struct {
	Name, Kind, Path string
	Expertise        []string
}

// CompetencyMatrix lists every skill and agent with the expertise it
// declares (its use cases when it declares none), and every expertise.
func (b *Service) CompetencyMatrix() ([]Competency, []string) {
	var rows []Competency
	var all []string
	for _, d := range b.Agents() {
		ex := d.Expertise
		if len(ex) == 0 {
			ex = d.UseCases
		}
		rows = append(rows, Competency{Name: d.Name, Kind: d.Kind, Path: d.Path, Expertise: ex})
		for _, e := range ex {
			if !slices.ContainsFunc(all, func(x string) bool { return strings.EqualFold(x, e) }) {
				all = append(all, e)
			}
		}
	}
	slices.Sort(all)
	return rows, all
}

// Match is a document a task description matches, and how well.
type Match struct {
	projectinfo.Doc
	Score float64 // share of the description's words it holds
}

// Classification is what classify_task finds for a description.
type Classification struct {
	Agents, Workflows, Templates []Match
	Empty                        bool // the project has none of the three
}

// ClassifyTask matches a task description with the skills and agents,
// workflows and templates whose names, descriptions, expertise and
// triggers share its words: the best three of each.
func (b *Service) ClassifyTask(description string) (Classification, error) {
	if len(description) > 4096 {
		return Classification{}, &problem.FieldError{Field: "description", Problem: fmt.Sprintf("is %d bytes", len(description)), Fix: "keep it under 4096: the task in a few sentences"}
	}
	ws := words.Query(description)
	if len(ws) == 0 {
		return Classification{}, &problem.FieldError{Field: "description", Problem: "has no word to match (three letters or more, not a stop word)",
			Fix: "give the task in a sentence, such as \"add OAuth login to the admin UI\""}
	}
	k := b.Knowledge()
	best := func(kinds ...string) []Match {
		var ms []Match
		for _, d := range docsOf(k, kinds...) {
			if s := words.Overlap(ws, docText(d)); s > 0 {
				ms = append(ms, Match{d, s})
			}
		}
		slices.SortStableFunc(ms, func(x, y Match) int {
			switch {
			case x.Score > y.Score:
				return -1
			case x.Score < y.Score:
				return 1
			}
			return 0
		})
		return ms[:min(len(ms), 3)]
	}
	c := Classification{Agents: best(projectinfo.DocSkill, projectinfo.DocAgent), Workflows: best(projectinfo.DocWorkflow), Templates: best(projectinfo.DocTemplate)}
	c.Empty = len(docsOf(k, projectinfo.DocSkill, projectinfo.DocAgent, projectinfo.DocWorkflow, projectinfo.DocTemplate)) == 0
	return c, nil
}

// Routing is the routing table: the project's own file, or one derived
// from what its skills and agents declare.
type Routing struct {
	Path    string // the file it came from; "" when derived
	Text    string // the file, clipped to maxDocBody
	Clipped bool
	Rows    []Competency // derived: who handles what
}

// RoutingTable returns the routing table.
func (b *Service) RoutingTable() Routing {
	k := b.Knowledge()
	if k.RoutingPath != "" {
		r := Routing{Path: k.RoutingPath, Text: k.Routing}
		if len(r.Text) > maxDocBody {
			r.Text, r.Clipped = problem.Clip(r.Text, maxDocBody), true
		}
		return r
	}
	rows, _ := b.CompetencyMatrix()
	return Routing{Rows: rows}
}
