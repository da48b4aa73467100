package project

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/service/scaffold"
)

type scaffoldArgs struct {
	Level  string `json:"level,omitempty" jsonschema:"minimal, standard (default) or full"`
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"say what it would write; write nothing"`
}

// ScaffoldTools are the context toolset's scaffold tool, which the server
// lists after every other toolset's.
func ScaffoldTools() []tool.Tool {
	return []tool.Tool{
		tool.Declare("context", mcp.Tool{Name: "scaffold",
			Description: "Writes the knowledge folders the context tools read (AGENTS.md section, rules, knowledge, skills, workflows; full: agents, templates) with starter content. Never replaces a file."},
			scaffoldTool, tool.Enum("level", "minimal", "standard", "full")),
	}
}

func scaffoldTool(_ context.Context, c tool.Call, in scaffoldArgs) (string, any, error) {
	res, err := c.Scaffold.Scaffold(scaffold.Request{Level: in.Level, DryRun: in.DryRun})
	if err != nil {
		return "", nil, err
	}
	verb := "Wrote"
	if res.DryRun {
		verb = "Dry run: would write"
	}
	lines := []string{fmt.Sprintf("%s %d files (%s):", verb, len(res.Written), res.Level)}
	if len(res.Written) == 0 {
		lines[0] = fmt.Sprintf("Nothing to write (%s): every file is there.", res.Level)
	}
	for _, f := range res.Written {
		lines = append(lines, "- "+f.Path+": "+f.What)
	}
	if len(res.Skipped) > 0 {
		lines = append(lines, "Left alone:")
		for _, s := range res.Skipped {
			lines = append(lines, "- "+s.Path+": "+s.Why)
		}
	}
	if !res.DryRun && len(res.Written) > 0 {
		lines = append(lines, "query_tkb, get_agent and classify_task read them now; edit them to fit the project.")
	}
	return strings.Join(lines, "\n"), scaffoldViewOf(res), nil
}
