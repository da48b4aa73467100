package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service"
)

// The context toolset: one call that starts a session knowing where it is
// (bootstrap), and what the project is made of. Hooks deliver the same
// bootstrap without the agent asking (cairn hook session-start).

type bootstrapArgs struct {
	BudgetTokens int    `json:"budget_tokens,omitempty" jsonschema:"default 1500"`
	Query        string `json:"query,omitempty" jsonschema:"a topic to favour in memory and instructions"`
}

type detectProjectArgs struct{}

func contextTools() []tool {
	const ts = "context"
	return []tool{
		declare(ts, mcp.Tool{Name: "bootstrap", Annotations: readOnly,
			Description: "Start of a session in one call, within a token budget: YOU ARE HERE, the next task, loops, session, project, instruction digest, conventions, mistakes, decisions (ids for memory_get)."},
			bootstrapTool, bounds("budget_tokens", service.MinBootstrapBudget, service.MaxBootstrapBudget)),
		declare(ts, mcp.Tool{Name: "detect_project", Annotations: readOnly,
			Description: "The project's languages, frameworks, package managers, build and test commands, per module, from its manifests; CI, containers, agent instruction files."},
			detectProjectTool),
	}
}

// ContextHint words, as tool calls, how to fetch what a bootstrap section
// left out.
func ContextHint(section string) string {
	switch section {
	case service.SecInstructions:
		return "read the files"
	case service.SecConventions, service.SecMistakes, service.SecDecisions:
		return "memory_search type=" + strings.TrimSuffix(section, "s")
	case service.SecLoops:
		return "loop_list"
	case service.SecProject:
		return "detect_project"
	case service.SecSession:
		return "session action=get"
	case service.SecBranch:
		return "branch action=get"
	}
	return service.NeutralHint(section)
}

func bootstrapTool(ctx context.Context, c call, in bootstrapArgs) (string, any, error) {
	b, err := c.Brain.Bootstrap(ctx, service.BootstrapRequest{Agent: c.agent, BudgetTokens: in.BudgetTokens, Query: in.Query, Hint: ContextHint})
	if err != nil {
		return "", nil, err
	}
	return b.Text, b, nil
}

func detectProjectTool(_ context.Context, c call, _ detectProjectArgs) (string, any, error) {
	info := c.Brain.Project()
	return RenderProject(info), info, nil
}

// RenderProject is a project's stack as text.
func RenderProject(info projectinfo.Info) string {
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
