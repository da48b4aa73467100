package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// prompt is one prompt's declaration, served with its toolset (empty:
// whatever the toolsets).
type prompt struct {
	toolset string
	def     mcp.Prompt
	build   func(*server) mcp.PromptHandler
	// complete offers values for an argument being typed; nil for none.
	complete func(ctx context.Context, s *server, arg, prefix string) (mcp.CompletionResultDetails, error)
}

func allPrompts() []prompt { return append(planPrompts(), workPrompts()...) }

func planPrompts() []prompt {
	return []prompt{
		{toolset: "plan", def: mcp.Prompt{Name: "session_restore", Title: "Restore session",
			Description: "Where the project stands: task counts, YOU ARE HERE, the next task, recent updates."},
			build: func(s *server) mcp.PromptHandler { return s.sessionRestore }},
		{toolset: "plan", def: mcp.Prompt{Name: "task_context", Title: "Task context",
			Description: "One task in context: description, dependencies, dependents, subtasks.",
			Arguments:   []*mcp.PromptArgument{{Name: "taskId", Description: "task id, or parentId.N", Required: true}}},
			build:    func(s *server) mcp.PromptHandler { return s.taskContext },
			complete: completeTaskID},
	}
}

// promptError is a prompt failure as a JSON-RPC error: prompts have no
// error result, so the code and the message carry what a tool error would.
func promptError(ctx context.Context, s *server, name string, err error) error {
	te := classify(err)
	if te.Code == CodeInternal || te.Code == CodeUnavailable {
		s.log.ErrorContext(ctx, "prompt failed", "prompt", name, "error", err)
	}
	return &jsonrpc.Error{Code: int64(te.Code), Message: te.Message}
}

func userText(desc, text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Description: desc,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

func (s *server) sessionRestore(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	svc, err := s.opts.Services(ctx)
	if err != nil {
		return nil, promptError(ctx, s, "session_restore", err)
	}
	st, err := svc.Plan.Stats(ctx)
	if err != nil {
		return nil, promptError(ctx, s, "session_restore", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Project status\n\nTotal tasks: %d\n", st.Total)
	for _, x := range task.Statuses {
		fmt.Fprintf(&b, "- %s: %d", x, st.ByStatus[x])
		if x == task.StatusBlocked && st.BlockedCount > st.ByStatus[x] {
			fmt.Fprintf(&b, " (%d more waiting on dependencies)", st.BlockedCount-st.ByStatus[x])
		}
		b.WriteString("\n")
	}
	cur, err := svc.Focus.Current(ctx, s.agent(req))
	if err != nil {
		return nil, promptError(ctx, s, "session_restore", err)
	}
	if cur.Zen {
		b.WriteString("\n## YOU ARE HERE\nZen: no current task; switch_focus to the next task below to start it.\n")
	} else {
		fmt.Fprintf(&b, "\n## YOU ARE HERE\n[%s] %s\n", cur.Task.ID, cur.Task.Title)
	}
	if svc.Lifecycles != nil {
		open, err := svc.Lifecycles.List(ctx, lifecycles.LifecycleList{Status: "open", Page: page.Page{Limit: 5}})
		if err != nil {
			return nil, promptError(ctx, s, "session_restore", err)
		}
		if open.Total > 0 {
			fmt.Fprintf(&b, "\n## Lifecycles in progress (%d)\n", open.Total)
			for _, l := range open.Items {
				fmt.Fprintf(&b, "- [%s] %s: phase %s (lifecycle %d, %s)\n", l.Task.ID, l.Task.Title, l.Phase, l.ID, l.Definition)
			}
		}
	}
	next, err := svc.Plan.Next(ctx, plan.NextQuery{Agent: s.agent(req)})
	if err != nil {
		return nil, promptError(ctx, s, "session_restore", err)
	}
	b.WriteString("\n## Next task to work on\n")
	if next.Task != nil {
		d, err := svc.Plan.Get(ctx, next.Task.ID.String())
		if err != nil {
			return nil, promptError(ctx, s, "session_restore", err)
		}
		fmt.Fprintf(&b, "[%s] %s (priority: %s)\n%s\n", d.ID, d.Title, d.Priority, next.Rationale)
		if d.Body != "" {
			fmt.Fprintf(&b, "\n%s\n", problem.Clip(d.Body, 500))
		}
	} else if next.Hint != problem.NoAction {
		b.WriteString(next.Rationale + "; " + tool.ActionWords(next.Hint) + ".\n")
	} else {
		b.WriteString(next.Rationale + "\n")
	}
	recent, err := svc.Plan.Recent(ctx, 5)
	if err != nil {
		return nil, promptError(ctx, s, "session_restore", err)
	}
	if len(recent) > 0 {
		b.WriteString("\n## Recent updates\n")
		for i, t := range recent {
			what := string(t.Status)
			if t.UpdatedAt.Equal(t.CreatedAt) {
				what = "created"
			}
			fmt.Fprintf(&b, "%d. [%s] %s - %s (%s)\n", i+1, t.ID, t.Title, what, tool.Timestamp(t.UpdatedAt))
		}
	}
	return userText("Project status", strings.TrimRight(b.String(), "\n")), nil
}

func (s *server) taskContext(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	ref := strings.TrimSpace(req.Params.Arguments["taskId"])
	if ref == "" {
		return nil, promptError(ctx, s, "task_context", &problem.FieldError{Field: "taskId", Problem: "is required", Fix: `pass a task id such as "12"`})
	}
	svc, err := s.opts.Services(ctx)
	if err != nil {
		return nil, promptError(ctx, s, "task_context", err)
	}
	d, err := svc.Plan.Get(ctx, ref)
	if err != nil {
		var fe *problem.FieldError
		if errors.As(err, &fe) {
			fe.Field = "taskId"
		}
		return nil, promptError(ctx, s, "task_context", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Task: %s\n\nID: %s", d.Title, d.ID)
	if d.ParentID != 0 {
		fmt.Fprintf(&b, " (subtask %s)", task.RefString(d.Task))
	}
	fmt.Fprintf(&b, "\nStatus: %s\nPriority: %s\nCreated: %s\n", d.Status, d.Priority, d.CreatedAt.Format("2006-01-02"))
	if d.Body != "" {
		fmt.Fprintf(&b, "\n## Description\n%s\n", problem.Clip(d.Body, 1200))
	}
	if len(d.Deps) > 0 {
		b.WriteString("\n## Dependencies\n")
		shown, more, moreOpen := task.Glance(d.Deps, plantools.LinksShown)
		for _, x := range shown {
			mark := ""
			if x.Status == task.StatusDone {
				mark = " ✓"
			}
			fmt.Fprintf(&b, "- [%s] %s - status: %s%s\n", x.ID, x.Title, x.Status, mark)
		}
		if more > 0 {
			fmt.Fprintf(&b, "- (%s)\n", plantools.OmittedLinks(more, moreOpen))
		}
	}
	if len(d.Dependents) > 0 {
		b.WriteString("\n## Dependent tasks (waiting on this)\n")
		shown, more, moreOpen := task.Glance(d.Dependents, plantools.LinksShown)
		for _, x := range shown {
			fmt.Fprintf(&b, "- [%s] %s\n", x.ID, x.Title)
		}
		if more > 0 {
			fmt.Fprintf(&b, "- (%s)\n", plantools.OmittedLinks(more, moreOpen))
		}
	}
	if len(d.Subtasks) > 0 {
		done := 0
		for _, x := range d.Subtasks {
			if x.Status == task.StatusDone {
				done++
			}
		}
		fmt.Fprintf(&b, "\n## Subtasks (%d/%d complete)\n", done, len(d.Subtasks))
		shown, more, moreOpen := task.Glance(d.Subtasks, plantools.LinksShown)
		for _, x := range shown {
			box := " "
			if x.Status == task.StatusDone {
				box = "x"
			}
			fmt.Fprintf(&b, "- [%s] %s %s\n", box, task.RefString(x), x.Title)
		}
		if more > 0 {
			fmt.Fprintf(&b, "- (%s)\n", plantools.OmittedLinks(more, moreOpen))
		}
	}
	return userText("Task "+d.ID.String(), strings.TrimRight(b.String(), "\n")), nil
}

// completeTaskID offers the ids that start with what was typed, open tasks
// first.
func completeTaskID(ctx context.Context, s *server, arg, prefix string) (mcp.CompletionResultDetails, error) {
	if arg != "taskId" {
		return mcp.CompletionResultDetails{Values: []string{}}, nil
	}
	svc, err := s.opts.Services(ctx)
	if err != nil {
		return mcp.CompletionResultDetails{}, err
	}
	ids, err := taskIDs(ctx, svc, prefix)
	if err != nil {
		return mcp.CompletionResultDetails{}, err
	}
	return completed(ids), nil
}

// completion answers completion/complete for the served prompts.
func (s *server) completion(prompts []prompt) func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	byName := map[string]prompt{}
	for _, p := range prompts {
		byName[p.def.Name] = p
	}
	return func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		empty := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}}}
		ref := req.Params.Ref
		if ref != nil && ref.Type == "ref/resource" {
			d, err := s.completeResource(ctx, ref.URI, req.Params.Argument.Name, req.Params.Argument.Value)
			if err != nil {
				return nil, promptError(ctx, s, "completion/complete", err)
			}
			return &mcp.CompleteResult{Completion: d}, nil
		}
		if ref == nil || ref.Type != "ref/prompt" {
			return empty, nil
		}
		p, ok := byName[ref.Name]
		if !ok || p.complete == nil {
			return empty, nil // nothing to offer is an empty list, not an error
		}
		d, err := p.complete(ctx, s, req.Params.Argument.Name, req.Params.Argument.Value)
		if err != nil {
			return nil, promptError(ctx, s, ref.Name, err)
		}
		return &mcp.CompleteResult{Completion: d}, nil
	}
}
