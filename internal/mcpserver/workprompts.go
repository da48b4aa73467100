package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	focustools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/focus"
	memorytools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/memory"
	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	projecttools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/project"
	sessiontools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/session"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/brief"
)

// The working prompts: the moments of a session (its start, a new task, an
// error, a commit, a hand-off), each assembled from what the tools of that
// moment answer (their handlers, so their text), with the next calls to
// make. They are served whatever the toolsets: a prompt costs nothing until
// it is asked for.

func workPrompts() []prompt {
	return []prompt{
		{def: mcp.Prompt{Name: "bootstrap", Title: "Start a session",
			Description: "The session picture in one message: YOU ARE HERE, the next task, loops, project, conventions, mistakes, decisions.",
			Arguments: []*mcp.PromptArgument{{Name: "task_id", Description: "a task to bias the picture toward (default: the current one)"},
				{Name: "budget_tokens", Description: fmt.Sprintf("default %d", brief.DefaultBootstrapBudget)}}},
			build:    func(s *server) mcp.PromptHandler { return s.promptHandler("bootstrap", bootstrapPrompt) },
			complete: completeBy(map[string]completer{"task_id": completeOpenTasks, "budget_tokens": completeBudget})},
		{def: mcp.Prompt{Name: "plan_task", Title: "Classify and plan a task",
			Description: "A task classified (skills, workflows), what memory recalls about it, and how to break it into the plan.",
			Arguments: []*mcp.PromptArgument{{Name: "description", Description: "the task in a sentence or a few", Required: true},
				{Name: "parent", Description: "the task id to plan it under"}}},
			build:    func(s *server) mcp.PromptHandler { return s.promptHandler("plan_task", planTaskPrompt) },
			complete: completeBy(map[string]completer{"description": completeTitles, "parent": completeOpenTasks})},
		{def: mcp.Prompt{Name: "diagnose_error", Title: "Diagnose an error",
			Description: "Past mistakes like an error, with their root causes and fixes, and what to record once it is fixed.",
			Arguments:   []*mcp.PromptArgument{{Name: "error", Description: "the error message or its key line", Required: true}}},
			build:    func(s *server) mcp.PromptHandler { return s.promptHandler("diagnose_error", diagnosePrompt) },
			complete: completeBy(map[string]completer{"error": completeMistakes})},
		{def: mcp.Prompt{Name: "review_before_commit", Title: "Review before commit",
			Description: "A task's state, the project's conventions and known mistakes, the branch context, and a checklist before committing.",
			Arguments:   []*mcp.PromptArgument{{Name: "task_id", Description: "default: the current task"}}},
			build:    func(s *server) mcp.PromptHandler { return s.promptHandler("review_before_commit", reviewPrompt) },
			complete: completeBy(map[string]completer{"task_id": completeOpenTasks})},
		{def: mcp.Prompt{Name: "handoff", Title: "Hand off",
			Description: "What the next agent or session needs: the session's record, YOU ARE HERE, the branch, the next task; and how to close.",
			Arguments:   []*mcp.PromptArgument{{Name: "session_id", Description: "default: this agent's open session"}}},
			build:    func(s *server) mcp.PromptHandler { return s.promptHandler("handoff", handoffPrompt) },
			complete: completeBy(map[string]completer{"session_id": completeSessions})},
	}
}

// completer offers values of one argument that start with prefix.
type completer func(ctx context.Context, c tool.Call, prefix string) ([]string, error)

// completeBy is a prompt's completion by argument name.
func completeBy(by map[string]completer) func(ctx context.Context, s *server, arg, prefix string) (mcp.CompletionResultDetails, error) {
	return func(ctx context.Context, s *server, arg, prefix string) (mcp.CompletionResultDetails, error) {
		f, ok := by[arg]
		if !ok {
			return mcp.CompletionResultDetails{Values: []string{}}, nil
		}
		svc, err := s.opts.Services(ctx)
		if err != nil {
			return mcp.CompletionResultDetails{}, err
		}
		vs, err := f(ctx, tool.Call{Set: svc, Host: s}, prefix)
		if err != nil {
			return mcp.CompletionResultDetails{}, err
		}
		return completed(vs), nil
	}
}

// completeOpenTasks offers task ids, open ones first.
func completeOpenTasks(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	return taskIDs(ctx, c.Set, prefix)
}

// completeTitles offers the titles of open tasks (to plan one already
// written down).
func completeTitles(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	b, err := c.Plan.Board(ctx)
	if err != nil {
		return nil, err
	}
	var ts []string
	for _, t := range b.Tasks.All() {
		if t.Status.Open() {
			ts = append(ts, t.Title)
		}
	}
	return startsWith(ts, prefix), nil
}

func completeBudget(_ context.Context, _ tool.Call, prefix string) ([]string, error) {
	var vs []string
	for _, n := range []int{brief.MinBootstrapBudget, brief.DefaultBootstrapBudget, 2 * brief.DefaultBootstrapBudget, brief.MaxBootstrapBudget} {
		vs = append(vs, fmt.Sprint(n))
	}
	return startsWith(vs, prefix), nil
}

// promptFunc assembles a prompt's text from its arguments.
type promptFunc func(ctx context.Context, c tool.Call, args map[string]string) (string, error)

// promptHandler runs a promptFunc as the tools run a handler: the
// project's services, the agent and session of the request.
func (s *server) promptHandler(name string, f promptFunc) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		svc, err := s.opts.Services(ctx)
		if err != nil {
			return nil, promptError(ctx, s, name, err)
		}
		ctx, agent := s.attach(ctx, svc, s.agent(req), true)
		args := map[string]string{}
		for k, v := range req.Params.Arguments {
			args[k] = strings.TrimSpace(v)
		}
		text, err := f(ctx, tool.Call{Set: svc, Agent: agent, Host: s}, args)
		if err != nil {
			return nil, promptError(ctx, s, name, err)
		}
		return userText(name, text), nil
	}
}

// section is a titled part of a prompt: a tool's text under a heading.
func section(b *strings.Builder, title, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteString("\n\n")
	}
	fmt.Fprintf(b, "## %s\n%s", title, strings.TrimRight(text, "\n"))
}

// argField renames a FieldError's field to the prompt argument it came from.
func argField(err error, arg string) error {
	var fe *problem.FieldError
	if errors.As(err, &fe) {
		fe.Field = arg
	}
	return err
}

func bootstrapPrompt(ctx context.Context, c tool.Call, args map[string]string) (string, error) {
	req := brief.BootstrapRequest{Agent: c.Agent, Hint: render.BootstrapHint}
	if v := args["budget_tokens"]; v != "" {
		if _, err := fmt.Sscan(v, &req.BudgetTokens); err != nil || req.BudgetTokens < brief.MinBootstrapBudget || req.BudgetTokens > brief.MaxBootstrapBudget {
			return "", &problem.FieldError{Field: "budget_tokens", Problem: "is " + problem.Quote(v),
				Fix: fmt.Sprintf("pass a number from %d to %d", brief.MinBootstrapBudget, brief.MaxBootstrapBudget)}
		}
	}
	if id := args["task_id"]; id != "" {
		d, err := c.Plan.Get(ctx, id)
		if err != nil {
			return "", argField(err, "task_id")
		}
		req.Query = d.Title + " " + problem.Clip(d.Body, 300)
	}
	b, err := c.Brief.Bootstrap(ctx, req)
	if err != nil {
		return "", err
	}
	return strings.TrimRight(b.Text, "\n") + "\n\nWork from YOU ARE HERE; fetch what a section left out with the calls it names.", nil
}

func planTaskPrompt(ctx context.Context, c tool.Call, args map[string]string) (string, error) {
	desc := args["description"]
	if desc == "" {
		return "", &problem.FieldError{Field: "description", Problem: "is required", Fix: "describe the task in a sentence or a few"}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Plan this task\n%s", problem.Clip(desc, 2000))
	if p := args["parent"]; p != "" {
		text, _, err := plantools.GetTask(ctx, c, plantools.IDArgs{ID: tool.IDArg(p)})
		if err != nil {
			return "", argField(err, "parent")
		}
		section(&b, "Under", text)
	}
	text, _, err := projecttools.ClassifyTool(ctx, c, projecttools.ClassifyArgs{Description: desc})
	if err != nil {
		return "", err
	}
	section(&b, "Who and how (classify_task)", text)
	text, _, err = memorytools.MemorySearch(ctx, c, memorytools.MemorySearchArgs{Query: desc, Limit: 5})
	if err != nil {
		return "", err
	}
	section(&b, "What memory recalls (memory_search)", text)
	how := "Read the entries that bear on it (memory_get with their ids). Then write the plan down: create_task for each step, " +
		"with dependencies where one step needs another"
	if p := args["parent"]; p != "" {
		how += fmt.Sprintf(", and add_subtask under %s for the small ones", p)
	}
	how += "; record the main choice with memory_add_decision (rationale, alternatives). Start the first step with switch_focus."
	section(&b, "Then", how)
	return b.String(), nil
}

func diagnosePrompt(ctx context.Context, c tool.Call, args map[string]string) (string, error) {
	msg := args["error"]
	if msg == "" {
		return "", &problem.FieldError{Field: "error", Problem: "is required", Fix: "pass the error message or its key line"}
	}
	text, _, err := memorytools.DiagnoseError(ctx, c, memorytools.DiagnoseArgs{Error: msg})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Diagnose this error\n%s", problem.Clip(msg, 2000))
	section(&b, "Past mistakes like it (diagnose_error)", text)
	section(&b, "Then", "If a past fix applies, apply it and check it. Otherwise find the root cause before changing code. "+
		"Once it is fixed, record it with memory_add_mistake (root_cause, fix, prevention), so the next agent finds it here.")
	return b.String(), nil
}

func reviewPrompt(ctx context.Context, c tool.Call, args map[string]string) (string, error) {
	var b strings.Builder
	b.WriteString("# Review before commit")
	if id := args["task_id"]; id != "" {
		text, _, err := plantools.GetTask(ctx, c, plantools.IDArgs{ID: tool.IDArg(id)})
		if err != nil {
			return "", argField(err, "task_id")
		}
		section(&b, "The task", text)
	} else {
		text, _, err := focustools.GetCurrentTask(ctx, c, tool.NoArgs{})
		if err != nil {
			return "", err
		}
		section(&b, "The task (YOU ARE HERE)", text)
	}
	for _, q := range []struct{ title, typ string }{{"Conventions to keep", "convention"}, {"Mistakes not to repeat", "mistake"}} {
		text, _, err := memorytools.MemorySearch(ctx, c, memorytools.MemorySearchArgs{Type: tool.StringList{q.typ}, Limit: 8})
		if err != nil {
			return "", err
		}
		section(&b, q.title, text)
	}
	if text, _, err := sessiontools.BranchGet(ctx, c, sessiontools.BranchArgs{Action: "get", Limit: 5}); err == nil {
		section(&b, "The branch", text)
	}
	section(&b, "Checklist", "1. The change does what the task says, and nothing it does not.\n"+
		"2. The tests pass, and one would fail without the change.\n"+
		"3. The conventions above hold in the diff; none of the mistakes above recurs.\n"+
		"4. The hands validators (validate_*, scan_secrets, or `cairn check`) report nothing new.\n"+
		"5. Decisions made on the way are recorded (memory_add_decision); the task is completed (complete_current_task) after the commit.")
	return b.String(), nil
}

func handoffPrompt(ctx context.Context, c tool.Call, args map[string]string) (string, error) {
	var b strings.Builder
	b.WriteString("# Hand off")
	text, _, err := sessiontools.SessionGet(ctx, c, sessiontools.SessionArgs{Action: "get", SessionID: args["session_id"], Limit: 10})
	switch {
	case err == nil:
		section(&b, "This session", text)
	case args["session_id"] != "":
		return "", argField(err, "session_id")
	default:
		section(&b, "This session", "No open session: the record below is what the plan and the branch hold.")
	}
	if text, _, err = focustools.GetCurrentTask(ctx, c, tool.NoArgs{}); err != nil {
		return "", err
	}
	section(&b, "YOU ARE HERE", text)
	if text, _, err := sessiontools.BranchGet(ctx, c, sessiontools.BranchArgs{Action: "get", Limit: 5}); err == nil {
		section(&b, "The branch", text)
	}
	if text, _, err = plantools.GetNextTask(ctx, c, plantools.NextTaskArgs{}); err != nil {
		return "", err
	}
	section(&b, "Next", text)
	section(&b, "Then", "Leave the next agent what it cannot read above: note where the work stands in the task (update_current_task), "+
		"and end the session with a summary and the tasks still pending (session action end).")
	return b.String(), nil
}
