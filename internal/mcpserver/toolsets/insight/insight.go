// Package insight declares the insight toolset: measured use, model
// performance and comparison, recommendation, project health, feedback.
package insight

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/usage"
)

type WindowArgs struct {
	Days int `json:"days,omitempty" jsonschema:"default 30"`
}

type performanceArgs struct {
	WindowArgs
	By       string `json:"by,omitempty"`
	TaskType string `json:"task_type,omitempty"`
	Class    string `json:"class,omitempty" jsonschema:"only sessions classify_task matched to this skill or agent; unknown: unclassified"`
}

type compareArgs struct {
	WindowArgs
	Models   []string `json:"models,omitempty"`
	TaskType string   `json:"task_type,omitempty"`
	Class    string   `json:"class,omitempty" jsonschema:"as in model_performance"`
}

type recommendArgs struct {
	WindowArgs
	Task     string `json:"task,omitempty" jsonschema:"in words"`
	TaskType string `json:"task_type,omitempty"`
}

type toolUsageArgs struct {
	WindowArgs
	Tool string `json:"tool,omitempty"`
	Top  int    `json:"top,omitempty" jsonschema:"tools listed; default 10"`
}

func Tools() []tool.Tool {
	const ts = "insight"
	types := tool.Enum("task_type", tool.EnumValues(usage.TaskTypes)...)
	days := tool.Bounds("days", 1, 3650)
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "model_performance", Annotations: tool.ReadOnly,
			Description: "Per model (or client, agent): sessions, tasks, test pass rate at session end, failures, rework, reverts, bad answers, feedback, time per task, by task type and class, with 95% intervals."},
			performanceTool, days, types, tool.Enum("by", tool.EnumValues(insight.Groupings)...)),
		tool.Declare(ts, mcp.Tool{Name: "model_compare", Annotations: tool.ReadOnly,
			Description: "Models side by side with sample sizes and intervals; names a difference only where the data shows one, else \"not enough data\" or none."},
			compareTool, days, types),
		tool.Declare(ts, mcp.Tool{Name: "model_recommend", Annotations: tool.ReadOnly,
			Description: "The model with the best evidence for a task or task type, and why; abstains when the data cannot tell."},
			recommendTool, days, types),
		tool.Declare(ts, mcp.Tool{Name: "project_health", Annotations: tool.ReadOnly,
			Description: "Health score 0-100 from named weighted components (tests, failures, mistakes, memory, plan, loops, lifecycle, checks, tools, feedback, reverts), each with value, trend and data."},
			HealthTool, days),
		tool.Declare(ts, mcp.Tool{Name: "tool_usage", Annotations: tool.ReadOnly,
			Description: "Cairn's tool calls: counts, error rates, p50/p95 latency, answer size, clients, common call sequences."},
			toolUsageTool, days, tool.Bounds("top", 1, insight.MaxTop)),
		feedbackTool(),
	}
}

func performanceTool(ctx context.Context, c tool.Call, in performanceArgs) (string, any, error) {
	p, err := c.Insight.Performance(ctx, insight.Query{Days: in.Days, By: in.By, TaskType: in.TaskType, Class: in.Class})
	if err != nil {
		return "", nil, err
	}
	text, out := render.Performance(p)
	return text, out, nil
}

func compareTool(ctx context.Context, c tool.Call, in compareArgs) (string, any, error) {
	r, err := c.Insight.Compare(ctx, insight.Query{Days: in.Days, Models: in.Models, TaskType: in.TaskType, Class: in.Class})
	if err != nil {
		return "", nil, err
	}
	text, out := render.Compare(r)
	return text, out, nil
}

func recommendTool(ctx context.Context, c tool.Call, in recommendArgs) (string, any, error) {
	r, err := c.Insight.Recommend(ctx, insight.Query{Days: in.Days, Task: in.Task, TaskType: in.TaskType})
	if err != nil {
		return "", nil, err
	}
	text, out := render.Recommend(r, c.Insight.MinSample())
	return text, out, nil
}

func HealthTool(ctx context.Context, c tool.Call, in WindowArgs) (string, any, error) {
	h, err := c.Insight.Health(ctx, in.Days)
	if err != nil {
		return "", nil, err
	}
	text, out := render.Health(h)
	return text, out, nil
}

func toolUsageTool(ctx context.Context, c tool.Call, in toolUsageArgs) (string, any, error) {
	if in.Top == 0 {
		in.Top = 10
	}
	u, err := c.Insight.ToolUsage(ctx, in.Days, in.Tool, in.Top)
	if err != nil {
		return "", nil, err
	}
	text, out := render.ToolUsage(u)
	return text, out, nil
}
