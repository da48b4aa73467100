package project

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// The context toolset's project knowledge: the knowledge base
// (knowledge/**/*.md), skills and agents (skills/*/SKILL.md,
// .claude/agents/*.md), workflows, templates and the routing table.

type QueryTKBArgs struct {
	Query    string `json:"query,omitempty" jsonschema:"words to rank by"`
	Category string `json:"category,omitempty"`
	Maturity string `json:"maturity,omitempty"`
	UseCase  string `json:"use_case,omitempty"`
	Offset   int    `json:"offset,omitempty"`
	Limit    int    `json:"limit,omitempty" jsonschema:"default 10"`
}

type TKBEntryArgs struct {
	Entry string `json:"entry" jsonschema:"path or name, as query_tkb lists it"`
}

type AgentArgs struct {
	Name string `json:"name" jsonschema:"skill or agent name, or its path"`
}

type heuristicsArgs struct {
	Decision string `json:"decision" jsonschema:"the decision, in a sentence or a few"`
}

type ClassifyArgs struct {
	Description string `json:"description" jsonschema:"the task, in a sentence or a few"`
}

func knowledgeTools() []tool.Tool {
	const ts = "context"
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "query_tkb", Annotations: tool.ReadOnly, Description: "Searches the project's knowledge base (knowledge/**/*.md) by words, category, maturity and use case; index lines, get_tkb_entry for one."},
			QueryTKBTool, tool.PageShape(knowledge.KnowledgePage)...),
		tool.Declare(ts, mcp.Tool{Name: "get_tkb_entry", Annotations: tool.ReadOnly, Description: "One knowledge base entry in full: front matter and body."}, TKBEntryTool),
		tool.Declare(ts, mcp.Tool{Name: "get_agent", Annotations: tool.ReadOnly, Description: "A skill (skills/*/SKILL.md) or agent (.claude/agents/*.md): its front matter parsed, and its instructions."}, AgentTool),
		tool.Declare(ts, mcp.Tool{Name: "get_competency_matrix", Annotations: tool.ReadOnly, Description: "Every skill and agent with the expertise it declares."}, CompetencyTool),
		tool.Declare(ts, mcp.Tool{Name: "classify_task", Annotations: tool.ReadOnly, Description: "The skills or agents, workflows (workflows/*.md) and templates that match a task description, best first."}, ClassifyTool),
		tool.Declare(ts, mcp.Tool{Name: "apply_heuristics", Annotations: tool.ReadOnly,
			Description: "A decision against the project's heuristics (heuristics.md, else a default ten) as questions to answer, and the past decisions and mistakes it recalls."},
			heuristicsTool),
		tool.Declare(ts, mcp.Tool{Name: "get_routing_table", Annotations: tool.ReadOnly, Description: "Which skill or agent handles what: the project's routing.md, else one derived from what they declare."}, routingTool),
	}
}

const noKnowledge = "This project has no %s yet: add Markdown files under %s (YAML front matter: %s)."

func QueryTKBTool(_ context.Context, c tool.Call, in QueryTKBArgs) (string, any, error) {
	p, err := c.Knowledge.QueryTKB(knowledge.TKBQuery{Query: in.Query, Category: in.Category, Maturity: in.Maturity, UseCase: in.UseCase,
		Page: page.Page{Offset: in.Offset, Limit: in.Limit}})
	if err != nil {
		return "", nil, err
	}
	out := tkbOut{Entries: []tkbEntry{}, Total: p.Total, NextOffset: p.NextOffset}
	for _, d := range p.Entries {
		out.Entries = append(out.Entries, tkbEntry{d.Path, d.Name, d.Title, d.Category, d.Maturity, d.Description, d.UseCases})
	}
	switch {
	case p.Empty:
		return fmt.Sprintf(noKnowledge, "knowledge base", projectinfo.KnowledgePaths.Knowledge+"/", "title, category, maturity, use_cases, description"), out, nil
	case p.Total == 0:
		return "No knowledge entry matches; query_tkb with fewer filters lists them all.", out, nil
	}
	return out.text(p.Offset), out, nil
}

// tkbEntry is a knowledge entry as query_tkb lists it.
type tkbEntry struct {
	Path        string   `json:"path"`
	Name        string   `json:"name,omitempty"`
	Title       string   `json:"title,omitempty"`
	Category    string   `json:"category,omitempty"`
	Maturity    string   `json:"maturity,omitempty"`
	Description string   `json:"description,omitempty"`
	UseCases    []string `json:"use_cases,omitempty"`
}

type tkbOut struct {
	Entries    []tkbEntry `json:"entries"`
	Total      int        `json:"total"`
	NextOffset int        `json:"next_offset,omitempty"`
}

// text is a page of knowledge entries (at offset), a line each.
func (o tkbOut) text(offset int) string {
	lines := []string{fmt.Sprintf("%d-%d of %s:", offset+1, offset+len(o.Entries), words.Plural(o.Total, "entry", "entries"))}
	for _, d := range o.Entries {
		line := "- " + d.Path
		for _, tag := range []string{d.Category, d.Maturity} {
			if tag != "" {
				line += " · " + tag
			}
		}
		if t := cmp.Or(d.Title, d.Name); t != "" {
			line += ": " + t
		}
		if d.Description != "" {
			line += " — " + d.Description
		}
		lines = append(lines, line)
	}
	if o.NextOffset > 0 {
		lines = append(lines, fmt.Sprintf("next page: offset %d", o.NextOffset))
	}
	return strings.Join(lines, "\n")
}

func renderDoc(d knowledge.Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)", d.Path, d.Kind)
	if t := cmp.Or(d.Title, d.Name); t != "" {
		b.WriteString(": " + t)
	}
	for _, f := range []struct{ k, v string }{{"description", d.Description}, {"category", d.Category}, {"maturity", d.Maturity},
		{"use cases", strings.Join(d.UseCases, ", ")}, {"expertise", strings.Join(d.Expertise, ", ")}, {"triggers", strings.Join(d.Triggers, ", ")}} {
		if f.v != "" {
			fmt.Fprintf(&b, "\n%s: %s", f.k, f.v)
		}
	}
	if d.Body != "" {
		b.WriteString("\n\n" + d.Body)
	}
	if d.Clipped {
		fmt.Fprintf(&b, "\n\n(clipped at %d KiB: read the file for the rest)", len(d.Body)>>10)
	}
	return b.String()
}

func docOut(d knowledge.Document) any {
	return struct {
		projectinfo.Doc
		Body    string `json:"body,omitempty"`
		Clipped bool   `json:"clipped,omitempty"`
	}{d.Doc, d.Body, d.Clipped}
}

func TKBEntryTool(_ context.Context, c tool.Call, in TKBEntryArgs) (string, any, error) {
	d, err := c.Knowledge.TKBEntry(in.Entry)
	if err != nil {
		return "", nil, err
	}
	return renderDoc(d), docOut(d), nil
}

func AgentTool(_ context.Context, c tool.Call, in AgentArgs) (string, any, error) {
	d, err := c.Knowledge.Agent(in.Name)
	if err != nil {
		return "", nil, err
	}
	return renderDoc(d), docOut(d), nil
}

func CompetencyTool(_ context.Context, c tool.Call, _ tool.NoArgs) (string, any, error) {
	rows, all := c.Knowledge.CompetencyMatrix()
	out := map[string]any{"rows": viewCompetencies(rows), "expertise": all}
	if len(rows) == 0 {
		return fmt.Sprintf(noKnowledge, "skills or agents", "skills/NAME/SKILL.md or .claude/agents/", "name, description, expertise"), out, nil
	}
	lines := []string{fmt.Sprintf("%s, %s:", words.Plural(len(rows), "skill or agent", "skills and agents"), words.Plural(len(all), "area of expertise", "areas of expertise"))}
	for _, r := range rows {
		ex := strings.Join(r.Expertise, ", ")
		if ex == "" {
			ex = "(declares no expertise)"
		}
		lines = append(lines, fmt.Sprintf("- %s (%s): %s", r.Name, r.Kind, ex))
	}
	return strings.Join(lines, "\n"), out, nil
}

func ClassifyTool(ctx context.Context, c tool.Call, in ClassifyArgs) (string, any, error) {
	cl, err := c.Knowledge.ClassifyTask(in.Description)
	if err != nil {
		return "", nil, err
	}
	// The best skill or agent is the task's type for insight (its
	// workflow when no skill or agent matches).
	for _, ms := range [][]knowledge.Match{cl.Agents, cl.Workflows} {
		if len(ms) > 0 {
			tool.NoteClass(ctx, ms[0].Name)
			break
		}
	}
	if cl.Empty {
		return fmt.Sprintf(noKnowledge, "skills, agents, workflows or templates", "skills/, .claude/agents/, workflows/ or templates/", "name, description, expertise or triggers"), viewClassification(cl), nil
	}
	var lines []string
	for _, g := range []struct {
		name string
		ms   []knowledge.Match
		tool string
	}{{"skills and agents", cl.Agents, "get_agent"}, {"workflows", cl.Workflows, ""}, {"templates", cl.Templates, ""}} {
		if len(g.ms) == 0 {
			lines = append(lines, g.name+": none matches")
			continue
		}
		lines = append(lines, g.name+":")
		for _, m := range g.ms {
			line := fmt.Sprintf("- %s (%s, %.0f%% of the words)", m.Name, m.Path, m.Score*100)
			if m.Description != "" {
				line += ": " + m.Description
			}
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n"), viewClassification(cl), nil
}

func routingTool(_ context.Context, c tool.Call, _ tool.NoArgs) (string, any, error) {
	r := c.Knowledge.RoutingTable()
	if r.Path != "" {
		text := "Routing table from " + r.Path + ":\n\n" + r.Text
		if r.Clipped {
			text += "\n\n(clipped: read the file for the rest)"
		}
		return text, viewRouting(r), nil
	}
	if len(r.Rows) == 0 {
		return "This project has no routing table (routing.md or templates/routing.md) and no skills or agents to derive one from.", viewRouting(r), nil
	}
	lines := []string{"No routing.md: derived from what the skills and agents declare:"}
	for _, row := range r.Rows {
		what := strings.Join(row.Expertise, ", ")
		if what == "" {
			what = "(no expertise declared)"
		}
		lines = append(lines, fmt.Sprintf("- %s → %s", what, row.Name))
	}
	return strings.Join(lines, "\n"), viewRouting(r), nil
}

// The knowledge tools answer in snake_case, whatever the service's Go
// fields are called: these are their structured answers.

type competencyView struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Path      string   `json:"path"`
	Expertise []string `json:"expertise,omitempty"`
}

func viewCompetencies(rows []knowledge.Competency) []competencyView {
	out := make([]competencyView, len(rows))
	for i, r := range rows {
		out[i] = competencyView{r.Name, r.Kind, r.Path, r.Expertise}
	}
	return out
}

type matchView struct {
	projectinfo.Doc
	Score float64 `json:"score"`
}

type classificationView struct {
	Agents    []matchView `json:"agents"`
	Workflows []matchView `json:"workflows"`
	Templates []matchView `json:"templates"`
	Empty     bool        `json:"empty,omitempty"`
}

func viewClassification(c knowledge.Classification) classificationView {
	view := func(ms []knowledge.Match) []matchView {
		out := make([]matchView, len(ms))
		for i, m := range ms {
			out[i] = matchView{m.Doc, m.Score}
		}
		return out
	}
	return classificationView{view(c.Agents), view(c.Workflows), view(c.Templates), c.Empty}
}

type routingView struct {
	Path    string           `json:"path,omitempty"`
	Text    string           `json:"text,omitempty"`
	Clipped bool             `json:"clipped,omitempty"`
	Rows    []competencyView `json:"rows,omitempty"`
}

func viewRouting(r knowledge.Routing) routingView {
	return routingView{r.Path, r.Text, r.Clipped, viewCompetencies(r.Rows)}
}

func heuristicsTool(ctx context.Context, c tool.Call, in heuristicsArgs) (string, any, error) {
	a, err := c.Knowledge.ApplyHeuristics(ctx, in.Decision)
	if err != nil {
		return "", nil, err
	}
	src := "the default heuristics (add heuristics.md to use your own)"
	if a.Source != "default" {
		src = a.Source
	}
	lines := []string{"Weigh the decision against " + src + ":"}
	for i, h := range a.Heuristics {
		if h.Name != "" {
			lines = append(lines, fmt.Sprintf("%d. %s: %s", i+1, h.Name, h.Question))
		} else {
			lines = append(lines, fmt.Sprintf("%d. %s", i+1, h.Question))
		}
	}
	if len(a.Related) > 0 {
		lines = append(lines, "It recalls (memory_get for the entries):")
		for _, r := range a.Related {
			lines = append(lines, "- "+r)
		}
	}
	lines = append(lines, "Record the outcome with memory_add_decision (rationale, alternatives).")
	return strings.Join(lines, "\n"), appliedViewOf(a), nil
}
