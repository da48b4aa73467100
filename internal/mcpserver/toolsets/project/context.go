// Package project declares the context toolset: the session start in one
// call (bootstrap), project detection, configuration, knowledge, next
// steps, scaffolding.
package project

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/words"
)

// The context toolset: one call that starts a session knowing where it is
// (bootstrap), and what the project is made of. Hooks deliver the same
// bootstrap without the agent asking (cairn hook session-start).

type bootstrapArgs struct {
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"default 1500"`
	Query        string `json:"query,omitempty" jsonschema:"a topic to favour in memory and instructions"`
}

type DetectProjectArgs struct{}

type optimizeContextArgs struct {
	Query        string          `json:"query" jsonschema:"the topic"`
	BudgetTokens int             `json:"budget_tokens,omitempty" jsonschema:"default 1000"`
	Candidates   tool.StringList `json:"candidates,omitempty" jsonschema:"ids to choose among (m12, 12); default: what the query finds"`
}

type techCompatibilityArgs struct {
	Stack tool.StringList `json:"stack,omitempty" jsonschema:"technologies to check; default what the project uses"`
}

type GetConfigArgs struct{}

type suggestNextArgs struct{}

// Tools are the context toolset's tools but scaffold (ScaffoldTools),
// which the server lists after the others.
func Tools() []tool.Tool { return slices.Concat(contextTools(), knowledgeTools()) }

func contextTools() []tool.Tool {
	const ts = "context"
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "bootstrap", Annotations: tool.ReadOnly,
			Description: "Start of a session in one call, within a token budget: YOU ARE HERE, the next task, loops, session, project, instruction digest, conventions, mistakes, decisions (ids for memory_get)."},
			bootstrapTool, tool.Bounds("budget_tokens", brief.MinBootstrapBudget, brief.MaxBootstrapBudget)),
		tool.Declare(ts, mcp.Tool{Name: "detect_project", Annotations: tool.ReadOnly,
			Description: "The project's languages, frameworks, package managers, build and test commands, per module, from its manifests; CI, containers, agent instruction files."},
			DetectProjectTool),
		tool.Declare(ts, mcp.Tool{Name: "optimize_context", Annotations: tool.ReadOnly,
			Description: "Chooses, within a token budget, the memory entries, tasks and instruction lines most relevant to a query; says what it dropped and why."},
			optimizeContextTool, tool.Bounds("budget_tokens", 50, brief.MaxBootstrapBudget)),
		tool.Declare(ts, mcp.Tool{Name: "tech_compatibility", Annotations: tool.ReadOnly,
			Description: "Checks the project's stack (from detect_project) for tools that clash or overlap, and where each technology asked about is used; a score out of 100."},
			techCompatibilityTool),
		tool.Declare(ts, mcp.Tool{Name: "get_config", Annotations: tool.ReadOnly,
			Description: "The configuration in force (toolsets, agent, project root, store, branch, embeddings, budgets) and where each value came from."},
			GetConfigTool),
		tool.Declare(ts, mcp.Tool{Name: "suggest_next", Annotations: tool.ReadOnly,
			Description: "The next steps from where you are (focus, subtasks, loops, session), each a tool call with its arguments filled in."},
			suggestNextTool),
	}
}

func GetConfigTool(ctx context.Context, c tool.Call, _ GetConfigArgs) (string, any, error) {
	surface := c.Host.Settings()
	surface = append(surface, brief.Setting{Name: "agent (this call)", Value: c.Agent, Source: "--agent, else the X-Cairn-Agent header or the client's name"},
		brief.Setting{Name: "tools served", Value: fmt.Sprint(c.Host.NumServed()), Source: "the toolsets, less writes when read-only"})
	settings := c.Brief.Config(ctx, surface)
	lines := make([]string, len(settings))
	for i, st := range settings {
		lines[i] = fmt.Sprintf("%s: %s  [%s]", st.Name, st.Value, st.Source)
	}
	return strings.Join(lines, "\n"), map[string]any{"settings": render.ViewsOf(settings, settingViewOf)}, nil
}

// suggestion is a next step as a tool call.
type suggestion struct {
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Why       string         `json:"why"`
	Needs     []string       `json:"needs,omitempty"`      // arguments only the agent can fill in
	NotServed string         `json:"not_served,omitempty"` // how to get the tool if it is not served
}

func suggestNextTool(ctx context.Context, c tool.Call, _ suggestNextArgs) (string, any, error) {
	ss, err := c.Brief.SuggestNext(ctx, c.Agent)
	if err != nil {
		return "", nil, err
	}
	out := suggestionsOut{Suggestions: make([]suggestion, 0, len(ss))}
	for _, s := range ss {
		if sg, ok := suggestionOf(s); ok {
			if !c.Host.Served(sg.Tool) {
				sg.NotServed = "in the " + c.Host.ToolsetOf(sg.Tool) + " toolset: enable it with the toolsets tool"
			}
			out.Suggestions = append(out.Suggestions, sg)
		}
	}
	return out.text(), out, nil
}

// suggestionOf words a suggested next step as the tool call that takes it.
func suggestionOf(s brief.Suggestion) (suggestion, bool) {
	sg := suggestion{Why: s.Why, Arguments: map[string]any{}}
	switch s.Kind {
	case brief.SuggestComplete:
		sg.Tool = "complete_current_task"
	case brief.SuggestSwitch:
		sg.Tool, sg.Arguments["task_id"] = "switch_focus", s.TaskID
	case brief.SuggestNext:
		sg.Tool = "get_next_task"
	case brief.SuggestCreate:
		sg.Tool, sg.Needs = "create_new_task", []string{"title"}
	case brief.SuggestLoopRecord:
		sg.Tool, sg.Arguments["id"], sg.Needs = "loop_record", s.LoopID, []string{"last_action"}
	case brief.SuggestLoopResume:
		sg.Tool, sg.Arguments["id"] = "loop_resume", s.LoopID
	case brief.SuggestStartSess:
		sg.Tool, sg.Arguments["action"] = "session", "start"
		if s.Goal != "" {
			sg.Arguments["goal"] = s.Goal
		}
	case brief.SuggestAddMistake:
		sg.Tool, sg.Arguments["title"], sg.Needs = "memory_add_mistake", s.Title, []string{"root_cause", "fix", "prevention"}
	case brief.SuggestNoteCurrent:
		sg.Tool, sg.Needs = "update_current_task", []string{"body"}
	default:
		return sg, false
	}
	return sg, true
}

type suggestionsOut struct {
	Suggestions []suggestion `json:"suggestions"`
}

// text numbers the next steps, each a tool call and why.
func (o suggestionsOut) text() string {
	if len(o.Suggestions) == 0 {
		return "Nothing to suggest."
	}
	lines := []string{"Next steps:"}
	for i, sg := range o.Suggestions {
		args, _ := json.Marshal(sg.Arguments)
		line := fmt.Sprintf("%d. %s %s: %s", i+1, sg.Tool, args, sg.Why)
		if len(sg.Needs) > 0 {
			line += " (fill in " + strings.Join(sg.Needs, ", ") + ")"
		}
		if sg.NotServed != "" {
			line += " [" + sg.NotServed + "]"
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

func bootstrapTool(ctx context.Context, c tool.Call, in bootstrapArgs) (string, any, error) {
	b, err := c.Brief.Bootstrap(ctx, brief.BootstrapRequest{Agent: c.Agent, BudgetTokens: in.BudgetTokens, Query: in.Query, Hint: render.BootstrapHint})
	if err != nil {
		return "", nil, err
	}
	b.Text += render.Announcement(c.Evolution.Announcements("bootstrap"))
	return b.Text, bootstrapViewOf(b), nil
}

func DetectProjectTool(_ context.Context, c tool.Call, _ DetectProjectArgs) (string, any, error) {
	info := c.Knowledge.Project()
	return renderProject(info), info, nil
}

// renderProject is a project's stack as text.
func renderProject(info projectinfo.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Project %s", info.Name)
	if len(info.Languages) > 0 {
		b.WriteString(": " + strings.Join(info.Languages, ", "))
	}
	if len(info.Frameworks) > 0 {
		b.WriteString(" · " + strings.Join(info.Frameworks, ", "))
	}
	if len(info.PackageManagers) > 0 {
		b.WriteString(" · with " + strings.Join(info.PackageManagers, ", "))
	}
	if len(info.Modules) == 0 {
		b.WriteString("\nNo manifest found (go.mod, package.json, Cargo.toml, pyproject.toml, requirements.txt, pom.xml, build.gradle, Gemfile, composer.json, *.csproj).")
	}
	for _, m := range info.Modules {
		fmt.Fprintf(&b, "\n- %s", m.Dir)
		if m.Name != "" {
			fmt.Fprintf(&b, " (%s)", m.Name)
		}
		fmt.Fprintf(&b, ": %s from %s", strings.Join(m.Languages, ", "), strings.Join(m.Manifests, ", "))
		if len(m.Frameworks) > 0 {
			b.WriteString(" · " + strings.Join(m.Frameworks, ", "))
		}
		if len(m.Build) > 0 {
			b.WriteString(" · build: " + strings.Join(m.Build, "; "))
		}
		if len(m.Test) > 0 {
			b.WriteString(" · test: " + strings.Join(m.Test, "; "))
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{"CI", info.CI}, {"containers", info.Containers}, {"agent instructions", info.Instructions}} {
		if len(l.items) > 0 {
			fmt.Fprintf(&b, "\n%s: %s", l.name, strings.Join(l.items, ", "))
		}
	}
	if info.Partial {
		fmt.Fprintf(&b, "\n(the scan stopped at %d directory levels or %d entries; deeper modules are not listed)", projectinfo.MaxDepth, projectinfo.MaxEntries)
	}
	return b.String()
}

func optimizeContextTool(ctx context.Context, c tool.Call, in optimizeContextArgs) (string, any, error) {
	o, err := c.Brief.OptimizeContext(ctx, brief.OptimizeRequest{Query: in.Query, BudgetTokens: in.BudgetTokens, Candidates: in.Candidates})
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %d of %d tokens (o200k):", words.Count(len(o.Chosen), "item"), o.Tokens, o.Budget)
	if len(o.Chosen) == 0 {
		b.WriteString(" nothing matches the query.")
	}
	for _, it := range o.Chosen {
		fmt.Fprintf(&b, "\n- %s", it.Line)
	}
	if len(o.Dropped) > 0 {
		over, none := 0, 0
		for _, it := range o.Dropped {
			if it.Score == 0 {
				none++
			} else {
				over++
			}
		}
		fmt.Fprintf(&b, "\nDropped %d over the budget, %d matching none of the words (ids in dropped).", over, none)
	}
	type dropped struct {
		Ref, Kind, Why string
	}
	out := struct {
		Chosen  []contextItemView `json:"chosen"`
		Dropped []dropped         `json:"dropped,omitempty"`
		Tokens  int               `json:"tokens"`
		Budget  int               `json:"budget"`
	}{Chosen: render.ViewsOf(o.Chosen, contextItemViewOf), Tokens: o.Tokens, Budget: o.Budget}
	for _, it := range o.Dropped {
		out.Dropped = append(out.Dropped, dropped{it.Ref, it.Kind, it.Why})
	}
	return b.String(), out, nil
}

func techCompatibilityTool(_ context.Context, c tool.Call, in techCompatibilityArgs) (string, any, error) {
	r, err := c.Knowledge.TechCompatibility(in.Stack)
	if err != nil {
		return "", nil, err
	}
	lines := []string{fmt.Sprintf("Compatibility %d/100: %s.", r.Score, words.Plural(len(r.Findings), "finding", "findings"))}
	for _, f := range r.Findings {
		where := ""
		if f.Module != "" {
			where = " in " + f.Module
		}
		lines = append(lines, fmt.Sprintf("- %s%s: %s", f.Severity, where, f.Text))
	}
	for _, it := range r.Stack {
		switch {
		case it.Found && it.Detail != "":
			lines = append(lines, fmt.Sprintf("%s: used (%s) in %s", it.Name, it.Detail, strings.Join(it.Where, ", ")))
		case it.Found:
			lines = append(lines, fmt.Sprintf("%s: used in %s", it.Name, strings.Join(it.Where, ", ")))
		default:
			lines = append(lines, it.Name+": not in the project (adding it is a new dependency)")
		}
	}
	return strings.Join(lines, "\n"), r, nil
}
